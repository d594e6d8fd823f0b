import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InProcessBudget, reserveSlot } from './budget.ts';
import { resilient } from './resilience.ts';
import { UpstreamError } from '../domain/status.ts';

const T = { timeout: 10_000 };

describe('the upstream budget schedule', () => {
  test('an idle budget lets a call go at once', () => {
    assert.deepEqual(reserveSlot(0, 5_000, 10), { slotMs: 5_000, nextFreeMs: 5_100 });
    // a long-past "next free" does not bank calls for a burst later
    assert.deepEqual(reserveSlot(1_000, 5_000, 10), { slotMs: 5_000, nextFreeMs: 5_100 });
  });

  test('calls asked for together are spaced 1/N s apart, so no second holds more than N', () => {
    let next = 0;
    const slots: number[] = [];
    for (let i = 0; i < 25; i++) {
      const r = reserveSlot(next, 1_000, 4);
      next = r.nextFreeMs;
      slots.push(r.slotMs);
    }
    assert.deepEqual(slots.slice(0, 5), [1_000, 1_250, 1_500, 1_750, 2_000]);
    // every window [t, t + 1000) of the schedule, wherever it starts, holds at most 4 slots
    for (const start of slots) assert.ok(slots.filter((s) => s >= start && s < start + 1000).length <= 4);
  });

  test('InProcessBudget makes the calls wait for their slots (fake clock)', T, async () => {
    const budget = new InProcessBudget(1000, () => 0);
    const started = performance.now();
    await Promise.all(Array.from({ length: 20 }, () => budget.take()));
    // 20 calls at 1,000/s: the last one waited its 19 ms
    assert.ok(performance.now() - started >= 18, 'calls waited');
  });

  test('an aborted wait rejects at once', T, async () => {
    const budget = new InProcessBudget(1);
    await budget.take();
    const ac = new AbortController();
    const waiting = budget.take(ac.signal);
    ac.abort(new Error('shutting down'));
    await assert.rejects(waiting, /shutting down/);
  });
});

describe('the budget inside the resilience policies', () => {
  test('every attempt, retries included, takes from the budget', T, async () => {
    let taken = 0;
    let calls = 0;
    const call = resilient(
      async () => {
        if (++calls < 3) throw new UpstreamError('http_5xx', 'down', { retryable: true, httpStatus: 500 });
        return 'ok';
      },
      { initialDelayMs: 1, maxDelayMs: 2 },
      { beforeAttempt: async () => void taken++ },
    );
    assert.equal(await call(null), 'ok');
    assert.equal(taken, 3);
  });

  test('a budget that cannot be reached fails the call without opening the breaker', T, async () => {
    let calls = 0;
    const call = resilient(async () => ++calls, { breakerThreshold: 1 }, {
      beforeAttempt: async () => {
        throw new Error('database down');
      },
    });
    for (let i = 0; i < 3; i++) await assert.rejects(call(null), (e: unknown) => e instanceof UpstreamError && e.fault === 'rate_limited' && !e.retryable);
    assert.equal(calls, 0);
    assert.equal(call.breakerState(), 'closed');
  });
});
