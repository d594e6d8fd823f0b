// PostgreSQL store through `pg`. Several API and worker processes share one database; every
// check-and-change is a single statement or a transaction, so correctness never depends on
// which process asks.
import pg from 'pg';
import type { PlanName } from '../domain/plans.ts';
import type { CachedStatus } from '../registry/types.ts';
import { RecordReader } from './status-cache-rows.ts';
import type { AddressStore } from './address-store.ts';
import { PostgresAddressStore } from './addresses-postgres.ts';
import type { BatchStore } from './batch-store.ts';
import { PostgresBatchStore } from './batches-postgres.ts';
import { PostgresWatchStore, PostgresWebhookStore } from './watches-postgres.ts';
import type { WatchStore, WebhookStore } from './watch-store.ts';
import type { ConsoleStore } from './console-store.ts';
import { PostgresConsoleStore } from './console-postgres.ts';
import { loadMigrations } from './migrations.ts';
import { toWorkQueue, type WorkQueue } from './work-queue.ts';
import { iso, toAccount, toKey, type Row } from './rows.ts';
import type { ModelParams } from '../domain/model/types.ts';
import {
  StoreConflict, type Account, type AccountOffset, type ApiKeyRecord, type LabelCounts, type LabelRecord, type Reservation, type Store, type Usage,
} from './store.ts';

