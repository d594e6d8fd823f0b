// The console's storage on PostgreSQL. Attempts against one subject are serialised by a
// transaction-scoped advisory lock on it, so the count-then-record is exact across processes.
import type pg from 'pg';
import { inTransaction } from './pg-tx.ts';
import { toAccount, type Row } from './rows.ts';
import type { AttemptOutcome, AttemptSubject, ConsoleSession, ConsoleStore } from './console-store.ts';
import { StoreConflict, type Account } from './store.ts';
import { attemptWindow, toSession } from './console-rows.ts';

export class PostgresConsoleStore implements ConsoleStore {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  #tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, fn);
  }

  async createAccountWithLogin(a: Account, passwordHash: string): Promise<void> {
    try {
      await this.#tx(async (c) => {
        await c.query('INSERT INTO accounts (id, email, plan, quota_limit, created_at) VALUES ($1, $2, $3, $4, $5)', [a.id, a.email, a.plan, a.quotaLimit, a.createdAt]);
        await c.query('INSERT INTO console_logins (account_id, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $3)', [a.id, passwordHash, a.createdAt]);
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new StoreConflict(`an account with email ${a.email} exists`);
      throw err;
    }
  }

  async findLogin(email: string): Promise<{ account: Account; passwordHash: string } | null> {
    const r = (await this.#pool.query('SELECT a.*, l.password_hash FROM accounts a JOIN console_logins l ON l.account_id = a.id WHERE a.email = $1', [email])).rows[0] as Row | undefined;
    return r ? { account: toAccount(r), passwordHash: String(r.password_hash) } : null;
  }

  async createSession(s: ConsoleSession): Promise<void> {
    await this.#pool.query('DELETE FROM console_sessions WHERE expires_at <= $1', [s.createdAt]);
    await this.#pool.query('INSERT INTO console_sessions (id_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [s.idHash, s.accountId, s.createdAt, s.expiresAt]);
  }

  async findSession(idHash: string, now: string): Promise<{ session: ConsoleSession; account: Account } | null> {
    const r = (
      await this.#pool.query(
        `SELECT a.*, s.id_hash, s.account_id, s.created_at AS session_created_at, s.expires_at
           FROM console_sessions s JOIN accounts a ON a.id = s.account_id
          WHERE s.id_hash = $1 AND s.expires_at > $2`,
        [idHash, now],
      )
    ).rows[0] as Row | undefined;
    return r ? { session: toSession(r), account: toAccount(r) } : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#pool.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
  }

  async beginAttempt(attemptId: string, subjects: readonly AttemptSubject[], o: { now: Date; windowMs: number }): Promise<AttemptOutcome> {
    const w = attemptWindow(o.now, o.windowMs);
    return this.#tx(async (c): Promise<AttemptOutcome> => {
      // locks taken in one order everywhere, so two attempts never wait on each other in a cycle
      const keys = [...new Set(subjects.map((s) => `${s.kind}:${s.subject}`))].toSorted();
      for (const k of keys) await c.query("SELECT pg_advisory_xact_lock(hashtext('bizcheck.console_attempts'), hashtext($1))", [k]);
      for (const s of subjects) {
        // the limit-th most recent attempt in the window: while it is there, the subject is at its limit
        const r = (await c.query('SELECT at FROM console_attempts WHERE kind = $1 AND subject = $2 AND at > $3 ORDER BY at DESC LIMIT 1 OFFSET $4', [s.kind, s.subject, w.since, s.limit - 1])).rows[0] as Row | undefined;
        if (r) return { allowed: false, kind: s.kind, retryAt: w.retryAt(r.at) };
      }
      for (const s of subjects) await c.query('INSERT INTO console_attempts (attempt_id, kind, subject, at) VALUES ($1, $2, $3, $4)', [attemptId, s.kind, s.subject, w.now]);
      await c.query('DELETE FROM console_attempts WHERE at < $1', [w.pruneBefore]);
      return { allowed: true };
    });
  }

  async forgetAttempt(attemptId: string, clear?: { kind: string; subject: string }): Promise<void> {
    await this.#pool.query('DELETE FROM console_attempts WHERE attempt_id = $1', [attemptId]);
    if (clear) await this.#pool.query('DELETE FROM console_attempts WHERE kind = $1 AND subject = $2', [clear.kind, clear.subject]);
  }
}
