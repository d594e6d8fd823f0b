// While a list uploads, its job cannot run yet (nothing half-written is processed), so NTS sits
// idle for it: a million named rows spent ~7 s uploading before the first call, 6 % of a run
// whose bound is the calls. The warmer asks NTS for some of the list's new numbers as they are
// read, in full calls and no more in flight than the registry's lanes: the answers land in the
// status cache, where the job's chunks find them. Each call made here is one the job does not
// wait for; its answer's cache write, though, now lands on the main thread during the upload
// (bench/RESULTS.md: 2–3 % faster overall on a million named rows, not the 6 % idle).
//
// It warms whole chunks, here and there: a chunk whose first new number is read while a lane is
// free is taken entire, the others not at all. Numbers here and there within chunks left each a
// remainder to ask in a call of its own (~1 % more calls); the start of the list in order left
// the job's first seconds to cached chunks, a named list's scoring taking both cores while no
// call was out (processing slower than with no warming at all).
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
  /** lookups at once (default 10; BatchWarming.inFlight) */
  inFlight?: number;
  /** after this many numbers were asked, stop if nearly all were cached (default 1,000) */
  sample?: number;
}

const CACHED_ENOUGH = 0.9;

export class UploadWarmer {
  readonly #opts: Required<UploadWarmerOptions>;
  #queue: string[] = [];
  #head = 0;
  #chunk = -1;
  #taking = false;
  #inFlight = 0;
  #taken = 0;
  #sent = 0;
  #asked = 0;
  #cached = 0;
  #stopped: boolean;
  readonly #running = new Set<Promise<void>>();

  constructor(opts: UploadWarmerOptions) {
    this.#opts = { perCall: 100, inFlight: 10, sample: 1_000, ...opts };
    this.#stopped = !(opts.limit > 0);
  }

  /** A number the upload read for the first time, in chunk `chunk` of the job. */
  add(bno: string, chunk: number): void {
    if (this.#stopped) return;
    if (chunk !== this.#chunk) {
      // the last chunk taken is all read: its short last call goes too
      if (this.#taking) this.#pump(true);
      this.#chunk = chunk;
      // a chunk is taken only while a lane is free and nothing waits for one
      this.#taking = this.#inFlight < this.#opts.inFlight && this.#head === this.#queue.length;
    }
    if (!this.#taking) return;
    this.#queue.push(bno);
    if (++this.#taken >= this.#opts.limit) {
      this.#pump(true);
      this.#stopped = true;
      return;
    }
    this.#pump(false);
  }

  /**
   * The upload is all read: the chunk taken last goes too, in a short last call if it is one (it
   * waited for more of its numbers, and no more come), then nothing more is asked. Dropped, its
   * numbers were left to the job, whose chunks holding them — the list's last new numbers, often
   * repeated further on — could each ask NTS for them at once.
   */
  finish(): void {
    if (this.#stopped) return;
    this.#taking = false;
    this.#pump(true);
    this.#stopped = true;
  }

  /** Asks nothing more; lookups under way finish (their answers are cached all the same). */
  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#head = 0;
  }

  /** Resolves once the lookups under way have ended (an API-only process waits for it before a job can be claimed; tests). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }

  /** taken: numbers queued; sent: of them, handed to a lookup; asked, cached: as the lookups that ended answered */
  get stats(): { taken: number; sent: number; asked: number; cached: number; stopped: boolean } {
    return { taken: this.#taken, sent: this.#sent, asked: this.#asked, cached: this.#cached, stopped: this.#stopped };
  }

  /** Sends what waits, a full call at a time while lanes are free; `short`: a last call of fewer too. */
  #pump(short: boolean): void {
    const { perCall, inFlight } = this.#opts;
    while (this.#inFlight < inFlight) {
      const waiting = this.#queue.length - this.#head;
      if (waiting <= 0 || (waiting < perCall && !short)) break;
      const bnos = this.#queue.slice(this.#head, this.#head + perCall);
      this.#head += bnos.length;
      this.#fire(bnos);
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
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
      // what waits goes as lanes free; a short last call once its chunk is all read (or the
      // limit reached): while the chunk being read is the one taken, more of it may come
      this.#pump(!this.#taking || this.#stopped);
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
    const n = Math.max(0, cap - e.n);
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
  /** lookups at once: the full calls the registry takes at once (callsHandedOut), so NTS is kept busy */
  inFlight: number;
  /**
   * Other processes run the jobs (an API-only process): a lookup in flight is shared only within a
   * process, so an accepted upload waits for its warm lookups under way before its job can be
   * claimed, or a worker would ask NTS the same numbers again.
   */
  jobsElsewhere?: boolean;
}

/** Warming through the status service, as a job's chunks ask (bulk: nothing kept for single lookups). */
export function statusWarming(status: StatusService, inFlight: number, jobsElsewhere = false): BatchWarming {
  return {
    inFlight,
    jobsElsewhere,
    lookup: async (bnos) => {
      const { answers } = await status.lookup(bnos, { bulk: true });
      let cached = 0;
      for (const a of answers.values()) if (a.fromCache) cached++;
      return { asked: bnos.length, cached };
    },
  };
}
