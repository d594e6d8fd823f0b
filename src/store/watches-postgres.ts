// The watch list and webhooks on PostgreSQL. Due work is claimed with FOR UPDATE SKIP LOCKED so
// schedulers and deliverers in any number of processes never take the same item; commits re-check
// the lease inside their transaction.
import type pg from 'pg';
import { inTransaction as tx } from './pg-tx.ts';
import type { Row } from './rows.ts';
import { attemptsByDelivery, toDelivery, toEndpoint, toHistory, toWatch } from './watch-rows.ts';
import type {
  AttemptOutcome, DueDelivery, ListCursor, Watch, WatchCheckCommit, WatchHistoryEntry, WatchStore, WebhookAttempt, WebhookDelivery, WebhookEndpoint,
  WebhookEventInput, WebhookStore,
} from './watch-store.ts';

const ENQUEUE = `INSERT INTO webhook_deliveries (id, account_id, type, body, state, attempts, next_attempt_at, created_at)
  SELECT $1, account_id, $2, $3, 'pending', 0, $4, $4 FROM webhook_endpoints WHERE account_id = $5 AND disabled_at IS NULL`;

/** Queues an event for the account's enabled endpoint inside the caller's transaction; false without one. */
export async function enqueueEvent(c: pg.PoolClient | pg.Pool, accountId: string, e: WebhookEventInput, at: string): Promise<boolean> {
  return ((await c.query(ENQUEUE, [e.id, e.type, e.body, at, accountId])).rowCount ?? 0) > 0;
}

