// The watch list and webhooks on the embedded store. Every multi-step change is one IMMEDIATE
// transaction, so a check's state, history row and events land together or not at all.
import type { Row } from './rows.ts';
import type { SqliteDb } from './sqlite-db.ts';
import { attemptsByDelivery, toDelivery, toEndpoint, toHistory, toWatch } from './watch-rows.ts';
import type {
  AttemptOutcome, DueDelivery, ListCursor, Watch, WatchCheckCommit, WatchHistoryEntry, WatchStore, WebhookAttempt, WebhookDelivery, WebhookEndpoint,
  WebhookEventInput, WebhookStore,
} from './watch-store.ts';

const ENQUEUE = `INSERT INTO webhook_deliveries (id, account_id, type, body, state, attempts, next_attempt_at, created_at)
  SELECT ?, account_id, ?, ?, 'pending', 0, ?, ? FROM webhook_endpoints WHERE account_id = ? AND disabled_at IS NULL`;

/** Queues an event for the account's enabled endpoint inside the caller's transaction; false without one. */
export function enqueueEvent(d: SqliteDb, accountId: string, e: WebhookEventInput, at: string): boolean {
  return d.q(ENQUEUE).run(e.id, e.type, e.body, at, at, accountId).changes > 0;
}

export class SqliteWatchStore implements WatchStore {
  readonly #d: SqliteDb;
  constructor(d: SqliteDb) {
    this.#d = d;
  }

