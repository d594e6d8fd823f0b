// Address checks of batch chunks in worker threads, so a named list uses every core: parsing,
// the directory's lookups and matching (most of a named row's cost) run in the threads, and so
// does the scoring of a chunk's rows (keepChecks), while the main thread serves requests, looks
// numbers up and commits. The answers are the in-process service's
// (the same code on the same directory); a single address (a POST /verify) stays in-process,
// where a round trip to a thread busy with a chunk would only delay it. A thread that fails or
// dies is replaced, and its call is answered in-process: a broken thread costs speed, never a
// chunk.
import { Worker } from 'node:worker_threads';
import type { AddressCheck, AddressService } from './address-service.ts';
import { type AddressThreadSetup, type FromAddressThread, keptFromColumns, toColumns, type ToAddressThread } from './address-thread-protocol.ts';
import type { ChunkMailing, KeptChunk, ScoringContext } from '../domain/mailing-score.ts';

/**
 * A chunk's address checks kept in the thread that made them: `points` says what each address
 * is counted by (null: the thread failed; check them in-process), and `score` has that thread
 * score the chunk's rows against them, once (it rejects when the thread is gone or dropped them).
 */
export interface KeptChecks {
  points: Promise<Map<string, string | null | Error> | null>;
  score(rows: ChunkMailing[], ctx: ScoringContext): Promise<KeptChunk>;
}

const THREAD_URL = new URL('./address-thread.ts', import.meta.url);

/** Fewer distinct addresses than this are checked in-process: the round trip would cost more. */
const MIN_FOR_THREAD = 16;
/** A thread left idle this long is ended (started again on the next chunk, ~0.5 s). */
const IDLE_MS = 60_000;
/** How long an ending thread may take to finish what it was asked and close its store. */
const STOP_MS = 2_000;

interface Pending {
  resolve: (m: FromAddressThread) => void;
  reject: (err: Error) => void;
}

class AddressThread {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  dead = false;
  idleTimer: NodeJS.Timeout | null = null;

  constructor(url: URL, setup: AddressThreadSetup, onGone: (t: AddressThread) => void) {
    // bounded like the parsing threads: a chunk's checks need little; the sandbox's world ~70 MB.
    // A thread that outgrows it dies, and its chunk is checked in-process. The young generation
    // is the main thread's under npm start (16 MB semi-spaces): a chunk's checks wait there for
    // its scoring, and with 8 MB named rows ran ~7 % slower (bench/RESULTS.md).
    const oldMb = setup.directory === 'sandbox' ? 192 : 96;
    this.worker = new Worker(url, { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: oldMb, maxYoungGenerationSizeMb: 48 }, stdout: false, stderr: false });
    const fail = (err: Error) => {
      if (this.dead) return;
      this.dead = true;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      onGone(this);
    };
    this.worker.on('message', (m: FromAddressThread) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      p?.resolve(m);
    });
    this.worker.on('error', (err: Error) => fail(err));
    this.worker.on('exit', (code) => fail(new Error(`the address thread stopped (exit code ${code})`)));
  }
}

export class AddressThreads implements AddressService {
  readonly source: AddressService['source'];
  readonly #local: AddressService;
  readonly #setup: AddressThreadSetup;
  readonly #size: number;
  readonly #threads: AddressThread[] = [];
  readonly #onError: (err: unknown) => void;
  readonly #url: URL;
  #next = 1;
  /** calls a thread answered (not the in-process fallback) */
  answeredInThreads = 0;
  /** chunks a thread scored */
  scoredInThreads = 0;
  #closed = false;

  /** `local`: the in-process service the threads stand in for (and fall back to); `threads`: how many at most. */
  /** `opts.threadUrl`: the thread's module (tests put a failing one there) */
  constructor(local: AddressService, setup: AddressThreadSetup, threads: number, opts: { onError?: (err: unknown) => void; threadUrl?: URL } = {}) {
    this.#url = opts.threadUrl ?? THREAD_URL;
    this.source = local.source;
    this.#local = local;
    this.#setup = setup;
    this.#size = threads;
    this.#onError = opts.onError ?? (() => {});
  }

  check(raw: string): Promise<AddressCheck> {
    return this.#local.check(raw);
  }

