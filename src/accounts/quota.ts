// Monthly lookup quota: reserve before answering, refund what was not answered.
import { monthlyLimit } from '../domain/plans.ts';
import { quotaMonth, quotaResetsAt, secondsUntil, seoulDay, seoulDaysBack, toSeoulIso } from '../domain/quota-period.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';

export interface QuotaState {
  limit: number;
  used: number;
  remaining: number;
  overage: number;
  /** start of the next Seoul calendar month */
  resetsAt: Date;
}

/** A grant of lookups within one month; refunds go back to that same month. */
export interface Reservation {
  accountId: string;
  month: string;
  n: number;
  state: QuotaState;
}

/** IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): one "monthly" policy. */
export function rateLimitHeaders(q: QuotaState, now: Date): Record<string, string> {
  const window = Math.round((q.resetsAt.getTime() - new Date(toMonthStart(q.resetsAt)).getTime()) / 1000);
  return {
    'ratelimit-policy': `"monthly";q=${q.limit};w=${window}`,
    ratelimit: `"monthly";r=${q.remaining};t=${secondsUntil(q.resetsAt, now)}`,
  };
}

/** The start of the month that ends at `resetsAt` (KST months are 28–31 days). */
function toMonthStart(resetsAt: Date): number {
  const kst = new Date(resetsAt.getTime() + 9 * 3600_000);
  return Date.UTC(kst.getUTCFullYear(), kst.getUTCMonth() - 1, 1) - 9 * 3600_000;
}

interface Waiter {
  account: Account;
  resolve(r: Reservation): void;
  reject(err: unknown): void;
}

export class Quota {
  readonly #store: Store;
  readonly #now: () => Date;
  /** single-lookup reservations waiting for this tick's shared write, by account and month */
  readonly #pending = new Map<string, { accountId: string; month: string; waiters: Waiter[] }>();
  #flushScheduled = false;

  constructor(store: Store, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  #state(account: Account, used: number, overage: number, now: Date): QuotaState {
    const limit = monthlyLimit(account.plan, account.quotaLimit);
    return { limit, used, remaining: Math.max(0, limit - used), overage, resetsAt: quotaResetsAt(now) };
  }

  async current(account: Account): Promise<QuotaState> {
    const now = this.#now();
    const usage = await this.#store.usage.get(account.id, quotaMonth(now));
    return this.#state(account, usage.used, usage.overage, now);
  }

  /** Lookups per Seoul day over the last `days` days, oldest first, days without any as 0 (refunds count on the day given). */
  async daily(account: Account, days: number): Promise<{ day: string; lookups: number }[]> {
    const span = seoulDaysBack(this.#now(), days);
    const held = new Map((await this.#store.usage.days(account.id, span[0]!, span.at(-1)!)).map((d) => [d.day, d.lookups]));
    return span.map((day) => ({ day, lookups: held.get(day) ?? 0 }));
  }

  /** Grants all `n` lookups or throws quota_exceeded (429) having charged nothing. */
  async reserve(account: Account, n: number): Promise<Reservation> {
    const now = this.#now();
    const month = quotaMonth(now);
    const limit = monthlyLimit(account.plan, account.quotaLimit);
    const r = await this.#store.usage.reserve(account.id, month, n, limit, seoulDay(now));
    const state = this.#state(account, r.used, 0, now);
    if (!r.granted) throw this.#exceeded(state, n, now);
    return { accountId: account.id, month, n, state };
  }

  /**
   * One lookup, with the same guarantee as reserve(account, 1). Concurrent calls within one event
   * loop turn share a single write per account (group commit): under load the counter row is the
   * bottleneck, on PostgreSQL a row every request would otherwise queue on.
   */
  reserveOne(account: Account): Promise<Reservation> {
    const month = quotaMonth(this.#now());
    const key = `${account.id}|${month}`;
    return new Promise<Reservation>((resolve, reject) => {
      let group = this.#pending.get(key);
      if (!group) this.#pending.set(key, (group = { accountId: account.id, month, waiters: [] }));
      group.waiters.push({ account, resolve, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#flushScheduled = false;
    const groups = [...this.#pending.values()];
    this.#pending.clear();
    // #grant settles every waiter itself; the catch only guards against a bug leaving one hanging
    for (const g of groups) this.#grant(g.accountId, g.month, g.waiters).catch((err: unknown) => g.waiters.forEach((w) => w.reject(err)));
  }

  async #grant(accountId: string, month: string, waiters: Waiter[]): Promise<void> {
    const now = this.#now();
    // the newest account record among the waiters carries the limit in force
    const account = waiters.at(-1)!.account;
    const limit = monthlyLimit(account.plan, account.quotaLimit);
    let result;
    try {
      result = await this.#store.usage.reserveUpTo(accountId, month, waiters.length, limit, seoulDay(now));
    } catch (err) {
      for (const w of waiters) w.reject(err);
      return;
    }
    const before = result.used - result.granted;
    waiters.forEach((w, i) => {
      if (i < result.granted) {
        w.resolve({ accountId, month, n: 1, state: this.#state(account, before + i + 1, 0, now) });
      } else {
        w.reject(this.#exceeded(this.#state(account, result.used, 0, now), 1, now));
      }
    });
  }

  #exceeded(state: QuotaState, n: number, now: Date): AppError {
    return new AppError(
      'quota_exceeded',
      `the monthly quota of ${state.limit} lookups is used up (${state.remaining} left, ${n} asked); it resets at ${toSeoulIso(state.resetsAt)}`,
      {
        headers: { 'retry-after': String(secondsUntil(state.resetsAt, now)), ...rateLimitHeaders(state, now) },
        extra: { limit: state.limit, remaining: state.remaining, resets_at: toSeoulIso(state.resetsAt) },
      },
    );
  }

  async refund(reservation: Reservation, n = reservation.n): Promise<void> {
    if (n > 0) await this.#store.usage.refund(reservation.accountId, reservation.month, n, seoulDay(this.#now()));
    reservation.state.used -= n;
    reservation.state.remaining += n;
  }
}