  async create(w: Watch, firstHistory: boolean, limit: number): Promise<{ created: boolean; watch: Watch } | null> {
    return this.#d.tx(() => {
      const existing = this.#d.q('SELECT * FROM watches WHERE account_id = ? AND b_no = ?').get(w.accountId, w.bno) as Row | undefined;
      if (existing) return { created: false, watch: toWatch(existing) };
      if (Number((this.#d.q('SELECT count(*) AS n FROM watches WHERE account_id = ?').get(w.accountId) as Row).n) >= limit) return null;
      const row = this.#d.q(
        `INSERT INTO watches (id, account_id, b_no, name, address, state, last_checked_at, next_check_at, failures, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ).get(w.id, w.accountId, w.bno, w.name, w.address, w.state ? JSON.stringify(w.state) : null, w.lastCheckedAt, w.nextCheckAt, w.failures, w.createdAt) as Row;
      if (firstHistory && w.state && w.lastCheckedAt) {
        this.#d.q('INSERT INTO watch_history (watch_id, checked_at, state, previous) VALUES (?, ?, ?, NULL)').run(w.id, w.lastCheckedAt, JSON.stringify(w.state));
      }
      return { created: true, watch: toWatch(row) };
    });
  }

  async get(accountId: string, watchId: string): Promise<Watch | null> {
    const r = this.#d.q('SELECT * FROM watches WHERE id = ? AND account_id = ?').get(watchId, accountId) as Row | undefined;
    return r ? toWatch(r) : null;
  }

  async findByNumber(accountId: string, bno: string): Promise<Watch | null> {
    const r = this.#d.q('SELECT * FROM watches WHERE account_id = ? AND b_no = ?').get(accountId, bno) as Row | undefined;
    return r ? toWatch(r) : null;
  }

  async count(accountId: string): Promise<number> {
    return Number((this.#d.q('SELECT count(*) AS n FROM watches WHERE account_id = ?').get(accountId) as Row).n);
  }

  async list(accountId: string, o: { after: ListCursor | null; limit: number }): Promise<Watch[]> {
    const rows = o.after
      ? this.#d.q('SELECT * FROM watches WHERE account_id = ? AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ?')
          .all(accountId, o.after.createdAt, o.after.createdAt, o.after.id, o.limit)
      : this.#d.q('SELECT * FROM watches WHERE account_id = ? ORDER BY created_at, id LIMIT ?').all(accountId, o.limit);
    return (rows as Row[]).map(toWatch);
  }

  async remove(accountId: string, watchId: string): Promise<boolean> {
    return this.#d.q('DELETE FROM watches WHERE id = ? AND account_id = ?').run(watchId, accountId).changes > 0;
  }

  async history(watchId: string): Promise<WatchHistoryEntry[]> {
    return (this.#d.q('SELECT * FROM watch_history WHERE watch_id = ? ORDER BY checked_at, id').all(watchId) as Row[]).map(toHistory);
  }

  async claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<Watch[]> {
    return this.#d.tx(() =>
      (this.#d.q(
        `UPDATE watches SET lease_holder = ?, lease_expires_at = ?
         WHERE id IN (SELECT id FROM watches WHERE next_check_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
                      ORDER BY next_check_at LIMIT ?)
         RETURNING *`,
      ).all(holder, leaseUntil, now, now, limit) as Row[]).map(toWatch),
    );
  }

  async commitCheck(c: WatchCheckCommit): Promise<boolean> {
    return this.#d.tx(() => {
      const held = this.#d.q('SELECT account_id FROM watches WHERE id = ? AND lease_holder = ?').get(c.watchId, c.holder) as Row | undefined;
      if (!held) return false;
      this.#d.q(
        `UPDATE watches SET state = ?, last_checked_at = ?, next_check_at = ?, failures = 0, lease_holder = NULL, lease_expires_at = NULL
         WHERE id = ?`,
      ).run(JSON.stringify(c.state), c.checkedAt, c.nextCheckAt, c.watchId);
      if (c.history) {
        this.#d.q('INSERT INTO watch_history (watch_id, checked_at, state, previous) VALUES (?, ?, ?, ?)')
          .run(c.watchId, c.checkedAt, JSON.stringify(c.state), c.history.previous ? JSON.stringify(c.history.previous) : null);
      }
      for (const e of c.events) enqueueEvent(this.#d, String(held.account_id), e, c.checkedAt);
      return true;
    });
  }

  async postpone(watchId: string, holder: string, failures: number, nextCheckAt: string): Promise<void> {
    this.#d.q('UPDATE watches SET failures = ?, next_check_at = ?, lease_holder = NULL, lease_expires_at = NULL WHERE id = ? AND lease_holder = ?')
      .run(failures, nextCheckAt, watchId, holder);
  }
}

export class SqliteWebhookStore implements WebhookStore {
  readonly #d: SqliteDb;
  constructor(d: SqliteDb) {
    this.#d = d;
  }

  async putEndpoint(e: WebhookEndpoint): Promise<void> {
    this.#d.q(
      `INSERT INTO webhook_endpoints (account_id, url, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at,
         disabled_at = NULL, disabled_reason = NULL`,
    ).run(e.accountId, e.url, e.secret, e.createdAt, e.updatedAt);
  }

  async getEndpoint(accountId: string): Promise<WebhookEndpoint | null> {
    const r = this.#d.q('SELECT * FROM webhook_endpoints WHERE account_id = ?').get(accountId) as Row | undefined;
    return r ? toEndpoint(r) : null;
  }

  async deleteEndpoint(accountId: string, at: string): Promise<boolean> {
    return this.#d.tx(() => {
      const gone = this.#d.q('DELETE FROM webhook_endpoints WHERE account_id = ?').run(accountId).changes > 0;
      this.#abandonPending(accountId, at);
      return gone;
    });
  }

  #abandonPending(accountId: string, at: string): void {
    this.#d.q("UPDATE webhook_deliveries SET state = 'abandoned', next_attempt_at = NULL, finished_at = ?, lease_holder = NULL WHERE account_id = ? AND state = 'pending'")
      .run(at, accountId);
  }

  async enqueue(accountId: string, e: WebhookEventInput, at: string): Promise<boolean> {
    return enqueueEvent(this.#d, accountId, e, at);
  }

  async claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<DueDelivery[]> {
    return this.#d.tx(() => {
      const rows = this.#d.q(
        `UPDATE webhook_deliveries SET lease_holder = ?, lease_expires_at = ?
         WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.account_id = d.account_id AND e.disabled_at IS NULL
                      WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
                      ORDER BY d.next_attempt_at LIMIT ?)
         RETURNING *`,
      ).all(holder, leaseUntil, now, now, limit) as Row[];
      const endpoint = this.#d.q('SELECT url, secret FROM webhook_endpoints WHERE account_id = ?');
      return rows.map((r) => {
        const e = endpoint.get(String(r.account_id)) as Row;
        return { ...toDelivery(r), url: String(e.url), secret: String(e.secret) };
      });
    });
  }

  async recordAttempt(o: AttemptOutcome): Promise<boolean> {
    return this.#d.tx(() => {
      const held = this.#d.q("SELECT account_id FROM webhook_deliveries WHERE id = ? AND lease_holder = ? AND state = 'pending'").get(o.deliveryId, o.holder) as Row | undefined;
      if (!held) return false;
      const a = o.attempt;
      this.#d.q('INSERT INTO webhook_attempts (delivery_id, attempt, at, url, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(o.deliveryId, a.attempt, a.at, a.url, a.status, a.error, a.durationMs);
      const pending = o.next.state === 'pending';
      this.#d.q(
        `UPDATE webhook_deliveries SET attempts = ?, last_status = ?, last_error = ?, state = ?, next_attempt_at = ?, finished_at = ?,
           lease_holder = NULL, lease_expires_at = NULL WHERE id = ?`,
      ).run(a.attempt, a.status, a.error, o.next.state, o.next.state === 'pending' ? o.next.at : null, pending ? null : a.at, o.deliveryId);
      if (o.disableEndpoint) {
        const accountId = String(held.account_id);
        this.#d.q('UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ? WHERE account_id = ?').run(a.at, o.disableEndpoint.reason, accountId);
        this.#abandonPending(accountId, a.at);
      }
      return true;
    });
  }

  async listDeliveries(accountId: string, o: { before: ListCursor | null; limit: number }): Promise<WebhookDelivery[]> {
    const rows = o.before
      ? this.#d.q('SELECT * FROM webhook_deliveries WHERE account_id = ? AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?')
          .all(accountId, o.before.createdAt, o.before.createdAt, o.before.id, o.limit)
      : this.#d.q('SELECT * FROM webhook_deliveries WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(accountId, o.limit);
    return (rows as Row[]).map(toDelivery);
  }

  async getDelivery(accountId: string, id: string): Promise<WebhookDelivery | null> {
    const r = this.#d.q('SELECT * FROM webhook_deliveries WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return r ? toDelivery(r) : null;
  }

  async attempts(deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
    const rows = this.#d.q('SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt')
      .all(JSON.stringify(deliveryIds)) as Row[];
    return attemptsByDelivery(deliveryIds, rows);
  }
}
