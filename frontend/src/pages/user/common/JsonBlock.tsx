import { Code, ScrollArea } from '@mantine/core';

/** Pretty JSON in a scrollable code block (bounded height, wraps on phones). */
export function JsonBlock({ value, maxHeight = 320, label }: { value: unknown; maxHeight?: number; label?: string }) {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? 'null';
    } catch {
      text = String(value);
    }
  }
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto">
      <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {text}
      </Code>
    </ScrollArea.Autosize>
  );
}
