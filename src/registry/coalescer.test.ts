import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { checkDigitOf } from '../domain/bizno.ts';
import { Coalescer } from './coalescer.ts';
import { sandboxRecord } from './sandbox.ts';
import { type NtsRecord, UpstreamError } from '../domain/status.ts';

const T = { timeout: 10_000 };
/** when the lookup's answer for `b` came, in ms */
const at = (m: Map<string, { ok: boolean; at?: Date }>, b: string) => (m.get(b) as { at?: Date } | undefined)?.at?.getTime();
const bno = (i: number): string => {
  const nine = String(100_000_000 + i);
  return nine + String(checkDigitOf(nine));
};

/** An upstream stub that records each call and answers from the sandbox after a short delay. */
function upstream(opts: { delayMs?: number; failWhen?: (bnos: string[]) => boolean; skip?: Set<string> } = {}) {
  const calls: string[][] = [];
  const call = async (bnos: string[]): Promise<Map<string, NtsRecord>> => {
    calls.push(bnos);
    await sleep(opts.delayMs ?? 5);
    if (opts.failWhen?.(bnos)) throw new UpstreamError('http_5xx', 'down', { retryable: true });
    return new Map(bnos.filter((b) => !opts.skip?.has(b)).map((b) => [b, sandboxRecord(b)]));
  };
  return { calls, call };
}