// int8 counters stay far below 2^53; numbers are friendlier than strings everywhere else
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface PostgresOptions {
  url: string;
  /** a schema of its own (tests give each run one); created if missing */
  schema?: string;
  /** pool size per process: a few connections serve thousands of requests a second */
  poolSize?: number;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  readonly #schema: string | undefined;
  readonly addresses: AddressStore;
  readonly batches: BatchStore;
  readonly watches: WatchStore;
  readonly webhooks: WebhookStore;
  readonly console: ConsoleStore;

  constructor(opts: PostgresOptions) {
    this.#schema = opts.schema;
    if (opts.schema && !/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`bad schema name ${opts.schema}`);
    this.#pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      // a statement that cannot finish in 15 s is a fault, not a slow answer
      statement_timeout: 15_000,
      connectionTimeoutMillis: 5_000,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // an idle client that loses its connection must not crash the process
    this.#pool.on('error', () => {});
    this.addresses = new PostgresAddressStore(this.#pool);
    this.batches = new PostgresBatchStore(this.#pool);
    this.watches = new PostgresWatchStore(this.#pool);
    this.webhooks = new PostgresWebhookStore(this.#pool);
    this.console = new PostgresConsoleStore(this.#pool);
  }

  async #one(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await this.#pool.query(sql, params)).rows[0] as Row | undefined;
  }

  async migrate(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      if (this.#schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.#schema}`);
      // one migrator at a time across every process starting together
      await client.query("SELECT pg_advisory_lock(hashtext('bizcheck.migrate'))");
      try {
        await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL)');
        for (const m of loadMigrations('postgres')) {
          const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
          if (done.rowCount) continue;
          await client.query('BEGIN');
          try {
            await client.query(m.sql);
            await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [m.version]);
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK');
            throw err;
          }
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext('bizcheck.migrate'))");
      }
    } finally {
      client.release();
    }
  }

  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  async workQueue(): Promise<WorkQueue> {
    const r = await this.#pool.query("SELECT state, count(*)::int AS n FROM batch_chunks WHERE state IN ('pending', 'leased') GROUP BY state");
    return toWorkQueue(r.rows as Row[]);
  }

  /** Test helper: removes the schema this store was given. */
  async dropSchema(): Promise<void> {
    if (this.#schema) await this.#pool.query(`DROP SCHEMA IF EXISTS ${this.#schema} CASCADE`);
  }

  async createAccount(a: Account): Promise<void> {
    try {
      await this.#pool.query('INSERT INTO accounts (id, email, plan, quota_limit, created_at) VALUES ($1, $2, $3, $4, $5)', [
        a.id, a.email, a.plan, a.quotaLimit, a.createdAt,
      ]);
    } catch (err) {
      if ((err as { code?: string; constraint?: string }).code === '23505') throw new StoreConflict(`an account with email ${a.email} exists`);
      throw err;
    }
  }

  async getAccount(id: string): Promise<Account | null> {
    const r = await this.#one('SELECT * FROM accounts WHERE id = $1', [id]);
    return r ? toAccount(r) : null;
  }

  async countAccounts(): Promise<number> {
    return Number((await this.#one('SELECT count(*)::int AS n FROM accounts'))?.n ?? 0);
  }

  async setPlan(accountId: string, plan: PlanName): Promise<Account | null> {
    const r = await this.#one('UPDATE accounts SET plan = $1 WHERE id = $2 RETURNING *', [plan, accountId]);
    return r ? toAccount(r) : null;
  }

  async setQuotaLimit(accountId: string, limit: number | null): Promise<Account | null> {
    const r = await this.#one('UPDATE accounts SET quota_limit = $1 WHERE id = $2 RETURNING *', [limit, accountId]);
    return r ? toAccount(r) : null;
  }

  async insertApiKey(k: ApiKeyRecord & { hash: string }): Promise<void> {
    await this.#pool.query(
      'INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [k.id, k.accountId, k.prefix, k.hash, k.createdAt, k.lastUsedAt, k.revokedAt],
    );
  }

  async findByKeyHash(hash: string): Promise<{ account: Account; key: ApiKeyRecord } | null> {
    const r = await this.#one(
      `SELECT a.*, k.id AS key_id, k.prefix, k.created_at AS key_created_at, k.last_used_at, k.revoked_at
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    if (!r) return null;
    return { account: toAccount(r), key: toKey({ ...r, account_id: r.id }) };
  }

  async touchApiKey(keyId: string, at: string, minIntervalMs: number): Promise<void> {
    await this.#pool.query(
      `UPDATE api_keys SET last_used_at = $1 WHERE id = $2
         AND (last_used_at IS NULL OR last_used_at < $1::timestamptz - make_interval(secs => $3))`,
      [at, keyId, minIntervalMs / 1000],
    );
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const res = await this.#pool.query('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    return (res.rows as Row[]).map(toKey);
  }

  async revokeApiKey(prefix: string, at: string): Promise<ApiKeyRecord | null> {
    const r = await this.#one('UPDATE api_keys SET revoked_at = $1 WHERE prefix = $2 AND revoked_at IS NULL RETURNING *', [at, prefix]);
    return r ? toKey(r) : null;
  }

  async reserveLookups(accountId: string, month: string, n: number, limit: number): Promise<Reservation> {
    if (n > 0 && n <= limit) {
      // The conflicting row is locked and the WHERE re-evaluated on the latest version, so
      // concurrent reservations from any number of processes serialise on it exactly.
      const r = await this.#one(
        `INSERT INTO usage_months (account_id, month, used) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, month) DO UPDATE SET used = usage_months.used + excluded.used
          WHERE usage_months.used + excluded.used <= $4
         RETURNING used`,
        [accountId, month, n, limit],
      );
      if (r) return { granted: true, used: Number(r.used) };
    }
    return { granted: n === 0, used: (await this.getUsage(accountId, month)).used };
  }

  async reserveUpTo(accountId: string, month: string, n: number, limit: number): Promise<{ granted: number; used: number }> {
    if (n <= 0 || limit <= 0) return { granted: 0, used: (await this.getUsage(accountId, month)).used };
    // FOR UPDATE in the sub-select waits for any concurrent writer and then reads the committed
    // value, so `old.used` is exactly what this statement adds to
    const grant = () =>
      this.#one(
        `UPDATE usage_months u SET used = u.used + GREATEST(0, LEAST($3::bigint, $4::bigint - old.used))
           FROM (SELECT used FROM usage_months WHERE account_id = $1 AND month = $2 FOR UPDATE) old
          WHERE u.account_id = $1 AND u.month = $2
         RETURNING u.used AS used, u.used - old.used AS granted`,
        [accountId, month, n, limit],
      );
    // one round trip once the month's row exists; the first reservation of a month creates it
    let r = await grant();
    if (!r) {
      await this.#pool.query('INSERT INTO usage_months (account_id, month) VALUES ($1, $2) ON CONFLICT DO NOTHING', [accountId, month]);
      r = await grant();
    }
    return { granted: Number(r?.granted ?? 0), used: Number(r?.used ?? 0) };
  }

  async refundLookups(accountId: string, month: string, n: number): Promise<void> {
    await this.#pool.query('UPDATE usage_months SET used = GREATEST(used - $1, 0) WHERE account_id = $2 AND month = $3', [n, accountId, month]);
  }

  async getUsage(accountId: string, month: string): Promise<Usage> {
    const r = await this.#one('SELECT used, overage FROM usage_months WHERE account_id = $1 AND month = $2', [accountId, month]);
    return { used: Number(r?.used ?? 0), overage: Number(r?.overage ?? 0) };
  }

  async putLabel(l: LabelRecord): Promise<{ replaced: boolean }> {
    // xmax is 0 for a row this statement inserted and non-zero for one it updated
    const r = await this.#one(
      `INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, features, model_version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (account_id, job_id, row_id) DO UPDATE SET bounced = excluded.bounced, reason = excluded.reason,
         b_no = excluded.b_no, address_key = excluded.address_key, features = excluded.features,
         model_version = excluded.model_version, updated_at = excluded.updated_at
       RETURNING (xmax <> 0) AS replaced`,
      [l.accountId, l.jobId, l.rowId, l.bno, l.addressKey, l.bounced, l.reason, JSON.stringify(l.features), l.modelVersion, l.at],
    );
    return { replaced: Boolean(r?.replaced) };
  }

  async labelCounts(accountId: string, bno: string, addressKey: string | null): Promise<LabelCounts> {
    const r = await this.#one(
      `SELECT count(*) FILTER (WHERE b_no = $2 AND bounced)::int AS bb,
              count(*) FILTER (WHERE b_no = $2 AND NOT bounced)::int AS bd,
              count(*) FILTER (WHERE address_key = $3 AND bounced)::int AS ab,
              count(*) FILTER (WHERE address_key = $3 AND NOT bounced)::int AS ad
         FROM labels WHERE account_id = $1 AND (b_no = $2 OR address_key = $3)`,
      [accountId, bno, addressKey],
    );
    return { bizBounced: Number(r?.bb ?? 0), bizDelivered: Number(r?.bd ?? 0), addressBounced: Number(r?.ab ?? 0), addressDelivered: Number(r?.ad ?? 0) };
  }

  async countLabels(since?: string): Promise<number> {
    if (since) return Number((await this.#one('SELECT count(*)::int AS n FROM labels WHERE updated_at > $1', [since]))?.n ?? 0);
    return Number((await this.#one('SELECT count(*)::int AS n FROM labels'))?.n ?? 0);
  }

  async labelsForFit(limit: number): Promise<{ accountId: string; features: Record<string, number>; bounced: boolean }[]> {
    const res = await this.#pool.query("SELECT account_id, features, bounced FROM labels WHERE features <> '{}'::jsonb ORDER BY updated_at DESC LIMIT $1", [limit]);
    return (res.rows as Row[]).map((r) => ({ accountId: String(r.account_id), features: r.features as Record<string, number>, bounced: Boolean(r.bounced) }));
  }

  async saveModel(p: ModelParams): Promise<void> {
    await this.#pool.query('INSERT INTO models (version, kind, params, trained_on, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (version) DO NOTHING', [
      p.version, p.kind, JSON.stringify(p), p.trainedOn, p.createdAt,
    ]);
  }

  async latestModel(): Promise<ModelParams | null> {
    const r = await this.#one("SELECT params FROM models WHERE kind = 'global' ORDER BY created_at DESC, version DESC LIMIT 1");
    return r ? (r.params as ModelParams) : null;
  }

  async saveAccountOffsets(offsets: readonly AccountOffset[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.#pool.query(
      `INSERT INTO account_model_offsets (account_id, model_version, offset_logit, trained_on, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::int[], $5::timestamptz[])
       ON CONFLICT (account_id) DO UPDATE SET model_version = excluded.model_version, offset_logit = excluded.offset_logit,
         trained_on = excluded.trained_on, created_at = excluded.created_at`,
      [offsets.map((o) => o.accountId), offsets.map((o) => o.modelVersion), offsets.map((o) => o.offset), offsets.map((o) => o.trainedOn), offsets.map((o) => o.createdAt)],
    );
  }

  async getAccountOffset(accountId: string): Promise<AccountOffset | null> {
    const r = await this.#one('SELECT * FROM account_model_offsets WHERE account_id = $1', [accountId]);
    return r ? { accountId, modelVersion: String(r.model_version), offset: Number(r.offset_logit), trainedOn: Number(r.trained_on), createdAt: iso(r.created_at) } : null;
  }

  async tryLease(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    const r = await this.#one(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.holder = excluded.holder OR leases.expires_at < $4
       RETURNING holder`,
      [name, holder, new Date(now.getTime() + ttlMs).toISOString(), now.toISOString()],
    );
    return r !== undefined;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.#pool.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
  }

  async getCachedStatuses(bnos: readonly string[]): Promise<Map<string, CachedStatus>> {
    const out = new Map<string, CachedStatus>();
    if (bnos.length === 0) return out;
    // the record as text: alike records are parsed once per read (status-cache-rows.ts), not once each by pg
    const res = await this.#pool.query('SELECT b_no, record::text AS record, source, checked_at, expires_at FROM status_cache WHERE b_no = ANY($1::text[])', [bnos]);
    const reader = new RecordReader();
    for (const r of res.rows as Row[]) {
      out.set(String(r.b_no), {
        record: reader.read(String(r.record)),
        source: String(r.source) as CachedStatus['source'],
        checkedAt: iso(r.checked_at),
        expiresAt: iso(r.expires_at),
      });
    }
    return out;
  }

  async putCachedStatuses(entries: readonly CachedStatus[]): Promise<void> {
    if (entries.length === 0) return;
    // a number twice in one statement would make ON CONFLICT touch a row twice, which PostgreSQL refuses
    entries = [...new Map(entries.map((e) => [e.record.b_no, e] as const)).values()];
    // one round trip for the whole batch; a newer answer is never overwritten by an older one
    await this.#pool.query(
      `INSERT INTO status_cache (b_no, record, source, checked_at, expires_at)
       SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[], $4::timestamptz[], $5::timestamptz[])
       ON CONFLICT (b_no) DO UPDATE SET record = excluded.record, source = excluded.source,
         checked_at = excluded.checked_at, expires_at = excluded.expires_at
       WHERE excluded.checked_at >= status_cache.checked_at`,
      [
        entries.map((e) => e.record.b_no),
        entries.map((e) => JSON.stringify(e.record)),
        entries.map((e) => e.source),
        entries.map((e) => e.checkedAt),
        entries.map((e) => e.expiresAt),
      ],
    );
  }
}
