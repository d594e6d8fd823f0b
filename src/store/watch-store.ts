// Storage of the watch list and of webhooks: the operations one implementation (watches.ts)
// offers both engines, checked by one contract suite.
import type { PreviousAttributes, WatchState } from '../domain/watch.ts';
import type { DueDelivery, ListCursor, Watch, WatchHistoryEntry, WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEventInput } from '../domain/watch-entities.ts';

/** One check to commit: the entry's new state, its history row and the events it raises, together. */
export interface WatchCheckCommit {
  watchId: string;
  holder: string;
  checkedAt: string;
  state: WatchState;
  nextCheckAt: string;
  history: { previous: PreviousAttributes | null } | null;
  events: readonly WebhookEventInput[];
}

export interface WatchStore {
  /**
   * Inserts the entry (with its first history row when it was answered), or returns the account's
   * existing entry for the number untouched; null, inserting nothing, when the account already
   * has `limit` entries. The count and the insert are one atomic step among concurrent calls.
   */
  create(watch: Watch, firstHistory: boolean, limit: number): Promise<{ created: boolean; watch: Watch } | null>;
  get(accountId: string, watchId: string): Promise<Watch | null>;
  findByNumber(accountId: string, bno: string): Promise<Watch | null>;
  count(accountId: string): Promise<number>;
  /** The account's entries in creation order, after the cursor. */
  list(accountId: string, opts: { after: ListCursor | null; limit: number }): Promise<Watch[]>;
  remove(accountId: string, watchId: string): Promise<boolean>;
  history(accountId: string, watchId: string): Promise<WatchHistoryEntry[]>;
  /**
   * Leases up to `limit` entries due at `now` (next check reached, no live lease) to `holder`
   * until `leaseUntil`. Each due entry goes to exactly one caller however many ask at once.
   */
  claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<Watch[]>;
  /** Commits a check if `holder` still holds the lease; false when it was lost (then nothing is written). */
  commitCheck(c: WatchCheckCommit): Promise<boolean>;
  /** No fresh answer: count the failure, set the retry time, release the lease (if still held). */
  postpone(watchId: string, holder: string, failures: number, nextCheckAt: string): Promise<void>;
}

export interface AttemptOutcome {
  deliveryId: string;
  holder: string;
  attempt: WebhookAttempt;
  /** `pending` with the next attempt time, or final */
  next: { state: 'pending'; at: string } | { state: 'delivered' | 'failed' };
  /** the receiver said 410 Gone: disable the endpoint and abandon what else waits for it */
  disableEndpoint: { reason: string } | null;
}

export interface WebhookStore {
  /** Creates or replaces the account's endpoint (enabled). */
  putEndpoint(e: WebhookEndpoint): Promise<void>;
  getEndpoint(accountId: string): Promise<WebhookEndpoint | null>;
  /** Removes it and abandons its pending deliveries; false when there was none. */
  deleteEndpoint(accountId: string, at: string): Promise<boolean>;
  /** Queues one event for the account's enabled endpoint; false when it has none. */
  enqueue(accountId: string, event: WebhookEventInput, at: string): Promise<boolean>;
  claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<DueDelivery[]>;
  /** Records an attempt and what follows, if `holder` still holds the lease. */
  recordAttempt(o: AttemptOutcome): Promise<boolean>;
  listDeliveries(accountId: string, opts: { before: ListCursor | null; limit: number }): Promise<WebhookDelivery[]>;
  getDelivery(accountId: string, id: string): Promise<WebhookDelivery | null>;
  /** Every attempt of each delivery, in attempt order, in one query. */
  attempts(accountId: string, deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>>;
}
