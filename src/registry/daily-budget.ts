// The day's allowance of numbers NTS answers for our key (the free tier: 1,000,000 a day),
// counted in Korean days and shared by every process through the store. Each attempt takes the
// numbers it asks about before it goes; once the day is spent every attempt fails at once with
// `quota_exhausted`, carrying the moment the next day starts, and no call is made.
import { nextSeoulDay, seoulDay } from '../domain/quota-period.ts';
import { UpstreamError } from '../domain/status.ts';
import { retryAfterOf, withRetryAfter } from './retry-after.ts';

export interface DailyCounter {
  take(day: string, n: number, limit: number): Promise<boolean>;
  spend(day: string, limit: number): Promise<void>;
}

export class DailyBudget {
  readonly #counter: DailyCounter;
  readonly #limit: number;
  readonly #now: () => Date;
  /** the day this process already knows is spent: no round trip to learn it again */
  #spentDay: string | undefined;

  constructor(counter: DailyCounter, limit: number, now: () => Date = () => new Date()) {
    if (!(limit > 0)) throw new RangeError('a daily budget needs a positive limit');
    this.#counter = counter;
    this.#limit = limit;
    this.#now = now;
  }

  /** Counts `n` numbers against today, or throws quota_exhausted (nothing counted). */
  async take(n: number): Promise<void> {
    const now = this.#now();
    const day = seoulDay(now);
    if (this.#spentDay !== day && (await this.#counter.take(day, n, this.#limit))) return;
    this.#spentDay = day;
    throw exhausted(now, `the day's NTS allowance of ${this.#limit.toLocaleString('en')} numbers is spent (KST day ${day})`);
  }

  /** The gateway said the key's allowance is spent: stop asking until the next day. */
  async spend(): Promise<void> {
    const day = seoulDay(this.#now());
    this.#spentDay = day;
    await this.#counter.spend(day, this.#limit);
  }
}

/** quota_exhausted, with the wait until the next Seoul day as its Retry-After. */
export function exhausted(now: Date, message: string): UpstreamError {
  const error = new UpstreamError('quota_exhausted', message, { retryable: false });
  return withRetryAfter(error, nextSeoulDay(now).getTime() - now.getTime());
}

/** Why a number went unanswered, as the API tells it: the 503 to answer with and its Retry-After. */
export function unansweredProblem(error: UpstreamError | undefined, what: string): { code: 'upstream_unavailable' | 'upstream_daily_limit'; detail: string; retryAfterS: number } {
  if (error?.fault === 'quota_exhausted') {
    const ms = retryAfterOf(error) ?? 3_600_000;
    return {
      code: 'upstream_daily_limit',
      detail: `the day's allowance of NTS lookups is spent and nothing is cached for ${what}; it renews at midnight KST. Nothing was charged`,
      retryAfterS: Math.max(1, Math.ceil(ms / 1000)),
    };
  }
  return { code: 'upstream_unavailable', detail: `the National Tax Service did not answer and nothing is cached for ${what}; nothing was charged`, retryAfterS: 30 };
}
