// The watch list as the API offers it: register (with a first check at once), list, remove,
// history. The first check is a lookup like POST /verify (charged when answered); re-checks by
// the scheduler are part of the plan and free.
import type { Quota } from '../accounts/quota.ts';
import { newId } from '../accounts/api-key.ts';
import { hasValidCheckDigit } from '../domain/bizno.ts';
import { PLANS, type Plan } from '../domain/plans.ts';
import { nextCheckAt, retryAt, type WatchState } from '../domain/watch.ts';
import { AppError } from '../errors.ts';
import { allRows, expiredProblem } from '../batch/job-rows.ts';
import { ntsDate } from '../domain/verification.ts';
import type { Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';
import type { ListCursor, Watch, WatchFilter, WatchHistoryEntry } from '../domain/watch-entities.ts';
import { evidenced, type WatchChecker } from './watch-checker.ts';

/** Checks one entry now, as the scheduler's rounds do (jobs/watch-scheduler.ts). */
export type Recheck = (accountId: string, watchId: string) => Promise<{ claimed: boolean; checked: boolean }>;

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

/** One entry of a bulk registration, answered on its own. */
export interface BulkWatchItem {
  biz_no: string;
  /** 201 created, 200 already watched, 400 bad number, 403 list full */
  status: number;
  watch?: Watch;
  error?: { code: string; detail: string };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A batch row's result as a watch's first observed state; null when it has no fresh answer. */
function stateOfResult(r: Record<string, unknown>): WatchState | null {
  const status = r.biz_status as WatchState['biz_status'];
  if (status === 'unknown' || status === 'invalid' || r.stale === true) return null;
  const nts: Record<string, unknown> = typeof r.nts === 'object' && r.nts !== null ? { ...r.nts } : {};
  return {
    biz_status: status,
    grade: str(r.grade),
    bounce_prob: typeof r.bounce_prob === 'number' ? r.bounce_prob : null,
    action: str(r.action),
    closed_on: str(r.closed_on),
    tax_type: str(r.tax_type),
    tax_type_cd: str(r.tax_type) === null ? null : str(nts.tax_type_cd) || null,
    tax_type_change_dt: ntsDate(str(nts.tax_type_change_dt) ?? ''),
    verification_id: str(r.verification_id),
  };
}

export class WatchService {
  readonly #store: Store;
  readonly #checker: WatchChecker;
  readonly #quota: Quota;
  readonly #now: () => Date;

  readonly #recheck: Recheck | undefined;

  constructor(deps: { store: Store; checker: WatchChecker; quota: Quota; now: () => Date; recheck?: Recheck }) {
    this.#recheck = deps.recheck;
    this.#store = deps.store;
    this.#checker = deps.checker;
    this.#quota = deps.quota;
    this.#now = deps.now;
  }

  /**
   * Re-checks an entry now, with an answer fresh from NTS, as its scheduled check would (a change
   * is recorded and notified); charged as one lookup, given back when NTS does not answer.
   */
  async checkNow(account: Account, watchId: string): Promise<Watch> {
    watchPlan(account);
    const watch = await this.get(account, watchId);
    if (!this.#recheck) throw new AppError('internal', 'this process cannot check watch entries');
    const reservation = await this.#quota.reserveOne(account);
    let out;
    try {
      out = await this.#recheck(account.id, watch.id);
    } catch (err) {
      await this.#quota.refund(reservation);
      throw err;
    }
    if (!out.checked) {
      await this.#quota.refund(reservation);
      if (!out.claimed) throw new AppError('conflict', `${watch.id} is being checked right now; retry in a moment`, { headers: { 'retry-after': '5' } });
      throw new AppError('upstream_unavailable', 'NTS did not answer; the entry was not charged and will be checked again on schedule', { headers: { 'retry-after': '60' } });
    }
    return this.get(account, watchId);
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
      const [seen] = await this.#checker.check([{ account, bno: input.biz_no, name, address }]);
      await this.#checker.keep([seen ?? null]);
      state = seen ? evidenced(seen) : undefined;
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

  /**
   * Registers up to 1,000 entries at once, each answered on its own: created (201), already
   * watched (200), or refused (400 bad number, 403 list full). The new ones are checked in one
   * lookup and charged one lookup each when answered, like single registrations.
   */
  async createMany(account: Account, inputs: readonly WatchInput[]): Promise<BulkWatchItem[]> {
    const plan = watchPlan(account);
    const out: BulkWatchItem[] = inputs.map((input) => ({ biz_no: input.biz_no, status: 0 }));
    const fresh = new Map<string, { input: WatchInput; at: number[] }>();
    inputs.forEach((input, i) => {
      if (!hasValidCheckDigit(input.biz_no)) {
        out[i] = { biz_no: input.biz_no, status: 400, error: { code: 'invalid_b_no', detail: `${input.biz_no} fails the business registration number check digit` } };
        return;
      }
      // the same number twice in one request is one registration, answered at both places
      const seen = fresh.get(input.biz_no);
      if (seen) seen.at.push(i);
      else fresh.set(input.biz_no, { input, at: [i] });
    });
    const numbers = [...fresh.keys()];
    const existing = await this.#store.watches.findByNumbers(account.id, numbers);
    const place = (bno: string, item: Omit<BulkWatchItem, 'biz_no'>) => {
      for (const i of fresh.get(bno)!.at) out[i] = { biz_no: bno, ...item };
    };
    for (const w of existing) place(w.bno, { status: 200, watch: w });
    const watched = new Set(existing.map((w) => w.bno));
    let room = plan.watchLimit - (await this.#store.watches.count(account.id));
    const full = { code: 'watch_limit', detail: `the ${plan.name} plan watches up to ${plan.watchLimit} businesses; remove some first` };
    const toAdd: WatchInput[] = [];
    for (const bno of numbers) {
      if (watched.has(bno)) continue;
      if (room <= 0) place(bno, { status: 403, error: full });
      else {
        toAdd.push(fresh.get(bno)!.input);
        room--;
      }
    }
    if (toAdd.length === 0) return out;

    const reservation = await this.#quota.reserve(account, toAdd.length);
    let refund = 0;
    try {
      const targets = toAdd.map((input) => ({ account, bno: input.biz_no, name: blank(input.name), address: blank(input.address) }));
      const seen = await this.#checker.check(targets);
      await this.#checker.keep(seen);
      const states = seen.map((o) => (o ? evidenced(o) : null));
      const now = this.#now();
      const watches = targets.map((t, i) => this.#newWatch(account, t.bno, t.name, t.address, states[i] ?? null, plan.watchIntervalHours, now));
      refund += states.filter((st) => !st).length;
      const created = await this.#store.watches.createMany(account.id, watches, true, plan.watchLimit);
      created.forEach((c, i) => {
        const answered = states[i] !== null && states[i] !== undefined;
        // refused by the atomic check, or registered meanwhile by another request: given back
        if (answered && (!c || !c.created)) refund++;
        if (!c) place(watches[i]!.bno, { status: 403, error: full });
        else place(watches[i]!.bno, { status: c.created ? 201 : 200, watch: c.watch });
      });
    } catch (err) {
      await this.#quota.refund(reservation);
      throw err;
    }
    if (refund > 0) await this.#quota.refund(reservation, refund);
    return out;
  }

  /**
   * Watches every valid number of a finished job (its first row's name and address), with the
   * job's answer as the first check: no second lookup and no second charge. Numbers already
   * watched stay as they are; once the plan's list is full the rest are refused.
   */
  async watchJob(account: Account, jobId: string): Promise<{ created: number; existing: number; refused: number }> {
    const plan = watchPlan(account);
    const job = await this.#store.batches.getJob(account.id, jobId);
    if (!job) throw new AppError('not_found', `no batch job ${jobId}`);
    if (job.expiredAt) throw expiredProblem(job);
    if (job.status !== 'done' && job.status !== 'failed') throw new AppError('conflict', `job ${jobId} is ${job.status}: its numbers can be watched once it has finished`);
    const tally = { created: 0, existing: 0, refused: 0 };
    const seen = new Set<string>();
    let pending: Watch[] = [];
    const flush = async () => {
      const out = await this.#store.watches.createMany(account.id, pending, true, plan.watchLimit);
      for (const o of out) {
        if (!o) tally.refused++;
        else if (o.created) tally.created++;
        else tally.existing++;
      }
      pending = [];
    };
    for await (const row of allRows(this.#store.batches, job)) {
      if (!row.valid || row.bno === null || seen.has(row.bno)) continue;
      seen.add(row.bno);
      const state = row.result ? stateOfResult(row.result) : null;
      const checkedAt = state && typeof row.result?.checked_at === 'string' ? new Date(row.result.checked_at) : this.#now();
      const w = this.#newWatch(account, row.bno, blank(row.name), blank(row.address), state, plan.watchIntervalHours, checkedAt);
      // a first check older than the interval is due at once
      pending.push({ ...w, createdAt: this.#now().toISOString() });
      if (pending.length >= 1000) await flush();
    }
    if (pending.length > 0) await flush();
    return tally;
  }

  #newWatch(account: Account, bno: string, name: string | null, address: string | null, state: WatchState | null, intervalHours: number, now: Date): Watch {
    return {
      id: newId('wch'),
      accountId: account.id,
      bno,
      name,
      address,
      state,
      lastCheckedAt: state ? now.toISOString() : null,
      nextCheckAt: (state ? nextCheckAt(now, intervalHours) : retryAt(now, 1, intervalHours)).toISOString(),
      failures: state ? 0 : 1,
      createdAt: now.toISOString(),
    };
  }

  async get(account: Account, watchId: string): Promise<Watch> {
    const watch = await this.#store.watches.get(account.id, watchId);
    // another account's entry is as unknown as a missing one
    if (!watch) throw new AppError('not_found', `no watch ${watchId}`);
    return watch;
  }

  /** Entries on the account's list (kept as a counter: no count of the list). */
  count(account: Account): Promise<number> {
    return this.#store.watches.count(account.id);
  }

  list(account: Account, after: ListCursor | null, limit: number, filter: WatchFilter = {}): Promise<Watch[]> {
    return this.#store.watches.list(account.id, { after, limit, filter });
  }

  /** Entries that pass a filter (counted: the counter knows only the whole list). */
  countMatching(account: Account, filter: WatchFilter): Promise<number> {
    return this.#store.watches.countMatching(account.id, filter);
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
