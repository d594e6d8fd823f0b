// The watch list and webhooks as the service knows them: a watched business, its history, an
// account's endpoint and the deliveries of its events.
import type { PreviousAttributes, WatchState } from './watch.ts';

export interface Watch {
  id: string;
  accountId: string;
  bno: string;
  name: string | null;
  address: string | null;
  /** what the last answered check observed; null until one was answered */
  state: WatchState | null;
  lastCheckedAt: string | null;
  nextCheckAt: string;
  /** checks in a row that got no fresh answer */
  failures: number;
  createdAt: string;
}

export interface WatchHistoryEntry {
  id: number;
  watchId: string;
  checkedAt: string;
  state: WatchState;
  previous: PreviousAttributes | null;
}

/** A keyset position in a list ordered by creation: the last item's (created_at, id). */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/**
 * What the watch list may be narrowed to: a status (`unknown` for entries never answered), a
 * number prefix, a piece of the name. Absent fields do not narrow.
 */
export interface WatchFilter {
  status?: string;
  bnoPrefix?: string;
  nameContains?: string;
}

/** An event to deliver to the account's endpoint, if it has an enabled one when this commits. */
export interface WebhookEventInput {
  id: string;
  type: string;
  body: string;
}

export interface WebhookEndpoint {
  accountId: string;
  url: string;
  secret: string;
  createdAt: string;
  updatedAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
  /** the event types it wants; null for every type */
  enabledEvents: string[] | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'abandoned';

export interface WebhookAttempt {
  attempt: number;
  at: string;
  url: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookDelivery {
  id: string;
  accountId: string;
  type: string;
  body: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A claimed delivery with where it goes now (endpoints can change while a delivery waits). */
export interface DueDelivery extends WebhookDelivery {
  url: string;
  secret: string;
}
