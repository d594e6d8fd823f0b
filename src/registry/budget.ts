// The upstream call budget: at most N calls to NTS per second, across every process that shares
// it. A call reserves the next free slot and waits for it instead of failing, so bursts turn
// into a queue in time rather than errors. Slots are spaced evenly, 1/N s apart (a "virtual
// scheduling" rate limiter, GCRA without burst): no window of one second ever holds more than N
// slots, wherever its edges fall, which is the safest reading of an upstream's "N per second".

export interface UpstreamBudget {
  /** Resolves when this process may send one call; rejects if `signal` aborts while waiting. */
  take(signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/**
 * One reservation against the shared schedule. `nextFreeMs` is the earliest time the next call
 * may go (0 when none went yet); returns the slot of this call and the new `nextFreeMs`.
 */
export function reserveSlot(nextFreeMs: number, nowMs: number, perSecond: number): { slotMs: number; nextFreeMs: number } {
  const slotMs = Math.max(nextFreeMs, nowMs);
  return { slotMs, nextFreeMs: slotMs + 1000 / perSecond };
}

/** Waits `ms`, or rejects at once when the signal aborts (the reserved slot is simply not used). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The budget of one process: enough on the embedded store, which one process serves. */
export class InProcessBudget implements UpstreamBudget {
  readonly #perSecond: number;
  readonly #now: () => number;
  #nextFreeMs = 0;

  constructor(perSecond: number, now: () => number = () => performance.now()) {
    if (!(perSecond > 0)) throw new RangeError('an upstream budget needs a positive rate');
    this.#perSecond = perSecond;
    this.#now = now;
  }

  async take(signal?: AbortSignal): Promise<void> {
    const now = this.#now();
    const { slotMs, nextFreeMs } = reserveSlot(this.#nextFreeMs, now, this.#perSecond);
    this.#nextFreeMs = nextFreeMs;
    await sleep(slotMs - now, signal);
  }

  async close(): Promise<void> {}
}