export class PostgresWatchStore implements WatchStore {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(w: Watch, firstHistory: boolean, limit: number): Promise<{ created: boolean; watch: Watch } | null> {
    return tx(this.#pool, async (c) => {
      // the account row's lock makes count-then-insert one step among concurrent adds
      await c.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [w.accountId]);
      const had = (await c.query('SELECT * FROM watches WHERE account_id = $1 AND b_no = $2', [w.accountId, w.bno])).rows[0] as Row | undefined;
      if (had) return { created: false, watch: toWatch(had) };
      const n = Number(((await c.query('SELECT count(*)::int AS n FROM watches WHERE account_id = $1', [w.accountId])).rows[0] as Row).n);
      if (n >= limit) return null;
      const inserted = (await c.query(
        `INSERT INTO watches (id, account_id, b_no, name, address, state, last_checked_at, next_check_at, failures, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (account_id, b_no) DO NOTHING RETURNING *`,
        [w.id, w.accountId, w.bno, w.name, w.address, w.state ? JSON.stringify(w.state) : null, w.lastCheckedAt, w.nextCheckAt, w.failures, w.createdAt],
      )).rows[0] as Row | undefined;
      if (!inserted) {
        const existing = (await c.query('SELECT * FROM watches WHERE account_id = $1 AND b_no = $2', [w.accountId, w.bno])).rows[0] as Row;
        return { created: false, watch: toWatch(existing) };
      }
      if (firstHistory && w.state && w.lastCheckedAt) {
        await c.query('INSERT INTO watch_history (watch_id, checked_at, state, previous) VALUES ($1, $2, $3, NULL)', [w.id, w.lastCheckedAt, JSON.stringify(w.state)]);
      }
      return { created: true, watch: toWatch(inserted) };
    });
  }

  async get(accountId: string, watchId: string): Promise<Watch | null> {
    const r = (await this.#pool.query('SELECT * FROM watches WHERE id = $1 AND account_id = $2', [watchId, accountId])).rows[0] as Row | undefined;
    return r ? toWatch(r) : null;
  }

  async findByNumber(accountId: string, bno: string): Promise<Watch | null> {
    const r = (await this.#pool.query('SELECT * FROM watches WHERE account_id = $1 AND b_no = $2', [accountId, bno])).rows[0] as Row | undefined;
    return r ? toWatch(r) : null;
  }

  async count(accountId: string): Promise<number> {
    return Number(((await this.#pool.query('SELECT count(*)::int AS n FROM watches WHERE account_id = $1', [accountId])).rows[0] as Row).n);
  }

  async list(accountId: string, o: { after: ListCursor | null; limit: number }): Promise<Watch[]> {
    const { rows } = o.after
      ? await this.#pool.query('SELECT * FROM watches WHERE account_id = $1 AND (created_at, id) > ($2::timestamptz, $3) ORDER BY created_at, id LIMIT $4', [accountId, o.after.createdAt, o.after.id, o.limit])
      : await this.#pool.query('SELECT * FROM watches WHERE account_id = $1 ORDER BY created_at, id LIMIT $2', [accountId, o.limit]);
    return (rows as Row[]).map(toWatch);
  }

  async remove(accountId: string, watchId: string): Promise<boolean> {
    return ((await this.#pool.query('DELETE FROM watches WHERE id = $1 AND account_id = $2', [watchId, accountId])).rowCount ?? 0) > 0;
  }

  async history(watchId: string): Promise<WatchHistoryEntry[]> {
    return ((await this.#pool.query('SELECT * FROM watch_history WHERE watch_id = $1 ORDER BY checked_at, id', [watchId])).rows as Row[]).map(toHistory);
  }

  async claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<Watch[]> {
    const { rows } = await this.#pool.query(
      `UPDATE watches w SET lease_holder = $1, lease_expires_at = $2
       FROM (SELECT id FROM watches WHERE next_check_at <= $3 AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
             ORDER BY next_check_at LIMIT $4 FOR UPDATE SKIP LOCKED) due
       WHERE w.id = due.id RETURNING w.*`,
      [holder, leaseUntil, now, limit],
    );
    return (rows as Row[]).map(toWatch);
  }

  async commitCheck(ch: WatchCheckCommit): Promise<boolean> {
    return tx(this.#pool, async (c) => {
      const held = (await c.query(
        `UPDATE watches SET state = $1, last_checked_at = $2, next_check_at = $3, failures = 0, lease_holder = NULL, lease_expires_at = NULL
         WHERE id = $4 AND lease_holder = $5 RETURNING account_id`,
        [JSON.stringify(ch.state), ch.checkedAt, ch.nextCheckAt, ch.watchId, ch.holder],
      )).rows[0] as Row | undefined;
      if (!held) return false;
      if (ch.history) {
        await c.query('INSERT INTO watch_history (watch_id, checked_at, state, previous) VALUES ($1, $2, $3, $4)', [
          ch.watchId, ch.checkedAt, JSON.stringify(ch.state), ch.history.previous ? JSON.stringify(ch.history.previous) : null,
        ]);
      }
      for (const e of ch.events) await enqueueEvent(c, String(held.account_id), e, ch.checkedAt);
      return true;
    });
  }

  async postpone(watchId: string, holder: string, failures: number, nextCheckAt: string): Promise<void> {
    await this.#pool.query('UPDATE watches SET failures = $1, next_check_at = $2, lease_holder = NULL, lease_expires_at = NULL WHERE id = $3 AND lease_holder = $4', [
      failures, nextCheckAt, watchId, holder,
    ]);
  }
}

export class PostgresWebhookStore implements WebhookStore {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async putEndpoint(e: WebhookEndpoint): Promise<void> {
    await this.#pool.query(
      `INSERT INTO webhook_endpoints (account_id, url, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at,
         disabled_at = NULL, disabled_reason = NULL`,
      [e.accountId, e.url, e.secret, e.createdAt, e.updatedAt],
    );
  }

  async getEndpoint(accountId: string): Promise<WebhookEndpoint | null> {
    const r = (await this.#pool.query('SELECT * FROM webhook_endpoints WHERE account_id = $1', [accountId])).rows[0] as Row | undefined;
    return r ? toEndpoint(r) : null;
  }

  async deleteEndpoint(accountId: string, at: string): Promise<boolean> {
    return tx(this.#pool, async (c) => {
      const gone = ((await c.query('DELETE FROM webhook_endpoints WHERE account_id = $1', [accountId])).rowCount ?? 0) > 0;
      await abandonPending(c, accountId, at);
      return gone;
    });
  }

  async enqueue(accountId: string, e: WebhookEventInput, at: string): Promise<boolean> {
    return enqueueEvent(this.#pool, accountId, e, at);
  }

  async claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<DueDelivery[]> {
    const { rows } = await this.#pool.query(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.account_id = d.account_id AND e.disabled_at IS NULL
         WHERE d.state = 'pending' AND d.next_attempt_at <= $3 AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $3)
         ORDER BY d.next_attempt_at LIMIT $4 FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries w SET lease_holder = $1, lease_expires_at = $2
       FROM due, webhook_endpoints e WHERE w.id = due.id AND e.account_id = w.account_id
       RETURNING w.*, e.url AS endpoint_url, e.secret AS endpoint_secret`,
      [holder, leaseUntil, now, limit],
    );
    return (rows as Row[]).map((r) => ({ ...toDelivery(r), url: String(r.endpoint_url), secret: String(r.endpoint_secret) }));
  }

  async recordAttempt(o: AttemptOutcome): Promise<boolean> {
    return tx(this.#pool, async (c) => {
      const a = o.attempt;
      const pending = o.next.state === 'pending';
      const held = (await c.query(
        `UPDATE webhook_deliveries SET attempts = $1, last_status = $2, last_error = $3, state = $4, next_attempt_at = $5, finished_at = $6,
           lease_holder = NULL, lease_expires_at = NULL
         WHERE id = $7 AND lease_holder = $8 AND state = 'pending' RETURNING account_id`,
        [a.attempt, a.status, a.error, o.next.state, o.next.state === 'pending' ? o.next.at : null, pending ? null : a.at, o.deliveryId, o.holder],
      )).rows[0] as Row | undefined;
      if (!held) return false;
      await c.query('INSERT INTO webhook_attempts (delivery_id, attempt, at, url, status, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        o.deliveryId, a.attempt, a.at, a.url, a.status, a.error, a.durationMs,
      ]);
      if (o.disableEndpoint) {
        const accountId = String(held.account_id);
        await c.query('UPDATE webhook_endpoints SET disabled_at = $1, disabled_reason = $2 WHERE account_id = $3', [a.at, o.disableEndpoint.reason, accountId]);
        await abandonPending(c, accountId, a.at);
      }
      return true;
    });
  }

  async listDeliveries(accountId: string, o: { before: ListCursor | null; limit: number }): Promise<WebhookDelivery[]> {
    const { rows } = o.before
      ? await this.#pool.query(
          'SELECT * FROM webhook_deliveries WHERE account_id = $1 AND (created_at, id) < ($2::timestamptz, $3) ORDER BY created_at DESC, id DESC LIMIT $4',
          [accountId, o.before.createdAt, o.before.id, o.limit],
        )
      : await this.#pool.query('SELECT * FROM webhook_deliveries WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [accountId, o.limit]);
    return (rows as Row[]).map(toDelivery);
  }

  async getDelivery(accountId: string, id: string): Promise<WebhookDelivery | null> {
    const r = (await this.#pool.query('SELECT * FROM webhook_deliveries WHERE id = $1 AND account_id = $2', [id, accountId])).rows[0] as Row | undefined;
    return r ? toDelivery(r) : null;
  }

  async attempts(deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
    const { rows } = await this.#pool.query('SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt', [deliveryIds]);
    return attemptsByDelivery(deliveryIds, rows as Row[]);
  }
}

async function abandonPending(c: pg.PoolClient, accountId: string, at: string): Promise<void> {
  await c.query("UPDATE webhook_deliveries SET state = 'abandoned', next_attempt_at = NULL, finished_at = $1, lease_holder = NULL WHERE account_id = $2 AND state = 'pending'", [
    at, accountId,
  ]);
}
