// Merges concurrent lookups into as few upstream calls as possible: a key already pending or in
// flight is never asked twice, and waiting keys leave in calls of up to 100. Keys are numbers for
// the status API, and a canonical form of the whole question for the validate API.

import { NTS_MAX_PER_CALL } from './nts-wire.ts';
import { type NtsRecord, UpstreamError } from '../domain/status.ts';

export interface CoalescerOptions {
  /** numbers per upstream call; the NTS maximum by default */
  maxBatch?: number;
  /**
   * How long a partial batch waits for company. Misses reach us after each request's own async
   * cache read, so concurrent requests arrive spread over a few ms rather than in one tick; 2 ms
   * gathers them while adding <2% to a ~100 ms+ NTS round trip. 0 = flush on setImmediate.
   */
  windowMs?: number;
  /**
   * Calls outstanding at once (retries included); keys beyond them wait here, not in the call's
   * own queue, and leave in the next call when one returns: a partial batch (a chunk's last
   * numbers, a lookup of a few neighbours) then fills with whatever arrived meanwhile instead of
   * being a call of its own. The upstream's concurrency; unbounded by default.
   */
  maxInFlight?: number;
  /**
   * Calls outstanding at once when the batch leaving is full (at least maxInFlight, which is the
   * default): a full call gains nothing by waiting, and going out at once keeps the upstream busy
   * while the caller's thread is too busy to hand it the next one as soon as one returns.
   */
  maxFullInFlight?: number;
  /** keys waiting here at most; beyond them a lookup is refused (rate_limited), as a full queue of calls refuses it */
  maxPending?: number;
}

/**
 * Per key: an answer (undefined when the upstream answered the call but not this key) and when
 * it came, or why there is none.
 */
export type Settled<V = NtsRecord> = { ok: true; record: V | undefined; at?: Date } | { ok: false; error: UpstreamError };

interface Answered<V> {
  record: V | undefined;
  at: Date;
}

interface Waiter<V> {
  promise: Promise<Answered<V>>;
  /** stamps the answer by the clock of the lookup that first asked for the key */
  resolve(record: V | undefined): void;
  reject(error: UpstreamError): void;
}

export class Coalescer<V = NtsRecord> {
  readonly #call: (keys: string[]) => Promise<Map<string, V>>;
  readonly #maxBatch: number;
  readonly #windowMs: number;
  readonly #maxInFlight: number;
  readonly #maxFullInFlight: number;
  readonly #maxPending: number;
  /** calls sent and not yet returned */
  #calls = 0;
  /** every key pending or in flight, with the promise its callers share */
  readonly #waiters = new Map<string, Waiter<V>>();
  #pending: string[] = [];
  #cancelTimer: (() => void) | undefined;
  #closed = false;

  constructor(call: (keys: string[]) => Promise<Map<string, V>>, opts: CoalescerOptions = {}) {
    this.#call = call;
    this.#maxBatch = Math.min(opts.maxBatch ?? NTS_MAX_PER_CALL, NTS_MAX_PER_CALL);
    this.#windowMs = opts.windowMs ?? 2;
    this.#maxInFlight = Math.max(1, opts.maxInFlight ?? Infinity);
    this.#maxFullInFlight = Math.max(this.#maxInFlight, opts.maxFullInFlight ?? this.#maxInFlight);
    this.#maxPending = opts.maxPending ?? Infinity;
  }

