// Accounts: who a key or a console user belongs to, their plan and any custom monthly limit.
import type { Account } from '../domain/account.ts';
import type { PlanName } from '../domain/plans.ts';
import { num, toAccount } from './rows.ts';
import { isUniqueViolation, OverSql, type Sql } from './sql.ts';

export class StoreConflict extends Error {
  override name = 'StoreConflict';
}

/** Inserts an account (in the caller's transaction); StoreConflict when the email is taken. */
export async function insertAccount(t: Sql, a: Account): Promise<void> {
  try {
    await t.run('INSERT INTO accounts (id, email, plan, quota_limit, created_at) VALUES (?, ?, ?, ?, ?)', [a.id, a.email, a.plan, a.quotaLimit, a.createdAt]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new StoreConflict(`an account with email ${a.email} exists`);
    throw err;
  }
}

export interface AccountStore {
  /** Throws StoreConflict when the email is taken. */
  create(account: Account): Promise<void>;
  get(accountId: string): Promise<Account | null>;
  count(): Promise<number>;
  /** accounts in creation order, those whose email contains `email` (case-insensitive) when given */
  list(opts: { email?: string; limit: number }): Promise<Account[]>;
  findByEmail(email: string): Promise<Account | null>;
  setPlan(accountId: string, plan: PlanName): Promise<Account | null>;
  setQuotaLimit(accountId: string, limit: number | null): Promise<Account | null>;
  /** days the account's batch jobs are kept; null: the service's default */
  setBatchRetention(accountId: string, days: number | null): Promise<Account | null>;
}

export class SqlAccountStore extends OverSql implements AccountStore {
  create(a: Account): Promise<void> {
    return insertAccount(this.sql, a);
  }

  async get(accountId: string): Promise<Account | null> {
    const r = await this.sql.get('SELECT * FROM accounts WHERE id = ?', [accountId]);
    return r ? toAccount(r) : null;
  }

  async count(): Promise<number> {
    return num(await this.sql.get('SELECT count(*) AS n FROM accounts'));
  }

  async list(opts: { email?: string; limit: number }): Promise<Account[]> {
    const rows = opts.email
      ? await this.sql.all("SELECT * FROM accounts WHERE lower(email) LIKE ? ESCAPE '\\' ORDER BY created_at, id LIMIT ?", [`%${opts.email.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`, opts.limit])
      : await this.sql.all('SELECT * FROM accounts ORDER BY created_at, id LIMIT ?', [opts.limit]);
    return rows.map(toAccount);
  }

  async findByEmail(email: string): Promise<Account | null> {
    const r = await this.sql.get('SELECT * FROM accounts WHERE lower(email) = ?', [email.trim().toLowerCase()]);
    return r ? toAccount(r) : null;
  }

  async setPlan(accountId: string, plan: PlanName): Promise<Account | null> {
    const r = await this.sql.get('UPDATE accounts SET plan = ? WHERE id = ? RETURNING *', [plan, accountId]);
    return r ? toAccount(r) : null;
  }

  async setQuotaLimit(accountId: string, limit: number | null): Promise<Account | null> {
    const r = await this.sql.get('UPDATE accounts SET quota_limit = ? WHERE id = ? RETURNING *', [limit, accountId]);
    return r ? toAccount(r) : null;
  }

  async setBatchRetention(accountId: string, days: number | null): Promise<Account | null> {
    const r = await this.sql.get('UPDATE accounts SET batch_retention_days = ? WHERE id = ? RETURNING *', [days, accountId]);
    return r ? toAccount(r) : null;
  }
}
