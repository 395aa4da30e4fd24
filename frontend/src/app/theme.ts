import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // indigo.8 (#3b5bdb) is 5.7:1 on white; the default shade 6 was 4.3:1 (WCAG AA wants 4.5).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
});

/** Text on the "light" variant's tint: shade 9, darker still for yellow and orange (each ≥ 4.5:1 on its tint). */
const LIGHT_TEXT: Record<string, string> = { yellow: '#7a5000', orange: '#a33f00', lime: '#4b6b00' };

/**
 * WCAG AA contrast: dimmed text is #5c636a (6:1 on white; Mantine's
 * gray.6 #868e96 was 3.3:1), and every color's light-variant text (badges,
 * light buttons, alerts) is dark enough for its tint.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': '#5c636a' };
  for (const name of Object.keys(t.colors)) {
    light[`--mantine-color-${name}-light-color`] = LIGHT_TEXT[name] ?? t.colors[name]![9]!;
    light[`--mantine-color-${name}-text`] = LIGHT_TEXT[name] ?? t.colors[name]![9]!;
  }
  return { variables: {}, light, dark: {} };
};
