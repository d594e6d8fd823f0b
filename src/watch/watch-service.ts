// The watch list as the API offers it: register (with a first check at once), list, remove,
// history. The first check is a lookup like POST /verify (charged when answered); re-checks by
// the scheduler are part of the plan and free.
import type { Quota } from '../accounts/quota.ts';
import { newId } from '../accounts/api-key.ts';
import { hasValidCheckDigit } from '../domain/bizno.ts';
import { PLANS, type Plan } from '../domain/plans.ts';
import { nextCheckAt, retryAt } from '../domain/watch.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';
import type { ListCursor, Watch, WatchHistoryEntry } from '../domain/watch-entities.ts';
import type { WatchChecker } from './watch-checker.ts';

export interface WatchInput {
  biz_no: string;
  name?: string | null | undefined;
  address?: string | null | undefined;
}

/** The plan's watch list, or 403 when it has none. */
export function watchPlan(account: Account): Plan & { watchIntervalHours: number } {
  const plan = PLANS[account.plan];
  if (plan.watchIntervalHours === null || plan.watchLimit === 0) {
    throw new AppError('plan_forbidden', `the watch list is available from the business plan upward; this account is on ${plan.name}`, {
      extra: { plan: plan.name, required_plan: 'business' },
    });
  }
  return { ...plan, watchIntervalHours: plan.watchIntervalHours };
}

const blank = (v: string | null | undefined): string | null => (v?.trim() ? v.trim() : null);

export class WatchService {
  readonly #store: Store;
  readonly #checker: WatchChecker;
  readonly #quota: Quota;
  readonly #now: () => Date;

  constructor(deps: { store: Store; checker: WatchChecker; quota: Quota; now: () => Date }) {
    this.#store = deps.store;
    this.#checker = deps.checker;
    this.#quota = deps.quota;
    this.#now = deps.now;
  }

  /** The new entry (created: true) or the account's existing one for that number. */
  async create(account: Account, input: WatchInput): Promise<{ created: boolean; watch: Watch }> {
    const plan = watchPlan(account);
    if (!hasValidCheckDigit(input.biz_no)) {
      throw new AppError('invalid_b_no', `${input.biz_no} fails the business registration number check digit, so no such business can exist`);
    }
    const existing = await this.#store.watches.findByNumber(account.id, input.biz_no);
    if (existing) return { created: false, watch: existing };
    const full = () => new AppError('watch_limit', `the ${plan.name} plan watches up to ${plan.watchLimit} businesses; remove one first`, { extra: { limit: plan.watchLimit } });
    // a quick refusal before the lookup; the insert below checks again, atomically
    if ((await this.#store.watches.count(account.id)) >= plan.watchLimit) throw full();
    const reservation = await this.#quota.reserveOne(account);
    const name = blank(input.name);
    const address = blank(input.address);
    let state;
    try {
      [state] = await this.#checker.check([{ account, bno: input.biz_no, name, address }]);
    } catch (err) {
      await this.#quota.refund(reservation);
      throw err;
    }
    // no fresh answer: registered all the same, first checked when the upstream is back, not charged
    if (!state) await this.#quota.refund(reservation);
    const now = this.#now();
    const watch: Watch = {
      id: newId('wch'),
      accountId: account.id,
      bno: input.biz_no,
      name,
      address,
      state: state ?? null,
      lastCheckedAt: state ? now.toISOString() : null,
      nextCheckAt: (state ? nextCheckAt(now, plan.watchIntervalHours) : retryAt(now, 1, plan.watchIntervalHours)).toISOString(),
      failures: state ? 0 : 1,
      createdAt: now.toISOString(),
    };
    let out;
    try {
      out = await this.#store.watches.create(watch, true, plan.watchLimit);
    } catch (err) {
      if (state) await this.#quota.refund(reservation);
      throw err;
    }
    // concurrent adds filled the list meanwhile: nothing registered, the lookup given back
    if (!out) {
      if (state) await this.#quota.refund(reservation);
      throw full();
    }
    // another request registered the number first: that entry stands and this lookup is given back
    if (!out.created && state) await this.#quota.refund(reservation);
    return out;
  }

  async get(account: Account, watchId: string): Promise<Watch> {
    const watch = await this.#store.watches.get(account.id, watchId);
    // another account's entry is as unknown as a missing one
    if (!watch) throw new AppError('not_found', `no watch ${watchId}`);
    return watch;
  }

  list(account: Account, after: ListCursor | null, limit: number): Promise<Watch[]> {
    return this.#store.watches.list(account.id, { after, limit });
  }

  async remove(account: Account, watchId: string): Promise<void> {
    if (!(await this.#store.watches.remove(account.id, watchId))) throw new AppError('not_found', `no watch ${watchId}`);
  }

  async history(account: Account, watchId: string): Promise<{ watch: Watch; entries: WatchHistoryEntry[] }> {
    const plan = PLANS[account.plan];
    if (!plan.history) {
      throw new AppError('plan_forbidden', `watch history is available on the business plan and above; this account is on ${plan.name}`, {
        extra: { plan: plan.name, required_plan: 'business' },
      });
    }
    const watch = await this.get(account, watchId);
    return { watch, entries: await this.#store.watches.history(account.id, watch.id) };
  }
}
