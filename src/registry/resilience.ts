// Wraps one upstream call with cockatiel policies. Layering, outermost first:
//   retry -> bulkhead -> circuit breaker -> per-attempt timeout -> call
// Retry is outermost so a backing-off call holds no bulkhead slot; the bulkhead sits outside the
// breaker so "queue full" never counts as an upstream failure; the timeout is per attempt.

import {
  BulkheadRejectedError, CircuitState, ConsecutiveBreaker, DelegateBackoff, ExponentialBackoff,
  type IBackoff, type IRetryBackoffContext, TimeoutStrategy, bulkhead, circuitBreaker, handleWhen,
  isBrokenCircuitError, isTaskCancelledError, retry, timeout,
} from 'cockatiel';
import { retryAfterOf } from './retry-after.ts';
import { UpstreamError } from '../domain/status.ts';

export interface ResilienceOptions {
  timeoutMs?: number;
  maxRetries?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  breakerThreshold?: number;
  halfOpenAfterMs?: number;
  concurrency?: number;
  queueLimit?: number;
  maxRetryAfterMs?: number;
}

export const RESILIENCE_DEFAULTS: Required<ResilienceOptions> = {
  // NTS usually answers 100 numbers in well under a second; 5 s means it is stuck, not slow.
  timeoutMs: 5_000,
  // Three retries ride out a brief blip; more would hold the caller's request too long.
  maxRetries: 3,
  // 200 ms is long enough for a restarted gateway connection, short against a ~1 s request budget.
  initialDelayMs: 200,
  // Caps the worst backoff so 3 retries + timeouts stay within a client's patience.
  maxDelayMs: 3_000,
  // Five failed calls in a row is an outage, not bad luck (with retries that is ~2 requests).
  breakerThreshold: 5,
  // 10 s lets a restarting upstream come back without us hammering it meanwhile.
  halfOpenAfterMs: 10_000,
  // data.go.kr throttles per key; 10 parallel 100-number calls is ~1,000 numbers in flight.
  concurrency: 10,
  // 1,000 queued calls = 100k numbers: enough for a large batch job, bounded in memory.
  queueLimit: 1_000,
  // A Retry-After up to the backoff cap is worth waiting for; longer ones fail the call now.
  maxRetryAfterMs: 3_000,
};

export type BreakerState = 'closed' | 'open' | 'half_open';

/** What the caller wants to hear about or add around each attempt (budget, metrics). */
export interface ResilienceHooks {
  /**
   * Awaited before every attempt, retries included, outside the attempt's timeout: the shared
   * upstream budget, which may make the call wait for its slot.
   */
  beforeAttempt?: (signal: AbortSignal) => Promise<void>;
  onBreakerChange?: (state: BreakerState) => void;
}

export interface ResilientCall<A, R> {
  (arg: A, signal?: AbortSignal): Promise<R>;
  breakerState(): BreakerState;
}

/** A fault worth asking again about within this same call (not: breaker open, local queue full). */
function retryableHere(error: unknown, maxRetryAfterMs: number): boolean {
  if (!(error instanceof UpstreamError) || !error.retryable || error.fault === 'circuit_open') return false;
  if (error.cause instanceof BulkheadRejectedError) return false;
  const hint = retryAfterOf(error);
  return hint === undefined || hint <= maxRetryAfterMs;
}

/** Only upstream-health faults open the breaker: a bad key or bad request says nothing about it. */
function breakerCounts(error: unknown): boolean {
  return error instanceof UpstreamError && error.retryable && error.fault !== 'circuit_open';
}

