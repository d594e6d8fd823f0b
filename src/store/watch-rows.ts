// Row → Watch / history / webhook records, shared by both engines (see batch-rows.ts for why the
// helpers accept either engine's representation).
import type { PreviousAttributes, WatchState } from '../domain/watch.ts';
import { iso, isoOrNull, json, type Row, str } from './rows.ts';
import type { DeliveryState, WebhookAttempt, WebhookDelivery, WebhookEndpoint, Watch, WatchHistoryEntry } from '../domain/watch-entities.ts';

const numOrNull = (v: unknown): number | null => (v == null ? null : Number(v));

export function toWatch(r: Row): Watch {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    bno: String(r.b_no),
    name: str(r.name),
    address: str(r.address),
    state: r.state == null ? null : json<WatchState>(r.state),
    lastCheckedAt: isoOrNull(r.last_checked_at),
    nextCheckAt: iso(r.next_check_at),
    failures: Number(r.failures),
    createdAt: iso(r.created_at),
  };
}

export function toHistory(r: Row): WatchHistoryEntry {
  return {
    id: Number(r.id),
    watchId: String(r.watch_id),
    checkedAt: iso(r.checked_at),
    state: json<WatchState>(r.state),
    previous: r.previous == null ? null : json<PreviousAttributes>(r.previous),
  };
}

export function toEndpoint(r: Row): WebhookEndpoint {
  return {
    accountId: String(r.account_id),
    url: String(r.url),
    secret: String(r.secret),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    disabledAt: isoOrNull(r.disabled_at),
    disabledReason: str(r.disabled_reason),
    enabledEvents: r.enabled_events == null ? null : json<string[]>(r.enabled_events),
  };
}

export function toDelivery(r: Row): WebhookDelivery {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    type: String(r.type),
    body: String(r.body),
    state: String(r.state) as DeliveryState,
    attempts: Number(r.attempts),
    nextAttemptAt: isoOrNull(r.next_attempt_at),
    lastStatus: numOrNull(r.last_status),
    lastError: str(r.last_error),
    createdAt: iso(r.created_at),
    finishedAt: isoOrNull(r.finished_at),
  };
}

export function toAttempt(r: Row): WebhookAttempt {
  return {
    attempt: Number(r.attempt),
    at: iso(r.at),
    url: String(r.url),
    status: numOrNull(r.status),
    error: str(r.error),
    durationMs: Number(r.duration_ms),
  };
}

/** Attempts rows, already in (delivery, attempt) order, grouped by delivery. */
export function attemptsByDelivery(ids: readonly string[], rows: readonly Row[]): Map<string, WebhookAttempt[]> {
  const out = new Map<string, WebhookAttempt[]>(ids.map((id) => [id, []]));
  for (const r of rows) out.get(String(r.delivery_id))?.push(toAttempt(r));
  return out;
}
