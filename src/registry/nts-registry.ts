// The real registry: NtsHttpClient calls, each wrapped in resilience policies, fed by the
// coalescer so concurrent requests share calls of up to 100 numbers.

import { Coalescer, type CoalescerOptions, type Settled } from './coalescer.ts';
import { NtsHttpClient } from './nts-client.ts';
import { HttpLane } from './http-lane.ts';
import { type BreakerState, RESILIENCE_DEFAULTS, type ResilienceOptions, type ResilientCall, resilient } from './resilience.ts';
import { NTS_MAX_PER_CALL } from './nts-wire.ts';
import type { UpstreamBudget } from './budget.ts';
import { type DailyBudget, exhausted } from './daily-budget.ts';
import { type NtsRecord, type Registry, UpstreamError, type UpstreamFault } from '../domain/status.ts';
import { type ValidateAnswer, type ValidateQuery, validateKey } from '../domain/validation.ts';

/** Told about every attempt sent to NTS and every breaker change (metrics implement it). */
export interface UpstreamObserver {
  attempt(outcome: 'ok' | UpstreamFault, seconds: number): void;
  budgetWait(seconds: number): void;
  breaker(state: BreakerState): void;
}

/** beyond a lane's LANE_DEPTH calls' time, before an attempt is given up on in the main thread */
const LANE_SLACK_MS = 1_000;
/** full calls handed to the HTTP lane per call it keeps on the wire */
const LANE_DEPTH = 4;

/**
 * Calls a registry of `concurrency` takes at once, and so what a caller that asks in full calls
 * (an upload's warming) may have outstanding to keep NTS busy: more with the HTTP lane.
 */
export const callsHandedOut = (concurrency: number, lane = true): number => (lane ? LANE_DEPTH * concurrency : concurrency);

export interface NtsRegistryOptions extends ResilienceOptions, CoalescerOptions {
  serviceKey: string;
  baseUrl: string;
  fetch?: typeof fetch;
  /** calls per second shared with other processes; none = no limit beyond `concurrency` */
  budget?: UpstreamBudget;
  /** numbers per KST day shared with other processes; none = no limit */
  daily?: DailyBudget;
  observer?: UpstreamObserver;
}

/** A Registry that can also say, per number, why it was not answered, and how upstream is doing. */
export interface SettlingRegistry extends Registry {
  /** `now` stamps each answer (Settled.at) with when its call returned */
  lookupSettled(bnos: readonly string[], now?: () => Date): Promise<Map<string, Settled>>;
  health(): { upstream: BreakerState | 'sandbox' };
}

export class NtsRegistry implements SettlingRegistry {
  readonly source = 'nts' as const;
  readonly #call: ResilientCall<string[], Map<string, NtsRecord>>;
  readonly #coalescer: Coalescer;
  readonly #validate: Coalescer<ValidateAnswer>;
  // Aborted on close() so shutdown does not wait out timeouts and retries of calls in flight.
  readonly #shutdown = new AbortController();
  readonly #lane: HttpLane | undefined;

