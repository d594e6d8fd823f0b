import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UploadWarmer, WarmAllowance, type WarmAnswer } from './upload-warmer.ts';

/** A lookup whose calls end only when released, recording what each asked. */
function heldLookup(cachedShare = 0) {
  const calls: string[][] = [];
  const releases: (() => void)[] = [];
  const lookup = (bnos: string[]) => {
    calls.push(bnos);
    return new Promise<WarmAnswer>((resolve) => releases.push(() => resolve({ asked: bnos.length, cached: Math.round(bnos.length * cachedShare) })));
  };
  const releaseAll = async () => {
    for (const r of releases.splice(0)) r();
    await new Promise((r) => setImmediate(r));
  };
  return { calls, lookup, releaseAll };
}

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(1_000_000_000 + from + i));

test('takes a whole chunk while a lane is free, asks it in full calls no more at once than its lanes, and skips the chunks read meanwhile', async () => {
  const l = heldLookup();
  const w = new UploadWarmer({ lookup: l.lookup, limit: 1_000_000, perCall: 100, inFlight: 3 });
  for (const b of numbers(1_000)) w.add(b, 1);
  assert.deepEqual(l.calls.map((c) => c.length), [100, 100, 100], 'three calls at once; the rest of the chunk waits');
  for (const b of numbers(1_000, 10_000)) w.add(b, 2);
  await l.releaseAll();
  assert.deepEqual(l.calls.flat(), numbers(600), 'as lanes come free, the rest of chunk 1; chunk 2 was read while none was');
  for (let i = 0; i < 3; i++) await l.releaseAll();
  assert.deepEqual(l.calls.flat(), numbers(1_000));
  for (const b of numbers(1_000, 20_000)) w.add(b, 3);
  assert.deepEqual(l.calls.slice(10).flat(), numbers(300, 20_000), 'chunk 3 starts with lanes free: taken');
  w.stop();
  await l.releaseAll();
  await w.settled();
});

test('at the upload\'s end the chunk taken last goes too, even while every lane is busy; after stop() nothing does', async () => {
  const l = heldLookup();
  const w = new UploadWarmer({ lookup: l.lookup, limit: 1_000_000, perCall: 100, inFlight: 2 });
  for (const b of numbers(250)) w.add(b, 1);
  assert.deepEqual(l.calls.map((c) => c.length), [100, 100], 'both lanes out; fifty of the chunk wait for more of it');
  w.finish();
  assert.equal(l.calls.length, 2, 'no lane is free yet');
  await l.releaseAll();
  assert.deepEqual(l.calls.map((c) => c.length), [100, 100, 50], 'the fifty leave with the first free lane');
  for (const b of numbers(100, 5_000)) w.add(b, 2);
  await l.releaseAll();
  assert.equal(l.calls.length, 3, 'nothing added after the end is asked');
  await w.settled();

  const s = heldLookup();
  const stopped = new UploadWarmer({ lookup: s.lookup, limit: 1_000_000, perCall: 100, inFlight: 2 });
  for (const b of numbers(150)) stopped.add(b, 1);
  stopped.stop();
  await s.releaseAll();
  assert.deepEqual(s.calls.map((c) => c.length), [100], 'a refused upload asks nothing more');
  await stopped.settled();
});

test('a chunk\'s short last call goes once the chunk is all read, not before', async () => {
  const l = heldLookup();
  const w = new UploadWarmer({ lookup: l.lookup, limit: 1_000_000, perCall: 100, inFlight: 10 });
  for (const b of numbers(150)) w.add(b, 1);
  assert.deepEqual(l.calls.map((c) => c.length), [100], 'fifty wait: more of the chunk may come');
  await l.releaseAll();
  assert.equal(l.calls.length, 1);
  w.add(numbers(1, 5_000)[0]!, 2);
  assert.deepEqual(l.calls.map((c) => c.length), [100, 50], 'the next chunk began: the fifty go');
  w.stop();
  await l.releaseAll();
  await w.settled();
});

test('asks about no more numbers than it may spend, and none when it may spend nothing', async () => {
  const l = heldLookup();
  const w = new UploadWarmer({ lookup: l.lookup, limit: 250, perCall: 100, inFlight: 10 });
  for (const b of numbers(1_000)) w.add(b, 1);
  assert.deepEqual(l.calls.map((c) => c.length), [100, 100, 50]);
  await l.releaseAll();
  const none = heldLookup();
  const zero = new UploadWarmer({ lookup: none.lookup, limit: 0 });
  for (const b of numbers(500)) zero.add(b, 1);
  assert.equal(none.calls.length, 0);
});

test('a list that is already cached stops it after its sample', async () => {
  const l = heldLookup(0.95);
  const w = new UploadWarmer({ lookup: l.lookup, limit: 1_000_000, perCall: 100, inFlight: 2, sample: 400 });
  for (let i = 0; i < 10; i++) {
    for (const b of numbers(100, i * 100)) w.add(b, i + 1);
    await l.releaseAll();
  }
  assert.equal(l.calls.length, 4, 'four calls make the sample of 400; then no more');
  assert.equal(w.stats.stopped, true);
  const fresh = heldLookup(0.2);
  const busy = new UploadWarmer({ lookup: fresh.lookup, limit: 1_000_000, perCall: 100, inFlight: 2, sample: 400 });
  for (let i = 0; i < 10; i++) {
    for (const b of numbers(100, i * 100)) busy.add(b, i + 1);
    await fresh.releaseAll();
  }
  assert.equal(fresh.calls.length, 10, 'a list NTS must answer keeps being asked');
  busy.stop();
});

test('a failed lookup is dropped quietly and frees its lane; stop asks nothing more', async () => {
  let calls = 0;
  const w = new UploadWarmer({ lookup: async () => { calls++; throw new Error('NTS down'); }, limit: 1_000, perCall: 10, inFlight: 1 });
  for (const b of numbers(10)) w.add(b, 1);
  await w.settled();
  for (const b of numbers(10, 100)) w.add(b, 2);
  await w.settled();
  assert.equal(calls, 2);
  w.stop();
  for (const b of numbers(10, 200)) w.add(b, 3);
  assert.equal(calls, 2);
});

test('the daily allowance: what refused uploads asked is kept for the day, what accepted ones asked is given back', () => {
  const a = new WarmAllowance();
  assert.equal(a.reserve('acc', '2026-11-27', 150), 150);
  assert.equal(a.reserve('acc', '2026-11-27', 150), 0, 'a second upload at once gets nothing more');
  a.release('acc', '2026-11-27', 150 - 100); // refused, 100 asked
  assert.equal(a.reserve('acc', '2026-11-27', 150), 50);
  a.release('acc', '2026-11-27', 50); // accepted: all of it back
  assert.equal(a.reserve('acc', '2026-11-27', 150), 50, 'the refused upload\'s 100 stay spent today');
  assert.equal(a.reserve('acc', '2026-11-28', 150), 150, 'a new day starts afresh');
  assert.equal(a.reserve('other', '2026-11-28', 80), 80, 'each account its own');
  a.release('acc', '2026-11-27', 1_000); // a release for a day gone changes nothing
  assert.equal(a.reserve('acc', '2026-11-28', 150), 0);
});
