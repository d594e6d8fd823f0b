// Storage of the web console: passwords, sessions and counted sign-in attempts.
// Two implementations (console-sqlite.ts, console-postgres.ts) pass test/console-store.test.ts.
import type { Account } from './store.ts';

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

export interface ConsoleStore {
  /** The account and its console password in one transaction; StoreConflict when the email is taken. */
  createAccountWithLogin(account: Account, passwordHash: string): Promise<void>;
  findLogin(email: string): Promise<{ account: Account; passwordHash: string } | null>;

  /** Also deletes sessions that have expired, whoever they belong to. */
  createSession(session: ConsoleSession): Promise<void>;
  /** The session and its account, or null when unknown or expired at `now` (ISO). */
  findSession(idHash: string, now: string): Promise<{ session: ConsoleSession; account: Account } | null>;
  deleteSession(idHash: string): Promise<void>;

  /**
   * Atomically, across processes: when every subject has fewer than its limit of attempts in the
   * window (the `windowMs` before `now`), records attempt `attemptId` against each of them and
   * allows it; otherwise records nothing. Attempts older than a day (or the window) are deleted.
   */
  beginAttempt(attemptId: string, subjects: readonly AttemptSubject[], opts: { now: Date; windowMs: number }): Promise<AttemptOutcome>;
  /** Takes an attempt back (it succeeded), and with `clear` every attempt against that subject. */
  forgetAttempt(attemptId: string, clear?: { kind: string; subject: string }): Promise<void>;
}