export function resilient<A, R>(
  call: (arg: A, signal: AbortSignal) => Promise<R>,
  options: ResilienceOptions = {},
  hooks: ResilienceHooks = {},
): ResilientCall<A, R> {
  const o = withDefaults(options);

  // Exponential with cockatiel's decorrelated jitter, stretched to a Retry-After hint when given.
  const exponential = new ExponentialBackoff({ initialDelay: o.initialDelayMs, maxDelay: o.maxDelayMs });
  const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>, IBackoff<unknown> | undefined>((ctx, prev) => {
    const next = prev ? prev.next(ctx) : exponential.next();
    const hint = 'error' in ctx.result ? retryAfterOf(ctx.result.error) : undefined;
    return { delay: Math.max(next.duration, hint ?? 0), state: next };
  });
  const retryPolicy = retry(handleWhen((e) => retryableHere(e, o.maxRetryAfterMs)), { maxAttempts: o.maxRetries, backoff });
  const bulkheadPolicy = bulkhead(o.concurrency, o.queueLimit);
  const breaker = circuitBreaker(handleWhen(breakerCounts), {
    breaker: new ConsecutiveBreaker(o.breakerThreshold),
    halfOpenAfter: o.halfOpenAfterMs,
  });
  const timeoutPolicy = timeout(o.timeoutMs, TimeoutStrategy.Aggressive);

  let openedAt = 0;
  breaker.onBreak(() => { openedAt = Date.now(); });
  if (hooks.onBreakerChange) {
    const tell = hooks.onBreakerChange;
    breaker.onBreak(() => tell('open'));
    breaker.onHalfOpen(() => tell('half_open'));
    breaker.onReset(() => tell('closed'));
  }

  const attempt = async (arg: A, outer: AbortSignal): Promise<R> => {
    if (hooks.beforeAttempt) await budgetFor(hooks.beforeAttempt, outer);
    try {
      return await timeoutPolicy.execute(async ({ signal }) => {
        try {
          return await call(arg, signal);
        } catch (error) {
          // Whatever the call threw once its signal fired (AbortError etc.) is our timeout.
          if (signal.aborted && !outer.aborted) throw timeoutError(o.timeoutMs, error);
          throw error;
        }
      }, outer);
    } catch (error) {
      if (isTaskCancelledError(error) && !outer.aborted) throw timeoutError(o.timeoutMs, error);
      throw error;
    }
  };

  const fn = async (arg: A, signal?: AbortSignal): Promise<R> => {
    try {
      return await retryPolicy.execute(async ({ signal: retrySignal }) => {
        // Fail fast rather than queueing behind the bulkhead only to be refused by the breaker.
        if (breaker.state === CircuitState.Open && Date.now() - openedAt < o.halfOpenAfterMs) throw circuitOpen();
        try {
          return await bulkheadPolicy.execute(({ signal: s }) => breaker.execute(({ signal: b }) => attempt(arg, b), s), retrySignal);
        } catch (error) {
          if (isBrokenCircuitError(error)) throw circuitOpen(error);
          if (error instanceof BulkheadRejectedError) {
            throw new UpstreamError('rate_limited', 'too many NTS calls queued locally', { retryable: true, cause: error });
          }
          throw error;
        }
      }, signal);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      // A caller abort or a bug: still surface it as an UpstreamError so callers have one type.
      throw new UpstreamError('network', `NTS call failed: ${String(error)}`, { retryable: true, cause: error });
    }
  };

  const breakerState = (): BreakerState => {
    const state = breaker.state;
    if (state === CircuitState.Closed) return 'closed';
    if (state === CircuitState.HalfOpen) return 'half_open';
    // cockatiel only moves to half-open when a call arrives; a readiness probe that reported
    // 'open' forever would keep away the traffic needed to close it.
    if (state === CircuitState.Open && Date.now() - openedAt >= o.halfOpenAfterMs) return 'half_open';
    return 'open'; // Open, or Isolated (held open by hand)
  };
  return Object.assign(fn, { breakerState });
}

/** A budget that cannot be reached (its database is down) fails the call without blaming NTS. */
async function budgetFor(take: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
  try {
    await take(signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UpstreamError('rate_limited', `could not reserve an NTS call from the shared budget: ${String(error)}`, { retryable: false, cause: error });
  }
}

function circuitOpen(cause?: unknown): UpstreamError {
  return new UpstreamError('circuit_open', 'NTS circuit breaker is open; not calling upstream', { retryable: true, cause });
}

function timeoutError(ms: number, cause: unknown): UpstreamError {
  return new UpstreamError('timeout', `NTS call timed out after ${ms} ms`, { retryable: true, cause });
}

/** `{ timeoutMs: undefined }` (an unset config value) must mean the default, not NaN timers. */
function withDefaults(options: ResilienceOptions): Required<ResilienceOptions> {
  const pick = (k: keyof ResilienceOptions): number => options[k] ?? RESILIENCE_DEFAULTS[k];
  return {
    timeoutMs: pick('timeoutMs'), maxRetries: pick('maxRetries'), initialDelayMs: pick('initialDelayMs'),
    maxDelayMs: pick('maxDelayMs'), breakerThreshold: pick('breakerThreshold'), halfOpenAfterMs: pick('halfOpenAfterMs'),
    concurrency: pick('concurrency'), queueLimit: pick('queueLimit'), maxRetryAfterMs: pick('maxRetryAfterMs'),
  };
}
