// Monthly lookup quota: reserve before answering, refund what was not answered.
import { monthlyLimit } from '../domain/plans.ts';
import { quotaMonth, quotaResetsAt, secondsUntil, toSeoulIso } from '../domain/quota-period.ts';
import { AppError } from '../errors.ts';
import type { Account, Store } from '../store/store.ts';

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

export class Quota {
  readonly #store: Store;
  readonly #now: () => Date;

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
    const usage = await this.#store.getUsage(account.id, quotaMonth(now));
    return this.#state(account, usage.used, usage.overage, now);
  }

  /** Grants all `n` lookups or throws quota_exceeded (429) having charged nothing. */
  async reserve(account: Account, n: number): Promise<Reservation> {
    const now = this.#now();
    const month = quotaMonth(now);
    const limit = monthlyLimit(account.plan, account.quotaLimit);
    const r = await this.#store.reserveLookups(account.id, month, n, limit);
    const state = this.#state(account, r.used, 0, now);
    if (!r.granted) {
      const retryAfter = secondsUntil(state.resetsAt, now);
      throw new AppError(
        'quota_exceeded',
        `the monthly quota of ${limit} lookups is used up (${state.remaining} left, ${n} asked); it resets at ${toSeoulIso(state.resetsAt)}`,
        { headers: { 'retry-after': String(retryAfter), ...rateLimitHeaders(state, now) }, extra: { limit, remaining: state.remaining, resets_at: toSeoulIso(state.resetsAt) } },
      );
    }
    return { accountId: account.id, month, n, state };
  }

  async refund(reservation: Reservation, n = reservation.n): Promise<void> {
    if (n > 0) await this.#store.refundLookups(reservation.accountId, reservation.month, n);
    reservation.state.used -= n;
    reservation.state.remaining += n;
  }
}
