// Embedded store on node:sqlite. Calls are synchronous underneath; the async interface is
// what the PostgreSQL store needs, and costs little here. WAL lets the CLI and the server share
// the file; busy_timeout makes a second process wait for a write lock instead of failing.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PlanName } from '../domain/plans.ts';
import type { CachedStatus } from '../registry/types.ts';
import { RecordReader } from './status-cache-rows.ts';
import type { AddressStore } from './address-store.ts';
import { SqliteAddressStore } from './addresses-sqlite.ts';
import type { BatchStore } from './batch-store.ts';
import { SqliteBatchStore } from './batches-sqlite.ts';
import { SqliteWatchStore, SqliteWebhookStore } from './watches-sqlite.ts';
import type { WatchStore, WebhookStore } from './watch-store.ts';
import type { ConsoleStore } from './console-store.ts';
import { SqliteConsoleStore } from './console-sqlite.ts';
import { loadMigrations } from './migrations.ts';
import { toWorkQueue, type WorkQueue } from './work-queue.ts';
import { SqliteDb } from './sqlite-db.ts';
import { toAccount, toKey, type Row } from './rows.ts';
import type { ModelParams } from '../domain/model/types.ts';
import {
  StoreConflict, type Account, type AccountOffset, type ApiKeyRecord, type LabelCounts, type LabelRecord, type Reservation, type Store, type Usage,
} from './store.ts';

