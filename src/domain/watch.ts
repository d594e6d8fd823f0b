// The watch list's rules, pure: what a check observed, whether it is a change worth a history
// row, which events it raises, and when the next check is due.
import type { BizStatus } from './verification.ts';
import type { WatchFilter } from './watch-entities.ts';

/** What one check of a watched business observed (the fields history compares and reports). */
export interface WatchState {
  biz_status: BizStatus;
  grade: string | null;
  bounce_prob: number | null;
  action: string | null;
  closed_on: string | null;
  /** NTS tax type code and text, and when it last changed (YYYY-MM-DD); absent in states stored before they were kept */
  tax_type_cd?: string | null;
  tax_type?: string | null;
  tax_type_change_dt?: string | null;
  /** the kept record of the NTS answer the check observed (GET /verifications/{id}); absent before they were kept */
  verification_id?: string | null;
  /** when NTS gave the answer that record keeps (an unchanged re-check keeps a new one once a day) */
  verified_at?: string | null;
}

/** How often an unchanged re-check keeps the evidence of its answer: daily proof that nothing changed. */
export const EVIDENCE_EVERY_MS = 86_400_000;

/** Whether a check keeps the evidence of its answer: the first, a change, or a day since the last kept. */
export function keepsEvidence(before: WatchState | null, changed: boolean, checkedAt: Date): boolean {
  if (before === null || changed) return true;
  const last = before.verified_at ? Date.parse(before.verified_at) : Number.NaN;
  return !(checkedAt.getTime() - last < EVIDENCE_EVERY_MS);
}

/**
 * The fields whose change makes a history entry (Middesk-style `previous_attributes`). A field
 * an older stored state lacks is not compared: not knowing it before is not a change.
 */
export const TRACKED = ['biz_status', 'grade', 'closed_on', 'tax_type_cd'] as const;
export type TrackedField = (typeof TRACKED)[number];
export type PreviousAttributes = Partial<Pick<WatchState, TrackedField | 'tax_type'>>;

export interface WatchChange {
  /** null for the first answered check: the timeline starts there, nothing changed from */
  previous: PreviousAttributes | null;
  current: WatchState;
}

/** The change a check made, or null when status and grade are as before. */
export function changeOf(before: WatchState | null, after: WatchState): WatchChange | null {
  if (!before) return { previous: null, current: after };
  const previous: PreviousAttributes = {};
  for (const f of TRACKED) {
    if (before[f] === undefined || before[f] === after[f]) continue;
    // a closure date comes and goes with the closure itself; on its own it is a correction
    if (f === 'closed_on' && (before.biz_status !== 'closed' || after.biz_status !== 'closed')) continue;
    Object.assign(previous, { [f]: before[f] });
  }
  // a new tax type is told with the type it replaced, by name too
  if ('tax_type_cd' in previous) previous.tax_type = before.tax_type ?? null;
  return Object.keys(previous).length > 0 ? { previous, current: after } : null;
}

export const WATCH_EVENT_TYPES = [
  'watch.changed', 'watch.closed', 'watch.suspended', 'watch.reopened', 'watch.converted', 'watch.tax_type_changed', 'watch.closed_on_corrected',
] as const;
export type WatchEventType = (typeof WATCH_EVENT_TYPES)[number];

/**
 * Events a change raises. The first answered check raises none (the caller saw that state when
 * registering). Each specific event is raised on the transition itself, so it is told once:
 * - `watch.closed` into 폐업 (never for a 단위과세 conversion, which is `watch.converted`);
 * - `watch.suspended` into 휴업; `watch.reopened` back to 계속 from 휴업 or 폐업;
 * - `watch.tax_type_changed` when NTS's tax type code changes (with `tax_type_change_dt`);
 * - `watch.closed_on_corrected` when a closed business's closure date changes.
 * `watch.changed` comes with every change of a tracked field (status, grade, closure date, tax type).
 */
export function eventsOf(change: WatchChange | null): WatchEventType[] {
  if (!change?.previous) return [];
  const { previous: p, current: c } = change;
  const events: WatchEventType[] = ['watch.changed'];
  if ('biz_status' in p) {
    if (c.biz_status === 'closed') events.push('watch.closed');
    if (c.biz_status === 'suspended') events.push('watch.suspended');
    if (c.biz_status === 'converted') events.push('watch.converted');
    if (c.biz_status === 'active' && (p.biz_status === 'suspended' || p.biz_status === 'closed')) events.push('watch.reopened');
  } else if ('closed_on' in p && c.biz_status === 'closed' && p.closed_on !== null && c.closed_on !== null) {
    events.push('watch.closed_on_corrected');
  }
  // an unregistered or unknown number has no tax type to change from or to
  if ('tax_type_cd' in p && p.tax_type_cd && c.tax_type_cd) events.push('watch.tax_type_changed');
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

/**
 * The list's search box: a number when what was typed is digits (hyphens and spaces as people
 * write them: "124-81", "124 81 00998"), matched from its start; anything else is a piece of the
 * name. Blank searches nothing.
 */
export function watchSearch(q: string): Pick<WatchFilter, 'bnoPrefix' | 'nameContains'> {
  const text = q.trim();
  if (text === '') return {};
  const digits = text.replace(/[-\s]/g, '');
  if (/^[0-9]{1,10}$/.test(digits)) return { bnoPrefix: digits };
  return { nameContains: text };
}