  constructor(opts: NtsRegistryOptions) {
    const concurrency = opts.concurrency ?? RESILIENCE_DEFAULTS.concurrency;
    // Without a fetch of its own (tests bring one), calls go out from a thread that keeps
    // `concurrency` of them on the wire whatever the main thread is doing (http-lane.ts); it is
    // handed more, so that one is always ready to leave when another returns: partial calls up to
    // twice as many (fewer, and they would not fill up while they wait for a place), full ones up
    // to LANE_DEPTH times. A call that returned holds its place until the main thread reads the
    // answer, which a busy main thread (an upload being read, a chunk's commit) does late: an
    // upload's warming, ten full calls at a time, kept ~7 of the 10 on the wire, and with
    // callsHandedOut() at a time 10. The thread times each attempt from when it goes on the wire; the attempt's
    // timeout here also allows for its wait for a place (at most LANE_DEPTH − 1 calls' time),
    // and only fires should the thread itself not answer.
    const timeoutMs = opts.timeoutMs ?? RESILIENCE_DEFAULTS.timeoutMs;
    this.#lane = opts.fetch ? undefined : new HttpLane(concurrency, { wireTimeoutMs: timeoutMs });
    const partial = this.#lane ? 2 * concurrency : concurrency;
    const handedOut = callsHandedOut(concurrency, this.#lane !== undefined);
    const client = new NtsHttpClient({ serviceKey: opts.serviceKey, baseUrl: opts.baseUrl, fetch: opts.fetch ?? this.#lane!.fetch });
    const observer = opts.observer;
    const budget = opts.budget;
    // both endpoints draw on the one key's budget; each has its own breaker, since one can be
    // down (or refuse this key) while the other answers
    const beforeAttempt = budget && (observer ? async (s: AbortSignal) => timed(() => budget.take(s), (t) => observer.budgetWait(t)) : (s: AbortSignal) => budget.take(s));
    const statusOnce = counted(opts.daily, (bnos: string[], signal: AbortSignal) => client.callOnce(bnos, signal));
    const policies = { ...opts, concurrency: handedOut, timeoutMs: this.#lane ? LANE_DEPTH * timeoutMs + LANE_SLACK_MS : timeoutMs };
    this.#call = resilient(observer ? observed(statusOnce, observer) : statusOnce, policies, { beforeAttempt, onBreakerChange: observer && ((state) => observer.breaker(state)) });
    // calls wait in the coalescer rather than in the bulkhead's queue, so that partial ones fill up meanwhile
    const outstanding = { maxPending: (opts.queueLimit ?? RESILIENCE_DEFAULTS.queueLimit) * NTS_MAX_PER_CALL, ...opts, maxInFlight: partial, maxFullInFlight: handedOut };
    this.#coalescer = new Coalescer((bnos) => this.#call(bnos, this.#shutdown.signal), outstanding);
    const validateOnce = counted(opts.daily, (keys: string[], signal: AbortSignal) => client.validateOnce(keys, signal));
    const validateCall = resilient(observer ? observed(validateOnce, observer) : validateOnce, policies, { beforeAttempt });
    this.#validate = new Coalescer<ValidateAnswer>((keys) => validateCall(keys, this.#shutdown.signal), outstanding);
  }

  lookupSettled(bnos: readonly string[], now?: () => Date): Promise<Map<string, Settled>> {
    return this.#coalescer.lookupSettled(bnos, now);
  }

  /** 진위확인 for each question, settled on its own; keyed by validateKey. */
  validateSettled(queries: readonly ValidateQuery[]): Promise<Map<string, Settled<ValidateAnswer>>> {
    return this.#validate.lookupSettled(queries.map(validateKey));
  }

  /**
   * The plain Registry contract has no room for partial failure, so any failed number rejects
   * the whole lookup: a caller must never mistake "not asked successfully" for "not answered".
   */
  async lookup(bnos: readonly string[]): Promise<Map<string, NtsRecord>> {
    const settled = await this.lookupSettled(bnos);
    const out = new Map<string, NtsRecord>();
    let failure: UpstreamError | undefined;
    for (const [bno, s] of settled) {
      if (!s.ok) failure ??= s.error;
      else if (s.record) out.set(bno, s.record);
    }
    if (failure) throw failure;
    return out;
  }

  health(): { upstream: BreakerState } {
    return { upstream: this.#call.breakerState() };
  }

  async close(): Promise<void> {
    this.#coalescer.close();
    this.#validate.close();
    this.#shutdown.abort();
    await this.#lane?.close();
  }
}

/**
 * Every attempt reaches NTS and counts against the day: the numbers are taken before it goes
 * (none go once the day is spent), and a gateway saying the key's allowance is spent spends our
 * day too, so no process asks again before the next one.
 */
function counted<R>(daily: DailyBudget | undefined, call: (keys: string[], signal: AbortSignal) => Promise<R>) {
  if (!daily) return call;
  return async (keys: string[], signal: AbortSignal): Promise<R> => {
    await daily.take(keys.length);
    try {
      return await call(keys, signal);
    } catch (error) {
      if (error instanceof UpstreamError && error.fault === 'quota_exhausted') {
        await daily.spend();
        throw exhausted(new Date(), error.message);
      }
      throw error;
    }
  };
}

/** Each attempt timed and classified; an attempt cut off by its timeout counts as a timeout. */
function observed<R>(call: (keys: string[], signal: AbortSignal) => Promise<R>, observer: UpstreamObserver) {
  return async (keys: string[], signal: AbortSignal): Promise<R> => {
    const started = performance.now();
    try {
      const out = await call(keys, signal);
      observer.attempt('ok', (performance.now() - started) / 1000);
      return out;
    } catch (error) {
      const fault = signal.aborted ? 'timeout' : error instanceof UpstreamError ? error.fault : 'network';
      observer.attempt(fault, (performance.now() - started) / 1000);
      throw error;
    }
  };
}

async function timed(fn: () => Promise<void>, report: (seconds: number) => void): Promise<void> {
  const started = performance.now();
  await fn();
  report((performance.now() - started) / 1000);
}
