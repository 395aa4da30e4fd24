import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, getTimeZone, localDay, setTimeZoneForTests } from './dates';

afterEach(() => {
  setTimeZoneForTests(null);
  document.head.querySelectorAll('meta[name="paygate-timezone"]').forEach((m) => m.remove());
});

describe('dates in the configured time zone', () => {
  it('reads the zone the server writes into index.html', () => {
    const m = document.createElement('meta');
    m.name = 'paygate-timezone';
    m.content = 'America/New_York';
    document.head.appendChild(m);
    expect(getTimeZone()).toBe('America/New_York');
  });

  it('falls back to Asia/Kolkata without the tag or with a bad zone', () => {
    expect(getTimeZone()).toBe('Asia/Kolkata');
    setTimeZoneForTests(null);
    const m = document.createElement('meta');
    m.name = 'paygate-timezone';
    m.content = 'Mars/Olympus';
    document.head.appendChild(m);
    expect(getTimeZone()).toBe('Asia/Kolkata');
  });

  it('shows instants in that zone', () => {
    setTimeZoneForTests('Asia/Kolkata');
    // 20:00 UTC is 01:30 the next day in India.
    expect(localDay('2026-11-21T20:00:00Z')).toBe('2026-11-22');
    expect(formatDate('2026-11-21T20:00:00Z')).toBe('22 Nov 2026');
    expect(formatDateTime('2026-11-21T20:00:00Z')).toMatch(/22 Nov 2026.*1:30/);
    setTimeZoneForTests('UTC');
    expect(localDay('2026-11-21T20:00:00Z')).toBe('2026-11-21');
  });

  it('shows a bare local day as that day', () => {
    setTimeZoneForTests('America/Los_Angeles');
    expect(formatDate('2026-11-21')).toBe('21 Nov 2026');
  });
});
