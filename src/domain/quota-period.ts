// Quota months are calendar months in Asia/Seoul. Korea has had no daylight saving time since
// 1988, so KST is a fixed UTC+9 and plain arithmetic is exact.

const KST_OFFSET_MS = 9 * 3600 * 1000;

/** "YYYY-MM" of the Seoul calendar month containing `now`. */
export function quotaMonth(now: Date): string {
  const kst = new Date(now.getTime() + KST_OFFSET_MS);
  return `${kst.getUTCFullYear()}-${String(kst.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The instant the next Seoul month starts. */
export function quotaResetsAt(now: Date): Date {
  const kst = new Date(now.getTime() + KST_OFFSET_MS);
  return new Date(Date.UTC(kst.getUTCFullYear(), kst.getUTCMonth() + 1, 1) - KST_OFFSET_MS);
}

/** ISO-8601 in Seoul time, e.g. 2026-12-01T00:00:00+09:00: what a Korean customer reads. */
export function toSeoulIso(at: Date): string {
  const kst = new Date(at.getTime() + KST_OFFSET_MS);
  return `${kst.toISOString().slice(0, 19)}+09:00`;
}

export function secondsUntil(at: Date, now: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
}

/** "YYYY-MM-DD" of the Seoul day containing `now`: NTS counts its daily allowance in these. */
export function seoulDay(now: Date): string {
  return new Date(now.getTime() + KST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The `n` Seoul days ending with the one containing `now`, oldest first ("YYYY-MM-DD"). */
export function seoulDaysBack(now: Date, n: number): string[] {
  return Array.from({ length: n }, (_, i) => seoulDay(new Date(now.getTime() - (n - 1 - i) * 86_400_000)));
}

/** The instant the next Seoul day starts (midnight KST). */
export function nextSeoulDay(now: Date): Date {
  const kst = new Date(now.getTime() + KST_OFFSET_MS);
  return new Date(Date.UTC(kst.getUTCFullYear(), kst.getUTCMonth(), kst.getUTCDate() + 1) - KST_OFFSET_MS);
}
