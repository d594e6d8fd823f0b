// Sign-up, sign-in and sessions of the web console. Handlers in routes-session.ts only parse and
// delegate here; cookies are their business, ids and passwords are this module's.
import { randomBytes } from 'node:crypto';
import { newId } from '../accounts/api-key.ts';
import { parseEmail } from '../accounts/accounts.ts';
import type { ConsoleConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import type { ConsoleSession } from '../store/console-store.ts';
import { StoreConflict, type Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';
import { hashPassword, passwordProblem, verifyAgainstNothing, verifyPassword } from './password.ts';
import { deleteAccount } from '../accounts/accounts.ts';
import { hashSessionId, looksLikeSessionId, newSessionId } from './session-token.ts';

export interface SignedIn {
  account: Account;
  /** the new session id: goes into the cookie and nowhere else */
  sessionId: string;
  session: ConsoleSession;
}

export class ConsoleAuth {
  readonly #store: Store;
  readonly #cfg: ConsoleConfig;
  readonly #now: () => Date;

  constructor(store: Store, cfg: ConsoleConfig, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#cfg = cfg;
    this.#now = now;
  }

  /**
   * A new account on the free plan (the CLI sets plans) for an email that has none. The caller
   * learns nothing about whether the email had one: the answer (and the work done: a password
   * hash) is the same either way, nothing is changed for an existing account, and no session is
   * started; the new owner signs in with the password. `existing` hears of the attempt instead.
   */
  async signUp(emailInput: string, password: string, ip: string, existing: (accountId: string | null) => void): Promise<void> {
    if (!this.#cfg.signup) throw new AppError('signup_closed', 'sign-up is closed on this service; ask its operator for an account');
    const email = parseEmail(emailInput);
    const problem = passwordProblem(password);
    if (problem) throw new AppError('bad_request', problem, { extra: { errors: [{ field: 'password', message: problem }] } });
    const attempt = await this.#store.console.beginAttempt(randomBytes(12).toString('base64url'), [{ kind: 'signup-ip', subject: ip, limit: this.#cfg.signupsPerIpHour }], {
      now: this.#now(),
      windowMs: 3600_000,
    });
    if (!attempt.allowed) throw this.#tooMany(attempt.retryAt, 'too many accounts were created from this address; try again later');
    const now = this.#now();
    const account: Account = { id: newId('acc'), email, plan: 'free', quotaLimit: null, batchRetentionDays: null, createdAt: now.toISOString() };
    try {
      await this.#store.console.createAccountWithLogin(account, await hashPassword(password));
    } catch (err) {
      if (!(err instanceof StoreConflict)) throw err;
      // the owner is told by the way they hear of their account (today the operators' log, as there is no mail)
      const login = await this.#store.console.findLogin(email);
      existing(login?.account.id ?? null);
    }
  }

  /**
   * Every attempt counts against the email and the client address before the password is looked
   * at, in one atomic step in the database, so parallel guesses from any number of processes
   * cannot slip past the limit; a success takes its own attempt and the email's failures back.
   */
  async signIn(emailInput: string, password: string, ip: string, previousSessionId?: string): Promise<SignedIn> {
    const email = parseEmail(emailInput);
    const attemptId = randomBytes(12).toString('base64url');
    const { signin } = this.#cfg;
    const attempt = await this.#store.console.beginAttempt(
      attemptId,
      [
        { kind: 'signin-email', subject: email, limit: signin.maxFailures },
        { kind: 'signin-ip', subject: ip, limit: signin.maxFailuresPerIp },
      ],
      { now: this.#now(), windowMs: signin.windowMs },
    );
    if (!attempt.allowed) throw this.#tooMany(attempt.retryAt, 'too many failed sign-ins; wait before trying again');
    const login = await this.#store.console.findLogin(email);
    const ok = login ? await verifyPassword(password, login.passwordHash) : await verifyAgainstNothing(password);
    if (!login || !ok) throw new AppError('invalid_credentials', 'the email or the password is wrong');
    await this.#store.console.forgetAttempt(attemptId, { kind: 'signin-email', subject: email });
    return this.#startSession(login.account, previousSessionId);
  }

  /**
   * Closes the signed-in account once its password is confirmed (a wrong one counts against the
   * email as a failed sign-in does): its keys first, then everything held about it.
   */
  async closeAccount(account: Account, password: string, ip: string): Promise<void> {
    const attemptId = randomBytes(12).toString('base64url');
    const { signin } = this.#cfg;
    const attempt = await this.#store.console.beginAttempt(
      attemptId,
      [
        { kind: 'signin-email', subject: account.email, limit: signin.maxFailures },
        { kind: 'signin-ip', subject: ip, limit: signin.maxFailuresPerIp },
      ],
      { now: this.#now(), windowMs: signin.windowMs },
    );
    if (!attempt.allowed) throw this.#tooMany(attempt.retryAt, 'too many wrong passwords; wait before trying again');
    const login = await this.#store.console.findLogin(account.email);
    if (!login || login.account.id !== account.id || !(await verifyPassword(password, login.passwordHash))) {
      throw new AppError('invalid_credentials', 'the password is wrong; the account was not closed');
    }
    await deleteAccount(this.#store, account.id);
  }

  /** The signed-in account for a cookie value, or null (unknown, malformed, expired). */
  async resolve(sessionId: string | undefined): Promise<{ account: Account; session: ConsoleSession } | null> {
    if (!sessionId || !looksLikeSessionId(sessionId)) return null;
    return this.#store.console.findSession(hashSessionId(sessionId), this.#now().toISOString());
  }

  async signOut(sessionId: string): Promise<void> {
    await this.#store.console.deleteSession(hashSessionId(sessionId));
  }

  /**
   * Always a new id (session fixation: an id planted before sign-in is never the one after), and
   * the session the browser came with, if any, ends.
   */
  async #startSession(account: Account, previousSessionId: string | undefined): Promise<SignedIn> {
    if (previousSessionId && looksLikeSessionId(previousSessionId)) await this.signOut(previousSessionId);
    const now = this.#now();
    const sessionId = newSessionId();
    const session: ConsoleSession = {
      idHash: hashSessionId(sessionId),
      accountId: account.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.#cfg.sessionMs).toISOString(),
    };
    await this.#store.console.createSession(session);
    return { account, sessionId, session };
  }

  #tooMany(retryAt: string, detail: string): AppError {
    const seconds = Math.max(1, Math.ceil((Date.parse(retryAt) - this.#now().getTime()) / 1000));
    return new AppError('too_many_attempts', detail, { headers: { 'retry-after': String(seconds) }, extra: { retry_after_seconds: seconds } });
  }
}
