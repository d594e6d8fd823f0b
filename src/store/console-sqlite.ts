// The console's storage on the embedded store. Attempts are checked and counted in one
// IMMEDIATE transaction, which serialises every process writing to the file.
import { toAccount, type Row } from './rows.ts';
import type { SqliteDb } from './sqlite-db.ts';
import type { AttemptOutcome, AttemptSubject, ConsoleSession, ConsoleStore } from './console-store.ts';
import { StoreConflict, type Account } from './store.ts';
import { attemptWindow, toSession } from './console-rows.ts';

export class SqliteConsoleStore implements ConsoleStore {
  readonly #d: SqliteDb;
  constructor(d: SqliteDb) {
    this.#d = d;
  }

  async createAccountWithLogin(a: Account, passwordHash: string): Promise<void> {
    try {
      this.#d.tx(() => {
        this.#d.q('INSERT INTO accounts (id, email, plan, quota_limit, created_at) VALUES (?, ?, ?, ?, ?)').run(a.id, a.email, a.plan, a.quotaLimit, a.createdAt);
        this.#d.q('INSERT INTO console_logins (account_id, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?)').run(a.id, passwordHash, a.createdAt, a.createdAt);
      });
    } catch (err) {
      if (/UNIQUE constraint failed: accounts\.email/.test(String(err))) throw new StoreConflict(`an account with email ${a.email} exists`);
      throw err;
    }
  }

  async findLogin(email: string): Promise<{ account: Account; passwordHash: string } | null> {
    const r = this.#d.q('SELECT a.*, l.password_hash FROM accounts a JOIN console_logins l ON l.account_id = a.id WHERE a.email = ?').get(email) as Row | undefined;
    return r ? { account: toAccount(r), passwordHash: String(r.password_hash) } : null;
  }

  async createSession(s: ConsoleSession): Promise<void> {
    this.#d.tx(() => {
      this.#d.q('DELETE FROM console_sessions WHERE expires_at <= ?').run(s.createdAt);
      this.#d.q('INSERT INTO console_sessions (id_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(s.idHash, s.accountId, s.createdAt, s.expiresAt);
    });
  }

  async findSession(idHash: string, now: string): Promise<{ session: ConsoleSession; account: Account } | null> {
    const r = this.#d.q(
      `SELECT a.*, s.id_hash, s.account_id, s.created_at AS session_created_at, s.expires_at
         FROM console_sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.id_hash = ? AND s.expires_at > ?`,
    ).get(idHash, now) as Row | undefined;
    return r ? { session: toSession(r), account: toAccount(r) } : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    this.#d.q('DELETE FROM console_sessions WHERE id_hash = ?').run(idHash);
  }

  async beginAttempt(attemptId: string, subjects: readonly AttemptSubject[], o: { now: Date; windowMs: number }): Promise<AttemptOutcome> {
    const w = attemptWindow(o.now, o.windowMs);
    return this.#d.tx((): AttemptOutcome => {
      this.#d.q('DELETE FROM console_attempts WHERE at < ?').run(w.pruneBefore);
      for (const s of subjects) {
        // the limit-th most recent attempt in the window: while it is there, the subject is at its limit
        const r = this.#d.q('SELECT at FROM console_attempts WHERE kind = ? AND subject = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?').get(s.kind, s.subject, w.since, s.limit - 1) as Row | undefined;
        if (r) return { allowed: false, kind: s.kind, retryAt: w.retryAt(r.at) };
      }
      const insert = this.#d.q('INSERT INTO console_attempts (attempt_id, kind, subject, at) VALUES (?, ?, ?, ?)');
      for (const s of subjects) insert.run(attemptId, s.kind, s.subject, w.now);
      return { allowed: true };
    });
  }

  async forgetAttempt(attemptId: string, clear?: { kind: string; subject: string }): Promise<void> {
    this.#d.tx(() => {
      this.#d.q('DELETE FROM console_attempts WHERE attempt_id = ?').run(attemptId);
      if (clear) this.#d.q('DELETE FROM console_attempts WHERE kind = ? AND subject = ?').run(clear.kind, clear.subject);
    });
  }
}
