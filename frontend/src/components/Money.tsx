import { Text, type TextProps } from '@mantine/core';
import { formatINR, signOf } from '../lib/money';

/** An API amount as INR; `colored` shows negatives red and positives green. */
export function Money({ value, colored, ...props }: { value: string | null | undefined; colored?: boolean } & TextProps) {
  const sign = value ? signOf(value) : 0;
  const c = colored ? (sign < 0 ? 'red' : sign > 0 ? 'teal' : undefined) : undefined;
  return (
    <Text component="span" inherit c={c} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} {...props}>
      {formatINR(value)}
    </Text>
  );
}