  async checkMany(raws: readonly string[]): Promise<Map<string, AddressCheck | Error>> {
    const distinct = [...new Set(raws)];
    if (this.#closed || this.#size === 0 || distinct.length < MIN_FOR_THREAD) return this.#local.checkMany(distinct);
    let answer: FromAddressThread;
    try {
      answer = await this.#ask(distinct);
    } catch (err) {
      this.#onError(err);
      return this.#local.checkMany(distinct);
    }
    if (!('checks' in answer)) {
      this.#onError(new Error('failed' in answer ? answer.failed : 'the address thread answered something else'));
      return this.#local.checkMany(distinct);
    }
    this.answeredInThreads++;
    return new Map(answer.checks.map(([raw, c]) => [raw, 'error' in c ? new Error(c.error) : c]));
  }

  /** The least busy thread (a new one while there are fewer than allowed and every one is busy). */
  #pick(): AddressThread {
    const idle = this.#threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.#threads.length < this.#size) {
      const t = new AddressThread(this.#url, this.#setup, (gone) => this.#forget(gone));
      this.#threads.push(t);
      return t;
    }
    return this.#threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  #ask(raws: string[]): Promise<FromAddressThread> {
    const id = this.#next++;
    return this.#send(this.#pick(), { id, raws });
  }

  /**
   * A chunk's addresses checked in a thread and kept there, for its rows to be scored there once
   * their numbers are answered (see KeptChecks). Null when a thread is not worth it (too few
   * addresses, none allowed, closing): check and score them in-process.
   */
  keepChecks(raws: readonly string[]): KeptChecks | null {
    const distinct = [...new Set(raws)];
    if (this.#closed || this.#size === 0 || distinct.length < MIN_FOR_THREAD) return null;
    const t = this.#pick();
    const session = this.#next++;
    const points = this.#send(t, { id: session, raws: distinct, keep: true }).then((m) => {
      if (!('points' in m)) throw new Error('failed' in m ? m.failed : 'the address thread answered something else');
      this.answeredInThreads++;
      return new Map(m.points.map((b, i) => [distinct[i]!, b !== null && typeof b === 'object' ? new Error(b.error) : b]));
    });
    return {
      points: points.catch((err: unknown) => {
        this.#onError(err);
        return null;
      }),
      score: async (rows, ctx) => {
        if (t.dead) throw new Error('the address thread that kept the checks is gone');
        const m = await this.#send(t, { id: this.#next++, score: { session, rows: toColumns(rows), ctx } });
        if (!('scored' in m)) throw new Error('failed' in m ? m.failed : 'the address thread answered something else');
        this.scoredInThreads++;
        return keptFromColumns(m.scored);
      },
    };
  }

  #send(t: AddressThread, message: ToAddressThread): Promise<FromAddressThread> {
    if (t.idleTimer) clearTimeout(t.idleTimer);
    t.idleTimer = null;
    const { id } = message;
    return new Promise<FromAddressThread>((resolve, reject) => {
      t.pending.set(id, { resolve, reject });
      t.worker.postMessage(message);
    }).finally(() => {
      if (t.pending.size === 0 && !t.dead && !this.#closed) {
        t.idleTimer = setTimeout(() => void this.#end(t), IDLE_MS);
        t.idleTimer.unref();
      }
    });
  }

  #forget(t: AddressThread): void {
    if (t.idleTimer) clearTimeout(t.idleTimer);
    const i = this.#threads.indexOf(t);
    if (i >= 0) this.#threads.splice(i, 1);
  }

  /**
   * Asks the thread to end once it has answered what it was asked; ends it outright should it not
   * within STOP_MS. It takes no new work meanwhile: the next chunk starts another.
   */
  #end(t: AddressThread): Promise<void> {
    this.#forget(t);
    if (t.dead) return Promise.resolve();
    const exited = new Promise<void>((resolve) => t.worker.once('exit', () => resolve()));
    t.worker.postMessage({ id: this.#next++, stop: true } satisfies ToAddressThread);
    const timer = setTimeout(() => void t.worker.terminate(), STOP_MS);
    return exited.finally(() => clearTimeout(timer));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.splice(0).map((t) => this.#end(t)));
  }
}
