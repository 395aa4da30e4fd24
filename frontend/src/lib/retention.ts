// How long hit payloads are kept (HIT_PAYLOAD_RETENTION), as the hit log
// list reports it in payload_retention_seconds.

/** "90 days", "1 day", "36 hours": a retention in words. */
export function formatRetention(seconds: number): string {
  const hours = Math.round(seconds / 3600);
  if (hours % 24 === 0) {
    const days = hours / 24;
    return days === 1 ? '1 day' : `${days} days`;
  }
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
