import { describe, expect, it } from 'vitest';
import { formatRetention } from './retention';

describe('formatRetention', () => {
  it('says days when the retention is whole days, hours otherwise', () => {
    expect(formatRetention(90 * 86400)).toBe('90 days');
    expect(formatRetention(86400)).toBe('1 day');
    expect(formatRetention(36 * 3600)).toBe('36 hours');
    expect(formatRetention(3600)).toBe('1 hour');
  });
});
