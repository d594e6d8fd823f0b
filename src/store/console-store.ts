// Storage of the web console: passwords, sessions and counted sign-in attempts. Attempts against
// one subject are serialised by a lock on it (the embedded store's transaction holds the whole
// file), so the count-then-record is exact across processes.
import type { Account } from '../domain/account.ts';
import { insertAccount } from './account-store.ts';
import { attemptWindow, toSession } from './console-rows.ts';
import { toAccount } from './rows.ts';
import { OverSql } from './sql.ts';

export interface ConsoleSession {
  /** SHA-256 of the session id: the id itself lives only in the browser's cookie */
  idHash: string;
  accountId: string;
  createdAt: string;
  expiresAt: string;
}

/** Something attempts are counted against: an email, an IP address… */
export interface AttemptSubject {
  kind: string;
  subject: string;
  /** attempts allowed within the window */
  limit: number;
}

export type AttemptOutcome =
  | { allowed: true }
  /** `retryAt`: when the oldest counted attempt leaves the window and one more is allowed */
  | { allowed: false; kind: string; retryAt: string };

export class ConsoleStore extends OverSql {
  /** The account and its console password in one transaction; StoreConflict when the email is taken. */
  async createAccountWithLogin(a: Account, passwordHash: string): Promise<void> {
    await this.sql.tx(async (t) => {
      await insertAccount(t, a);
      await t.run('INSERT INTO console_logins (account_id, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?)', [a.id, passwordHash, a.createdAt, a.createdAt]);
    });
  }

  async findLogin(email: string): Promise<{ account: Account; passwordHash: string } | null> {
    const r = await this.sql.get('SELECT a.*, l.password_hash FROM accounts a JOIN console_logins l ON l.account_id = a.id WHERE a.email = ?', [email]);
    return r ? { account: toAccount(r), passwordHash: String(r.password_hash) } : null;
  }

  /** Also deletes sessions that have expired, whoever they belong to. */
  async createSession(s: ConsoleSession): Promise<void> {
    await this.sql.tx(async (t) => {
      await t.run('DELETE FROM console_sessions WHERE expires_at <= ?', [s.createdAt]);
      await t.run('INSERT INTO console_sessions (id_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [s.idHash, s.accountId, s.createdAt, s.expiresAt]);
    });
  }

  /** The session and its account, or null when unknown or expired at `now` (ISO). */
  async findSession(idHash: string, now: string): Promise<{ session: ConsoleSession; account: Account } | null> {
    const r = await this.sql.get(
      `SELECT a.*, s.id_hash, s.account_id, s.created_at AS session_created_at, s.expires_at
         FROM console_sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.id_hash = ? AND s.expires_at > ?`,
      [idHash, now],
    );
    return r ? { session: toSession(r), account: toAccount(r) } : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.sql.run('DELETE FROM console_sessions WHERE id_hash = ?', [idHash]);
  }

  /**
   * Atomically, across processes: when every subject has fewer than its limit of attempts in the
   * window (the `windowMs` before `now`), records attempt `attemptId` against each of them and
   * allows it; otherwise records nothing. Attempts older than a day (or the window) are deleted.
   */
  beginAttempt(attemptId: string, subjects: readonly AttemptSubject[], o: { now: Date; windowMs: number }): Promise<AttemptOutcome> {
    const w = attemptWindow(o.now, o.windowMs);
    return this.sql.tx(async (t): Promise<AttemptOutcome> => {
      // locks taken in one order everywhere, so two attempts never wait on each other in a cycle
      for (const k of [...new Set(subjects.map((s) => `console_attempts:${s.kind}:${s.subject}`))].toSorted()) await t.lock(k);
      for (const s of subjects) {
        // the limit-th most recent attempt in the window: while it is there, the subject is at its limit
        const r = await t.get('SELECT at FROM console_attempts WHERE kind = ? AND subject = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?', [s.kind, s.subject, w.since, s.limit - 1]);
        if (r) return { allowed: false, kind: s.kind, retryAt: w.retryAt(r.at) };
      }
      for (const s of subjects) await t.run('INSERT INTO console_attempts (attempt_id, kind, subject, at) VALUES (?, ?, ?, ?)', [attemptId, s.kind, s.subject, w.now]);
      await t.run('DELETE FROM console_attempts WHERE at < ?', [w.pruneBefore]);
      return { allowed: true };
    });
  }

  /** Takes an attempt back (it succeeded), and with `clear` every attempt against that subject. */
  async forgetAttempt(attemptId: string, clear?: { kind: string; subject: string }): Promise<void> {
    await this.sql.tx(async (t) => {
      await t.run('DELETE FROM console_attempts WHERE attempt_id = ?', [attemptId]);
      if (clear) await t.run('DELETE FROM console_attempts WHERE kind = ? AND subject = ?', [clear.kind, clear.subject]);
    });
  }
}
