// The watch list's rules, pure: what a check observed, whether it is a change worth a history
// row, which events it raises, and when the next check is due.
import type { BizStatus } from './verification.ts';

/** What one check of a watched business observed (the fields history compares and reports). */
export interface WatchState {
  biz_status: BizStatus;
  grade: string | null;
  bounce_prob: number | null;
  action: string | null;
  closed_on: string | null;
}

/** The fields whose change makes a history entry (Middesk-style `previous_attributes`). */
export const TRACKED = ['biz_status', 'grade'] as const;
export type TrackedField = (typeof TRACKED)[number];
export type PreviousAttributes = Partial<Pick<WatchState, TrackedField>>;

export interface WatchChange {
  /** null for the first answered check: the timeline starts there, nothing changed from */
  previous: PreviousAttributes | null;
  current: WatchState;
}

/** The change a check made, or null when status and grade are as before. */
export function changeOf(before: WatchState | null, after: WatchState): WatchChange | null {
  if (!before) return { previous: null, current: after };
  const previous: PreviousAttributes = {};
  for (const f of TRACKED) if (before[f] !== after[f]) Object.assign(previous, { [f]: before[f] });
  return Object.keys(previous).length > 0 ? { previous, current: after } : null;
}

export type WatchEventType = 'watch.changed' | 'watch.closed';

/**
 * Events a change raises. The first answered check raises none (the caller saw that state when
 * registering). `watch.closed` only on the transition into closed, so a closure is told once.
 */
export function eventsOf(change: WatchChange | null): WatchEventType[] {
  if (!change?.previous) return [];
  const events: WatchEventType[] = ['watch.changed'];
  if (change.current.biz_status === 'closed' && 'biz_status' in change.previous) events.push('watch.closed');
  return events;
}

/** Next regular check: one plan interval after this one. */
export function nextCheckAt(checkedAt: Date, intervalHours: number): Date {
  return new Date(checkedAt.getTime() + intervalHours * 3600_000);
}

const RETRY_BASE_MS = 60_000;

/**
 * When to try again after `failures` checks in a row got no fresh answer (upstream down): 1, 2,
 * 4 … minutes with ±20 % jitter so processes do not retry in step, never later than the regular
 * interval.
 */
export function retryAt(now: Date, failures: number, intervalHours: number, random: () => number = Math.random): Date {
  const capMs = intervalHours * 3600_000;
  const base = Math.min(capMs, RETRY_BASE_MS * 2 ** Math.min(20, Math.max(0, failures - 1)));
  const jittered = base * (0.8 + 0.4 * random());
  return new Date(now.getTime() + Math.min(capMs, jittered));
}

/** The watch as events and the API describe it. */
export interface WatchView {
  watch_id: string;
  biz_no: string;
  name: string | null;
  address: string | null;
}

/**
 * An event's JSON body, in the Standard Webhooks shape `{type, timestamp, data}`: the watch, what
 * it is now, and the previous values of what changed.
 */
export function watchEventBody(type: WatchEventType, watch: WatchView, change: WatchChange, checkedAt: string): string {
  return JSON.stringify({
    type,
    timestamp: checkedAt,
    data: { ...watch, ...change.current, checked_at: checkedAt, previous_attributes: change.previous },
  });
}