export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly #db: DatabaseSync;
  readonly #d: SqliteDb;
  readonly addresses: AddressStore;
  readonly batches: BatchStore;
  readonly watches: WatchStore;
  readonly webhooks: WebhookStore;
  readonly console: ConsoleStore;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      PRAGMA foreign_keys = ON;
    `);
    this.#d = new SqliteDb(this.#db);
    this.addresses = new SqliteAddressStore(this.#db);
    this.batches = new SqliteBatchStore(this.#d);
    this.watches = new SqliteWatchStore(this.#d);
    this.webhooks = new SqliteWebhookStore(this.#d);
    this.console = new SqliteConsoleStore(this.#d);
  }

  #q(sql: string): StatementSync {
    return this.#d.q(sql);
  }

  #tx<T>(fn: () => T): T {
    return this.#d.tx(fn);
  }

  async migrate(): Promise<void> {
    this.#db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of loadMigrations('sqlite')) {
      this.#tx(() => {
        if (this.#db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version)) return;
        this.#db.exec(m.sql);
        this.#db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, new Date().toISOString());
      });
    }
  }

  async ping(): Promise<void> {
    this.#q('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }

  async workQueue(): Promise<WorkQueue> {
    return toWorkQueue(this.#q("SELECT state, count(*) AS n FROM batch_chunks WHERE state IN ('pending', 'leased') GROUP BY state").all());
  }

  async createAccount(a: Account): Promise<void> {
    try {
      this.#q('INSERT INTO accounts (id, email, plan, quota_limit, created_at) VALUES (?, ?, ?, ?, ?)').run(
        a.id, a.email, a.plan, a.quotaLimit, a.createdAt,
      );
    } catch (err) {
      if (/UNIQUE constraint failed: accounts\.email/.test(String(err))) throw new StoreConflict(`an account with email ${a.email} exists`);
      throw err;
    }
  }

  async getAccount(id: string): Promise<Account | null> {
    const r = this.#q('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return r ? toAccount(r) : null;
  }

  async countAccounts(): Promise<number> {
    return Number((this.#q('SELECT count(*) AS n FROM accounts').get() as Row).n);
  }

  async setPlan(accountId: string, plan: PlanName): Promise<Account | null> {
    const r = this.#q('UPDATE accounts SET plan = ? WHERE id = ? RETURNING *').get(plan, accountId) as Row | undefined;
    return r ? toAccount(r) : null;
  }

  async setQuotaLimit(accountId: string, limit: number | null): Promise<Account | null> {
    const r = this.#q('UPDATE accounts SET quota_limit = ? WHERE id = ? RETURNING *').get(limit, accountId) as Row | undefined;
    return r ? toAccount(r) : null;
  }

  async insertApiKey(k: ApiKeyRecord & { hash: string }): Promise<void> {
    this.#q(
      'INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(k.id, k.accountId, k.prefix, k.hash, k.createdAt, k.lastUsedAt, k.revokedAt);
  }

  async findByKeyHash(hash: string): Promise<{ account: Account; key: ApiKeyRecord } | null> {
    const r = this.#q(
      `SELECT a.*, k.id AS key_id, k.prefix, k.created_at AS key_created_at, k.last_used_at, k.revoked_at
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    ).get(hash) as Row | undefined;
    if (!r) return null;
    return { account: toAccount(r), key: toKey({ ...r, account_id: r.id }) };
  }

  async touchApiKey(keyId: string, at: string, minIntervalMs: number): Promise<void> {
    const before = new Date(Date.parse(at) - minIntervalMs).toISOString();
    this.#q('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)').run(at, keyId, before);
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return (this.#q('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id').all(accountId) as Row[]).map(toKey);
  }

  async revokeApiKey(prefix: string, at: string): Promise<ApiKeyRecord | null> {
    const r = this.#q('UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL RETURNING *').get(at, prefix) as
      | Row
      | undefined;
    return r ? toKey(r) : null;
  }

  async reserveLookups(accountId: string, month: string, n: number, limit: number): Promise<Reservation> {
    if (n > 0 && n <= limit) {
      // One statement: the WHERE on the upsert makes check-and-increment atomic.
      const r = this.#q(
        `INSERT INTO usage_months (account_id, month, used) VALUES (?, ?, ?)
         ON CONFLICT (account_id, month) DO UPDATE SET used = used + excluded.used
          WHERE usage_months.used + excluded.used <= ?
         RETURNING used`,
      ).get(accountId, month, n, limit) as Row | undefined;
      if (r) return { granted: true, used: Number(r.used) };
    }
    return { granted: n === 0, used: (await this.getUsage(accountId, month)).used };
  }

  async reserveUpTo(accountId: string, month: string, n: number, limit: number): Promise<{ granted: number; used: number }> {
    // read and write under one IMMEDIATE transaction: no other process can write in between
    return this.#tx(() => {
      const row = this.#q('SELECT used FROM usage_months WHERE account_id = ? AND month = ?').get(accountId, month) as Row | undefined;
      const before = Number(row?.used ?? 0);
      const granted = Math.max(0, Math.min(n, limit - before));
      if (granted === 0) return { granted, used: before };
      this.#q(
        `INSERT INTO usage_months (account_id, month, used) VALUES (?, ?, ?)
         ON CONFLICT (account_id, month) DO UPDATE SET used = used + excluded.used`,
      ).run(accountId, month, granted);
      return { granted, used: before + granted };
    });
  }

  async refundLookups(accountId: string, month: string, n: number): Promise<void> {
    this.#q('UPDATE usage_months SET used = max(used - ?, 0) WHERE account_id = ? AND month = ?').run(n, accountId, month);
  }

  async getUsage(accountId: string, month: string): Promise<Usage> {
    const r = this.#q('SELECT used, overage FROM usage_months WHERE account_id = ? AND month = ?').get(accountId, month) as Row | undefined;
    return { used: Number(r?.used ?? 0), overage: Number(r?.overage ?? 0) };
  }

  async putLabel(l: LabelRecord): Promise<{ replaced: boolean }> {
    return this.#tx(() => {
      const existed = this.#q('SELECT 1 FROM labels WHERE account_id = ? AND job_id = ? AND row_id = ?').get(l.accountId, l.jobId, l.rowId) !== undefined;
      this.#q(
        `INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, features, model_version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, job_id, row_id) DO UPDATE SET bounced = excluded.bounced, reason = excluded.reason,
           b_no = excluded.b_no, address_key = excluded.address_key, features = excluded.features,
           model_version = excluded.model_version, updated_at = excluded.updated_at`,
      ).run(l.accountId, l.jobId, l.rowId, l.bno, l.addressKey, l.bounced ? 1 : 0, l.reason, JSON.stringify(l.features), l.modelVersion, l.at, l.at);
      return { replaced: existed };
    });
  }

  async labelCounts(accountId: string, bno: string, addressKey: string | null): Promise<LabelCounts> {
    const r = this.#q(
      `SELECT coalesce(sum(CASE WHEN b_no = ? AND bounced = 1 THEN 1 ELSE 0 END), 0) AS bb,
              coalesce(sum(CASE WHEN b_no = ? AND bounced = 0 THEN 1 ELSE 0 END), 0) AS bd,
              coalesce(sum(CASE WHEN address_key = ? AND bounced = 1 THEN 1 ELSE 0 END), 0) AS ab,
              coalesce(sum(CASE WHEN address_key = ? AND bounced = 0 THEN 1 ELSE 0 END), 0) AS ad
         FROM labels WHERE account_id = ? AND (b_no = ? OR address_key = ?)`,
    ).get(bno, bno, addressKey, addressKey, accountId, bno, addressKey) as Row;
    return { bizBounced: Number(r.bb), bizDelivered: Number(r.bd), addressBounced: Number(r.ab), addressDelivered: Number(r.ad) };
  }

  async countLabels(since?: string): Promise<number> {
    if (since) return Number((this.#q('SELECT count(*) AS n FROM labels WHERE updated_at > ?').get(since) as Row).n);
    return Number((this.#q('SELECT count(*) AS n FROM labels').get() as Row).n);
  }

  async labelsForFit(limit: number): Promise<{ accountId: string; features: Record<string, number>; bounced: boolean }[]> {
    return (this.#q("SELECT account_id, features, bounced FROM labels WHERE features <> '{}' ORDER BY updated_at DESC LIMIT ?").all(limit) as Row[]).map((r) => ({
      accountId: String(r.account_id),
      features: JSON.parse(String(r.features)) as Record<string, number>,
      bounced: Number(r.bounced) === 1,
    }));
  }

  async saveModel(p: ModelParams): Promise<void> {
    this.#q('INSERT INTO models (version, kind, params, trained_on, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (version) DO NOTHING').run(
      p.version, p.kind, JSON.stringify(p), p.trainedOn, p.createdAt,
    );
  }

  async latestModel(): Promise<ModelParams | null> {
    const r = this.#q("SELECT params FROM models WHERE kind = 'global' ORDER BY created_at DESC, version DESC LIMIT 1").get() as Row | undefined;
    return r ? (JSON.parse(String(r.params)) as ModelParams) : null;
  }

  async saveAccountOffsets(offsets: readonly AccountOffset[]): Promise<void> {
    const stmt = this.#q(
      `INSERT INTO account_model_offsets (account_id, model_version, offset_logit, trained_on, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET model_version = excluded.model_version, offset_logit = excluded.offset_logit,
         trained_on = excluded.trained_on, created_at = excluded.created_at`,
    );
    this.#tx(() => {
      for (const o of offsets) stmt.run(o.accountId, o.modelVersion, o.offset, o.trainedOn, o.createdAt);
    });
  }

  async getAccountOffset(accountId: string): Promise<AccountOffset | null> {
    const r = this.#q('SELECT * FROM account_model_offsets WHERE account_id = ?').get(accountId) as Row | undefined;
    return r
      ? { accountId, modelVersion: String(r.model_version), offset: Number(r.offset_logit), trainedOn: Number(r.trained_on), createdAt: String(r.created_at) }
      : null;
  }

  async tryLease(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    const r = this.#q(
      `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.holder = excluded.holder OR leases.expires_at < ?
       RETURNING holder`,
    ).get(name, holder, new Date(now.getTime() + ttlMs).toISOString(), now.toISOString()) as Row | undefined;
    return r !== undefined;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    this.#q('DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder);
  }

  async getCachedStatuses(bnos: readonly string[]): Promise<Map<string, CachedStatus>> {
    const out = new Map<string, CachedStatus>();
    if (bnos.length === 0) return out;
    const stmt = this.#q('SELECT b_no, record, source, checked_at, expires_at FROM status_cache WHERE b_no IN (SELECT value FROM json_each(?))');
    // rows as arrays: no object with five named properties made per number (this statement only)
    stmt.setReturnArrays(true);
    const reader = new RecordReader();
    for (const r of stmt.all(JSON.stringify(bnos)) as unknown as [string, string, string, string, string][]) {
      out.set(r[0], { record: reader.read(r[1]), source: r[2] as CachedStatus['source'], checkedAt: r[3], expiresAt: r[4] });
    }
    return out;
  }

  async putCachedStatuses(entries: readonly CachedStatus[]): Promise<void> {
    if (entries.length === 0) return;
    const stmt = this.#q(
      `INSERT INTO status_cache (b_no, record, source, checked_at, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (b_no) DO UPDATE SET record = excluded.record, source = excluded.source,
         checked_at = excluded.checked_at, expires_at = excluded.expires_at
       WHERE excluded.checked_at >= status_cache.checked_at`,
    );
    this.#tx(() => {
      for (const e of entries) stmt.run(e.record.b_no, JSON.stringify(e.record), e.source, e.checkedAt, e.expiresAt);
    });
  }
}