  /**
   * Each requested number settles on its own: a failed call fails only the numbers in it. An
   * answer carries the time its call returned, by `now`: every lookup that shared the key gets
   * the same time, however long it waited for its other keys.
   */
  async lookupSettled(bnos: readonly string[], now: () => Date = () => new Date()): Promise<Map<string, Settled<V>>> {
    const unique = [...new Set(bnos)];
    const settled = await Promise.allSettled(unique.map((bno) => this.#waiterFor(bno, now).promise));
    const out = new Map<string, Settled<V>>();
    settled.forEach((s, i) => {
      const bno = unique[i]!;
      out.set(bno, s.status === 'fulfilled' ? { ok: true, record: s.value.record, at: s.value.at } : { ok: false, error: asUpstream(s.reason) });
    });
    return out;
  }

  get inFlight(): number {
    return this.#waiters.size;
  }

  /** Pending numbers fail now; calls already sent finish (their caller aborts them if needed). */
  close(): void {
    this.#closed = true;
    this.#clearTimer();
    const pending = this.#pending;
    this.#pending = [];
    const error = new UpstreamError('network', 'registry closed', { retryable: true });
    for (const bno of pending) this.#settle(bno, (w) => w.reject(error));
  }

  #waiterFor(bno: string, now: () => Date): Waiter<V> {
    const existing = this.#waiters.get(bno);
    if (existing) return existing;
    const waiter = deferred<V>(now);
    if (this.#closed) {
      waiter.reject(new UpstreamError('network', 'registry closed', { retryable: true }));
      return waiter;
    }
    if (this.#pending.length >= this.#maxPending) {
      waiter.reject(new UpstreamError('rate_limited', 'too many NTS calls queued locally', { retryable: true }));
      return waiter;
    }
    this.#waiters.set(bno, waiter);
    this.#pending.push(bno);
    if (this.#pending.length >= this.#maxBatch) this.#flush();
    else if (this.#cancelTimer === undefined && this.#calls < this.#maxInFlight) this.#cancelTimer = this.#schedule();
    return waiter;
  }

  #schedule(): () => void {
    if (this.#windowMs > 0) {
      const t = setTimeout(() => this.#flushAll(), this.#windowMs);
      return () => clearTimeout(t);
    }
    const i = setImmediate(() => this.#flushAll());
    return () => clearImmediate(i);
  }

  #flushAll(): void {
    this.#cancelTimer = undefined;
    this.#drain();
  }

  /** Sends what waits, as far as the calls allowed out let it (the rest leaves as calls return). */
  #drain(): void {
    while (this.#mayLeave()) this.#flush();
  }

  /** Whether the oldest batch may go out now: a partial one within maxInFlight, a full one within maxFullInFlight. */
  #mayLeave(): boolean {
    if (this.#pending.length === 0) return false;
    return this.#calls < (this.#pending.length >= this.#maxBatch ? this.#maxFullInFlight : this.#maxInFlight);
  }

  /** Sends the oldest batch, when a call may go out; a full batch goes at once, without waiting for the window. */
  #flush(): void {
    if (!this.#mayLeave()) return;
    const batch = this.#pending.splice(0, this.#maxBatch);
    if (this.#pending.length === 0) this.#clearTimer();
    if (batch.length === 0) return;
    this.#calls++;
    // new Promise turns a synchronous throw from the call into a rejection of this batch only.
    void new Promise<Map<string, V>>((res) => res(this.#call(batch)))
      .then(
        (records) => { for (const bno of batch) this.#settle(bno, (w) => w.resolve(records.get(bno))); },
        (error: unknown) => {
          const e = asUpstream(error);
          for (const bno of batch) this.#settle(bno, (w) => w.reject(e));
        },
      )
      .finally(() => {
        const held = !this.#mayLeave() && this.#pending.length > 0;
        this.#calls--;
        // keys that waited for this call's place have had their window already
        if (held && !this.#closed) this.#drain();
      });
  }

  #settle(bno: string, fn: (w: Waiter<V>) => void): void {
    const waiter = this.#waiters.get(bno);
    if (!waiter) return;
    // Forget it first: a later lookup must ask again (the cache, not we, remembers answers).
    this.#waiters.delete(bno);
    fn(waiter);
  }

  #clearTimer(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }
}

function deferred<V>(now: () => Date): Waiter<V> {
  let resolve!: (r: Answered<V>) => void;
  let reject!: (e: UpstreamError) => void;
  const promise = new Promise<Answered<V>>((res, rej) => { resolve = res; reject = rej; });
  // Callers always await through allSettled; this only stops an unhandled-rejection crash.
  promise.catch(() => {});
  return { promise, resolve: (record) => resolve({ record, at: now() }), reject };
}

function asUpstream(error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  return new UpstreamError('network', `NTS call failed: ${String(error)}`, { retryable: true, cause: error });
}
