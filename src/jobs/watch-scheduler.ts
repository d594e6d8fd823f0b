// Re-checks watched businesses when they are due. A round claims due entries under a lease (so
// several processes share the work and each entry is checked once per interval), looks them all
// up at once, and commits each entry's state, history row and events in one transaction. No fresh
// answer (upstream down) postpones the entry with backoff and records nothing.
import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { newId } from '../accounts/api-key.ts';
import { PLANS } from '../domain/plans.ts';
import { changeOf, eventsOf, keepsEvidence, nextCheckAt, retryAt, watchEventBody } from '../domain/watch.ts';
import type { Store } from '../store/store.ts';
import type { WatchCheckCommit } from '../store/watches.ts';
import type { Account } from '../domain/account.ts';
import type { Watch } from '../domain/watch-entities.ts';
import { evidenced, type Observation, type WatchChecker } from '../watch/watch-checker.ts';
import { PollingLoop, type Logger } from './polling-loop.ts';

export interface WatchSchedulerOptions {
  store: Store;
  checker: WatchChecker;
  now: () => Date;
  pollMs: number;
  /** entries per round; their lookups share upstream calls of 100 */
  claimSize: number;
  leaseMs: number;
  /** events were queued: the deliverer in this process can start at once */
  onEvents?: () => void;
  /** reports each round (metrics) */
  onRound?: (r: RoundResult) => void;
  log?: Logger;
}

export interface RoundResult {
  claimed: number;
  checked: number;
  changed: number;
  postponed: number;
  events: number;
}

/** An account whose plan lost the watch list keeps its entries, looked at again a day later. */
const NO_PLAN_RETRY_MS = 86_400_000;

export class WatchScheduler {
  readonly #o: WatchSchedulerOptions;
  readonly #holder = `sched_${randomBytes(6).toString('hex')}`;
  readonly #loop: PollingLoop;

  constructor(opts: WatchSchedulerOptions) {
    this.#o = opts;
    this.#loop = new PollingLoop('watch scheduler', async () => (await this.runOnce()).claimed >= opts.claimSize, { pollMs: opts.pollMs, log: opts.log });
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One round: claim what is due now, check it, commit. Exposed so tests can drive the clock. */
  async runOnce(): Promise<RoundResult> {
    const { store, now } = this.#o;
    const started = now();
    const claimed = await store.watches.claimDue(started.toISOString(), this.#holder, new Date(started.getTime() + this.#o.leaseMs).toISOString(), this.#o.claimSize);
    const result: RoundResult = { claimed: claimed.length, checked: 0, changed: 0, postponed: 0, events: 0 };
    if (claimed.length === 0) return result;
    await setImmediate();
    try {
      await this.#check(claimed, started, result);
    } finally {
      this.#o.onRound?.(result);
    }
    // On the embedded store every step can complete without waiting on I/O (synchronous SQLite,
    // answers from the cache or the sandbox), so back-to-back steps would run as one chain of
    // microtasks and starve requests until the whole round was over: let them in between steps.
    await setImmediate();
    return result;
  }

  /**
   * Checks one entry of the account now, as a round would (history, events, evidence), with an
   * answer fresh from NTS. `claimed: false` when a round in some process holds it right now.
   */
  async checkOne(accountId: string, watchId: string): Promise<{ claimed: boolean; checked: boolean }> {
    const { store, now } = this.#o;
    const started = now();
    const watch = await store.watches.claimOne(accountId, watchId, started.toISOString(), this.#holder, new Date(started.getTime() + this.#o.leaseMs).toISOString());
    if (!watch) return { claimed: false, checked: false };
    const result: RoundResult = { claimed: 1, checked: 0, changed: 0, postponed: 0, events: 0 };
    await this.#check([watch], started, result, 0);
    return { claimed: true, checked: result.checked === 1 };
  }

  async #check(claimed: Watch[], started: Date, result: RoundResult, maxAgeOverrideMs?: number): Promise<void> {
    const { store, now } = this.#o;
    const accounts = new Map<string, Account | null>();
    for (const w of claimed) if (!accounts.has(w.accountId)) accounts.set(w.accountId, await store.accounts.get(w.accountId));

    const due: { watch: Watch; account: Account; intervalHours: number }[] = [];
    for (const watch of claimed) {
      const account = accounts.get(watch.accountId);
      const intervalHours = account ? PLANS[account.plan].watchIntervalHours : null;
      if (!account || intervalHours === null) {
        await store.watches.postpone(watch.id, this.#holder, watch.failures, new Date(started.getTime() + NO_PLAN_RETRY_MS).toISOString());
        result.postponed++;
      } else due.push({ watch, account, intervalHours });
    }
    // a re-check must observe NTS, not replay an answer from before the last check
    const maxAgeMs = maxAgeOverrideMs ?? Math.min(...due.map((d) => d.intervalHours)) * 1800_000;
    const seen = await this.#o.checker.check(due.map((d) => ({ account: d.account, bno: d.watch.bno, name: d.watch.name, address: d.watch.address })), { maxAgeMs });
    // the lookup and the commit each hold the event loop for a while on the embedded store
    await setImmediate();
    const checkedAt = now();
    const at = checkedAt.toISOString();
    const commits: WatchCheckCommit[] = [];
    const postponed: { watchId: string; holder: string; failures: number; nextCheckAt: string }[] = [];
    const kept: (Observation | null)[] = [];
    for (const [i, { watch, intervalHours }] of due.entries()) {
      const observed = seen[i]?.state;
      if (!observed) {
        const failures = watch.failures + 1;
        postponed.push({ watchId: watch.id, holder: this.#holder, failures, nextCheckAt: retryAt(checkedAt, failures, intervalHours).toISOString() });
        continue;
      }
      const change = changeOf(watch.state, observed);
      // a check that records history keeps its evidence, and so does an unchanged one once a day;
      // in between, an unchanged one goes on naming the last kept (still what NTS said, then)
      const keep = keepsEvidence(watch.state, change !== null, checkedAt);
      if (keep) kept.push(seen[i]!);
      const state = keep ? evidenced(seen[i]!) : { ...observed, verification_id: watch.state?.verification_id ?? null, verified_at: watch.state?.verified_at ?? null };
      const view = { watch_id: watch.id, biz_no: watch.bno, name: watch.name, address: watch.address };
      const events = change ? eventsOf(change).map((type) => ({ id: newId('msg'), type, body: watchEventBody(type, view, change, at) })) : [];
      commits.push({
        watchId: watch.id,
        holder: this.#holder,
        checkedAt: at,
        state,
        nextCheckAt: nextCheckAt(checkedAt, intervalHours).toISOString(),
        history: change ? { previous: change.previous } : null,
        events,
      });
    }
    // the round's writes in one transaction: on the embedded store, hundreds of commits one by
    // one held up every other request for the length of the round
    await this.#o.checker.keep(kept);
    const committed = await store.watches.commitChecks(commits, postponed);
    result.postponed += postponed.length;
    commits.forEach((c, i) => {
      // a lost lease means another scheduler owns this entry now; it commits, this one does not
      if (!committed[i]) return;
      result.checked++;
      if (c.history?.previous) result.changed++;
      result.events += c.events.length;
    });
    if (result.events > 0) this.#o.onEvents?.();
  }
}
