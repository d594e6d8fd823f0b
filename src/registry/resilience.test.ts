import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { resilient } from './resilience.ts';
import { withRetryAfter } from './retry-after.ts';
import { UpstreamError } from '../domain/status.ts';

const T = { timeout: 10_000 };
const fast = { initialDelayMs: 1, maxDelayMs: 5 };
const limited = (ms: number): UpstreamError => withRetryAfter(new UpstreamError('rate_limited', '429', { retryable: true }), ms);
const down = (): UpstreamError => new UpstreamError('http_5xx', 'down', { retryable: true, httpStatus: 500 });

async function faultOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof UpstreamError, String(e));
    return e.fault;
  }
  return 'none';
}

describe('retry', () => {
  test('retries retryable faults up to maxRetries, then gives up with the last error', T, async () => {
    let calls = 0;
    const call = resilient(async () => { calls++; throw down(); }, { ...fast, maxRetries: 3 });
    assert.equal(await faultOf(call(null)), 'http_5xx');
    assert.equal(calls, 4);
  });

  test('does not retry non-retryable faults', T, async () => {
    let calls = 0;
    const call = resilient(async () => { calls++; throw new UpstreamError('rejected', 'bad key', { retryable: false }); }, fast);
    assert.equal(await faultOf(call(null)), 'rejected');
    assert.equal(calls, 1);
  });

  test('recovers when a retry succeeds', T, async () => {
    let calls = 0;
    const call = resilient(async () => { if (++calls < 3) throw down(); return 'ok'; }, fast);
    assert.equal(await call(null), 'ok');
    assert.equal(calls, 3);
  });

  test('a small Retry-After is waited for; a large one fails the call at once', T, async () => {
    let calls = 0;
    const small = resilient(async () => { if (++calls < 2) throw limited(80); return 'ok'; }, { ...fast, maxRetryAfterMs: 1_000 });
    const t0 = Date.now();
    assert.equal(await small(null), 'ok');
    assert.ok(Date.now() - t0 >= 60, 'waited about the Retry-After');

    calls = 0;
    const large = resilient(async () => { calls++; throw limited(60_000); }, { ...fast, maxRetryAfterMs: 1_000 });
    assert.equal(await faultOf(large(null)), 'rate_limited');
    assert.equal(calls, 1);
  });
});

describe('timeout', () => {
  test('each attempt is bounded, even when the call ignores its signal', T, async () => {
    let calls = 0;
    const call = resilient(async () => { calls++; await sleep(2_000, undefined, { ref: false }); return 'late'; }, { ...fast, timeoutMs: 50, maxRetries: 1 });
    const t0 = Date.now();
    assert.equal(await faultOf(call(null)), 'timeout');
    assert.equal(calls, 2);
    assert.ok(Date.now() - t0 < 1_500);
  });

  test('the call sees its signal abort on timeout', T, async () => {
    let aborted = false;
    const call = resilient(async (_: null, signal) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      aborted = true;
      throw new Error('aborted');
    }, { ...fast, timeoutMs: 30, maxRetries: 0 });
    assert.equal(await faultOf(call(null)), 'timeout');
    assert.equal(aborted, true);
  });
});

describe('circuit breaker', () => {
  test('opens after consecutive failed calls, fails fast, closes after a half-open success', T, async () => {
    let calls = 0;
    let healthy = false;
    const call = resilient(async () => { calls++; if (!healthy) throw down(); return 'ok'; },
      { ...fast, maxRetries: 0, breakerThreshold: 3, halfOpenAfterMs: 100 });
    for (let i = 0; i < 3; i++) assert.equal(await faultOf(call(null)), 'http_5xx');
    assert.equal(call.breakerState(), 'open');

    assert.equal(await faultOf(call(null)), 'circuit_open');
    assert.equal(calls, 3, 'no upstream call while open');

    await sleep(150);
    assert.equal(call.breakerState(), 'half_open', 'readiness sees half-open before any call arrives');
    healthy = true;
    assert.equal(await call(null), 'ok');
    assert.equal(call.breakerState(), 'closed');
  });

  test('a failed half-open trial opens it again', T, async () => {
    const call = resilient(async () => { throw down(); }, { ...fast, maxRetries: 0, breakerThreshold: 1, halfOpenAfterMs: 50 });
    assert.equal(await faultOf(call(null)), 'http_5xx');
    await sleep(80);
    assert.equal(await faultOf(call(null)), 'http_5xx');
    assert.equal(call.breakerState(), 'open');
  });

  test('retries stop as soon as the breaker opens', T, async () => {
    let calls = 0;
    const call = resilient(async () => { calls++; throw down(); }, { ...fast, maxRetries: 10, breakerThreshold: 2 });
    assert.equal(await faultOf(call(null)), 'circuit_open');
    assert.equal(calls, 2);
  });

  test('rejections (bad key) do not open it', T, async () => {
    const call = resilient(async () => { throw new UpstreamError('rejected', 'bad key', { retryable: false }); },
      { ...fast, breakerThreshold: 2 });
    for (let i = 0; i < 5; i++) assert.equal(await faultOf(call(null)), 'rejected');
    assert.equal(call.breakerState(), 'closed');
  });
});

describe('bulkhead', () => {
  test('bounds concurrent calls and queues the rest', T, async () => {
    let active = 0;
    let peak = 0;
    const call = resilient(async (n: number) => {
      peak = Math.max(peak, ++active);
      await sleep(20);
      active--;
      return n;
    }, { concurrency: 2, queueLimit: 100 });
    const out = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i)));
    assert.deepEqual(out, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(peak, 2);
  });

  test('a full queue refuses at once, without counting against the breaker', T, async () => {
    const call = resilient(async () => { await sleep(50); return 'ok'; }, { concurrency: 1, queueLimit: 1, breakerThreshold: 1 });
    const results = await Promise.all([call(null), call(null), faultOf(call(null))]);
    assert.deepEqual(results, ['ok', 'ok', 'rate_limited']);
    assert.equal(call.breakerState(), 'closed');
  });
});
