// While a list uploads, its job cannot run yet (nothing half-written is processed), so NTS sits
// idle for it: a million named rows spent ~7 s uploading before the first call, 6 % of a run
// whose bound is the calls. The warmer asks NTS for the list's first new numbers as they are
// read, in full calls and no more in flight than the registry's lanes: the answers land in the
// status cache, where the job's chunks find them. Each number asked here is a call the job will
// not wait for.
//
// It warms the start of the list, in order: numbers wait in a bounded queue, and once that is
// full it takes no more. The job's first chunks are then wholly cached and the rest wholly not,
// so no chunk is left with a remainder to ask in a call of its own (warming numbers here and
// there across the list made ~1 % more calls).
//
// What it may spend is bounded by what the account could spend anyway: its lookups left this
// month (unless the job is paid for), and over a Seoul day no more than that on uploads that were
// then refused (WarmAllowance). Numbers asked for a job that was accepted are the job's, charged
// with it; an upload refused at its end (too large, for its quota, a broken file) is charged
// nothing, so without the daily allowance refusing uploads again and again would be a free way
// to spend our NTS allowance. A list that is already cached stops the warmer after a sample, so
// cached uploads pay only for that sample.
import type { StatusService } from '../domain/status.ts';

export interface WarmAnswer {
  /** numbers asked */
  asked: number;
  /** of them, answered from the cache (no NTS call was needed) */
  cached: number;
}

export interface UploadWarmerOptions {
  /** a bulk status lookup; answers matter only for the cache it fills */
  lookup: (bnos: string[]) => Promise<WarmAnswer>;
  /** the most numbers to ask about */
  limit: number;
  /** numbers per lookup: one NTS call's worth (default 100) */
  perCall?: number;
  /** lookups at once (default 10: the NTS lanes) */
  inFlight?: number;
  /** numbers waiting for a lookup, at most (default 100,000: ~10 s of calls, ~4 MB) */
  queue?: number;
  /** after this many numbers were asked, stop if nearly all were cached (default 1,000) */
  sample?: number;
}

const CACHED_ENOUGH = 0.9;

export class UploadWarmer {
  readonly #opts: Required<UploadWarmerOptions>;
  #queue: string[] = [];
  #head = 0;
  #inFlight = 0;
  #taken = 0;
  #sent = 0;
  #asked = 0;
  #cached = 0;
  /** takes no more numbers (the queue filled, or the limit was reached) */
  #full: boolean;
  #stopped = false;
  readonly #running = new Set<Promise<void>>();

  constructor(opts: UploadWarmerOptions) {
    this.#opts = { perCall: 100, inFlight: 10, queue: 100_000, sample: 1_000, ...opts };
    this.#full = !(opts.limit > 0);
  }

  /** A number the upload read for the first time. */
  add(bno: string): void {
    if (this.#full || this.#stopped) return;
    this.#queue.push(bno);
    if (++this.#taken >= this.#opts.limit || this.#queue.length - this.#head >= this.#opts.queue) this.#full = true;
    this.#pump();
  }

  /** Asks nothing more; lookups under way finish (their answers are cached all the same). */
  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#head = 0;
  }

  /** Resolves once the lookups under way have ended (for tests and shutdown). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }

  /** taken: numbers queued; sent: of them, handed to a lookup; asked, cached: as the lookups that ended answered */
  get stats(): { taken: number; sent: number; asked: number; cached: number; stopped: boolean } {
    return { taken: this.#taken, sent: this.#sent, asked: this.#asked, cached: this.#cached, stopped: this.#stopped };
  }

  #pump(): void {
    const { perCall, inFlight } = this.#opts;
    // a short last call only once nothing more can come: the limit reached or the queue full
    while (!this.#stopped && this.#inFlight < inFlight) {
      const waiting = this.#queue.length - this.#head;
      if (waiting === 0 || (waiting < perCall && !this.#full)) return;
      const bnos = this.#queue.slice(this.#head, this.#head + perCall);
      this.#head += bnos.length;
      this.#fire(bnos);
      // drop what was taken now and then rather than shifting the array on every call
      if (this.#head >= 10_000) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
    }
  }

  #fire(bnos: string[]): void {
    this.#inFlight++;
    this.#sent += bnos.length;
    const run = this.#opts.lookup(bnos).then(
      (r) => {
        this.#asked += r.asked;
        this.#cached += r.cached;
        if (this.#asked >= this.#opts.sample && this.#cached >= this.#asked * CACHED_ENOUGH) this.stop();
      },
      // a failed warm-up loses nothing: the job asks for these numbers itself
      () => undefined,
    ).finally(() => {
      this.#inFlight--;
      this.#running.delete(run);
      this.#pump();
    });
    this.#running.add(run);
  }
}

/**
 * What warming may spend per account and Seoul day, in this process: reserved when an upload
 * starts, given back when its job is accepted (the numbers are then the job's, charged with it)
 * and for whatever the upload did not ask.
 */
export class WarmAllowance {
  readonly #spent = new Map<string, { day: string; n: number }>();

  /** Reserves what is left of `cap` for the account today; returns how much. */
  reserve(accountId: string, day: string, cap: number): number {
    let e = this.#spent.get(accountId);
    if (!e || e.day !== day) {
      // the map holds today's accounts only: yesterday's are dropped as it grows
      if (this.#spent.size >= 10_000) for (const [a, old] of this.#spent) if (old.day !== day) this.#spent.delete(a);
      this.#spent.set(accountId, (e = { day, n: 0 }));
    }
    const n = Math.max(0, Math.min(cap, cap - e.n));
    e.n += n;
    return n;
  }

  /** Gives back `n` of what was reserved on `day`. */
  release(accountId: string, day: string, n: number): void {
    const e = this.#spent.get(accountId);
    if (e && e.day === day) e.n = Math.max(0, e.n - n);
  }
}

/** How an upload's numbers are asked for while it is read. */
export interface BatchWarming {
  lookup: (bnos: string[]) => Promise<WarmAnswer>;
  /** lookups at once: the registry's lanes */
  inFlight: number;
}

/** Warming through the status service, as a job's chunks ask (bulk: nothing kept for single lookups). */
export function statusWarming(status: StatusService, inFlight: number): BatchWarming {
  return {
    inFlight,
    lookup: async (bnos) => {
      const { answers } = await status.lookup(bnos, { bulk: true });
      let cached = 0;
      for (const a of answers.values()) if (a.fromCache) cached++;
      return { asked: bnos.length, cached };
    },
  };
}
