// API keys, stored only as a SHA-256 hash of the whole key; the prefix stays readable so people
// can tell keys apart. Every change names the account whose key it is.
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import { toAccount, toKey } from './rows.ts';
import { OverSql } from './sql.ts';

export interface KeyStore {
  insert(key: ApiKeyRecord & { hash: string }): Promise<void>;
  /**
   * Inserts the key only while the account has fewer than `limit` unrevoked keys, counted in the
   * same transaction (the account row locked first), so concurrent issues cannot pass the limit.
   */
  insertWithin(key: ApiKeyRecord & { hash: string }, limit: number): Promise<boolean>;
  /** The account and key for an unrevoked key hash, or null. */
  findByHash(hash: string): Promise<{ account: Account; key: ApiKeyRecord } | null>;
  /** Records use at most once per `minIntervalMs`, so authentication stays a read on the hot path. */
  touch(keyId: string, at: string, minIntervalMs: number): Promise<void>;
  list(accountId: string): Promise<ApiKeyRecord[]>;
  /** The account holding the key with this prefix (operators name keys by prefix alone), or null. */
  ownerOf(prefix: string): Promise<string | null>;
  /** Returns the revoked key, or null when the account has no unrevoked key with that prefix. */
  revoke(accountId: string, prefix: string, at: string): Promise<ApiKeyRecord | null>;
}

const INSERT = 'INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
const values = (k: ApiKeyRecord & { hash: string }) => [k.id, k.accountId, k.prefix, k.hash, k.createdAt, k.lastUsedAt, k.revokedAt];

export class SqlKeyStore extends OverSql implements KeyStore {
  async insert(k: ApiKeyRecord & { hash: string }): Promise<void> {
    await this.sql.run(INSERT, values(k));
  }

  insertWithin(k: ApiKeyRecord & { hash: string }, limit: number): Promise<boolean> {
    return this.sql.tx(async (t) => {
      await t.get('SELECT id FROM accounts WHERE id = ? FOR UPDATE', [k.accountId]);
      const active = await t.get('SELECT count(*) AS n FROM api_keys WHERE account_id = ? AND revoked_at IS NULL', [k.accountId]);
      if (Number(active?.n ?? 0) >= limit) return false;
      await t.run(INSERT, values(k));
      return true;
    });
  }

  async findByHash(hash: string): Promise<{ account: Account; key: ApiKeyRecord } | null> {
    const r = await this.sql.get(
      `SELECT a.*, k.id AS key_id, k.prefix, k.created_at AS key_created_at, k.last_used_at, k.revoked_at
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
      [hash],
    );
    if (!r) return null;
    return { account: toAccount(r), key: toKey({ ...r, account_id: r.id }) };
  }

  async touch(keyId: string, at: string, minIntervalMs: number): Promise<void> {
    const before = new Date(Date.parse(at) - minIntervalMs).toISOString();
    await this.sql.run('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [at, keyId, before]);
  }

  async list(accountId: string): Promise<ApiKeyRecord[]> {
    return (await this.sql.all('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id', [accountId])).map(toKey);
  }

  async ownerOf(prefix: string): Promise<string | null> {
    const r = await this.sql.get('SELECT account_id FROM api_keys WHERE prefix = ?', [prefix]);
    return r ? String(r.account_id) : null;
  }

  async revoke(accountId: string, prefix: string, at: string): Promise<ApiKeyRecord | null> {
    const r = await this.sql.get('UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND prefix = ? AND revoked_at IS NULL RETURNING *', [at, accountId, prefix]);
    return r ? toKey(r) : null;
  }
}