describe('Coalescer', () => {
  test('1,000 concurrent single lookups make exactly 10 calls of 100', T, async () => {
    const up = upstream();
    const c = new Coalescer(up.call);
    const results = await Promise.all(Array.from({ length: 1_000 }, (_, i) => c.lookupSettled([bno(i)])));
    assert.equal(up.calls.length, 10);
    assert.ok(up.calls.every((b) => b.length === 100));
    assert.equal(new Set(up.calls.flat()).size, 1_000);
    results.forEach((r, i) => {
      const s = r.get(bno(i));
      assert.ok(s?.ok);
      assert.equal(s.record?.b_no, bno(i));
    });
  });

  test('a partial batch leaves after the window', T, async () => {
    const up = upstream();
    const c = new Coalescer(up.call, { windowMs: 2 });
    await Promise.all([c.lookupSettled(Array.from({ length: 130 }, (_, i) => bno(i))), c.lookupSettled([bno(500)])]);
    assert.deepEqual(up.calls.map((b) => b.length), [100, 31]);
  });

  test('while every call allowed out is out, partial batches wait and leave together in the next call', T, async () => {
    const up = upstream({ delayMs: 40 });
    const c = new Coalescer(up.call, { windowMs: 2, maxInFlight: 2 });
    const full = [c.lookupSettled(Array.from({ length: 100 }, (_, i) => bno(i))), c.lookupSettled(Array.from({ length: 100 }, (_, i) => bno(100 + i)))];
    // two chunks' neighbours, asked while both calls are out
    const late = [c.lookupSettled(Array.from({ length: 30 }, (_, i) => bno(300 + i)))];
    await sleep(10);
    late.push(c.lookupSettled(Array.from({ length: 45 }, (_, i) => bno(400 + i))));
    const results = await Promise.all([...full, ...late]);
    assert.deepEqual(up.calls.map((b) => b.length), [100, 100, 75]);
    assert.ok(results.every((r) => [...r.values()].every((v) => v.ok && v.record !== undefined)));
    // with a place free, a partial batch leaves after its window, as without the limit
    await c.lookupSettled([bno(900)]);
    assert.deepEqual(up.calls.at(-1), [bno(900)]);
  });

  test('full batches go out up to maxFullInFlight while partial ones wait for a place within maxInFlight', T, async () => {
    let out = 0;
    let most = 0;
    const up = upstream({ delayMs: 40 });
    const counted = async (keys: string[]) => {
      most = Math.max(most, ++out);
      try {
        return await up.call(keys);
      } finally {
        out--;
      }
    };
    const c = new Coalescer(counted, { windowMs: 2, maxInFlight: 2, maxFullInFlight: 4 });
    // five full calls' worth and a remainder, asked at once: four full ones leave, the fifth and
    // the remainder wait (the remainder behind it, as it would within maxInFlight)
    const first = c.lookupSettled(Array.from({ length: 530 }, (_, i) => bno(i)));
    await sleep(10);
    assert.deepEqual(up.calls.map((b) => b.length), [100, 100, 100, 100]);
    // a partial batch asked while four calls are out waits too
    const late = c.lookupSettled(Array.from({ length: 20 }, (_, i) => bno(1_000 + i)));
    const results = await Promise.all([first, late]);
    assert.equal(most, 4);
    assert.deepEqual(up.calls.slice(4).map((b) => b.length).toSorted((a, b) => b - a), [100, 50]);
    assert.ok(results.every((r) => [...r.values()].every((v) => v.ok && v.record !== undefined)));
    // with places free, a lone partial batch still waits for its window, then leaves
    await c.lookupSettled([bno(2_000)]);
    assert.deepEqual(up.calls.at(-1), [bno(2_000)]);
  });

  test('keys beyond maxPending are refused as a full queue refuses them; the others are answered', T, async () => {
    const up = upstream({ delayMs: 30 });
    const c = new Coalescer(up.call, { windowMs: 2, maxInFlight: 1, maxPending: 5 });
    const out = c.lookupSettled([bno(1)]);
    await sleep(5);
    const waiting = await c.lookupSettled(Array.from({ length: 7 }, (_, i) => bno(10 + i)));
    const refused = [...waiting.values()].filter((v) => !v.ok);
    assert.equal(refused.length, 2);
    assert.ok(refused.every((v) => !v.ok && v.error.fault === 'rate_limited'));
    assert.ok((await out).get(bno(1))?.ok);
    assert.deepEqual(up.calls.map((b) => b.length), [1, 5]);
  });

  test('windowMs 0 flushes on setImmediate', T, async () => {
    const up = upstream();
    const c = new Coalescer(up.call, { windowMs: 0 });
    await Promise.all([c.lookupSettled([bno(1)]), c.lookupSettled([bno(2), bno(3)])]);
    assert.equal(up.calls.length, 1);
  });

  test('the same number, pending or in flight, is asked only once', T, async () => {
    const up = upstream({ delayMs: 30 });
    const c = new Coalescer(up.call);
    const first = c.lookupSettled([bno(1), bno(1), bno(2)]);
    const second = c.lookupSettled([bno(1)]);
    await sleep(10); // the first call is now in flight
    assert.equal(c.inFlight, 2);
    const third = c.lookupSettled([bno(2), bno(3)]);
    const [a, b, d] = await Promise.all([first, second, third]);
    assert.deepEqual(up.calls, [[bno(1), bno(2)], [bno(3)]]);
    assert.equal(a.size, 2);
    assert.deepEqual(b.get(bno(1)), a.get(bno(1)));
    assert.ok(d.get(bno(2))?.ok && d.get(bno(3))?.ok);
    assert.equal(c.inFlight, 0, 'answered numbers are forgotten (the cache remembers them)');
  });

  test('a failed call rejects only the numbers in that call', T, async () => {
    const bad = bno(150);
    const up = upstream({ failWhen: (b) => b.includes(bad) });
    const c = new Coalescer(up.call);
    const out = await c.lookupSettled(Array.from({ length: 200 }, (_, i) => bno(i)));
    assert.equal(up.calls.length, 2);
    const failed = [...out].filter(([, s]) => !s.ok).map(([b]) => b);
    assert.deepEqual(failed, up.calls[1]);
    const s = out.get(bad);
    assert.ok(s && !s.ok && s.error.fault === 'http_5xx');
    assert.ok(out.get(bno(0))?.ok);
  });

  test('a number the upstream did not answer settles ok with no record', T, async () => {
    const up = upstream({ skip: new Set([bno(2)]) });
    const out = await new Coalescer(up.call).lookupSettled([bno(1), bno(2)]);
    assert.deepEqual({ ...out.get(bno(2)), at: null }, { ok: true, record: undefined, at: null });
  });

  test('a number is stamped when its call returned, the same for every lookup that shared it', T, async () => {
    const up = upstream({ delayMs: 20 });
    const c = new Coalescer(up.call);
    let tick = 0;
    const clock = () => new Date(Date.UTC(2026, 10, 26) + ++tick * 1000);
    const alone = c.lookupSettled([bno(1)], clock);
    await sleep(10); // bno(1)'s call is in flight; the next lookup joins it and waits for a call of its own too
    const joined = c.lookupSettled([bno(1), bno(2)], clock);
    const [a, j] = await Promise.all([alone, joined]);
    assert.deepEqual(up.calls, [[bno(1)], [bno(2)]]);
    assert.equal(at(j, bno(1)), at(a, bno(1)), 'the shared number has one check time');
    assert.ok(at(j, bno(2))! > at(j, bno(1))!, 'the later call is stamped later');
  });

  test('a non-Upstream throw becomes a retryable UpstreamError', T, async () => {
    const c = new Coalescer(() => { throw new Error('boom'); });
    const s = (await c.lookupSettled([bno(1)])).get(bno(1));
    assert.ok(s && !s.ok && s.error instanceof UpstreamError && s.error.retryable);
  });

  test('close() fails pending numbers and refuses new ones', T, async () => {
    const up = upstream();
    const c = new Coalescer(up.call, { windowMs: 1_000 });
    const pending = c.lookupSettled([bno(1)]);
    c.close();
    assert.equal((await pending).get(bno(1))?.ok, false);
    assert.equal((await c.lookupSettled([bno(2)])).get(bno(2))?.ok, false);
    assert.equal(up.calls.length, 0);
  });
});
