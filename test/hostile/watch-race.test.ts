// The watch-list limit under concurrency: the count and the insert are one atomic step, so 60
// adds at once onto a list 10 short of its limit register exactly 10, on both stores (PostgreSQL
// through a pool of several connections, where the race is real).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigitOf } from '../../src/domain/bizno.ts';
import type { Watch } from '../../src/domain/watch-entities.ts';
import { describeEachStore, useFreshStore } from '../helpers/stores.ts';

const at = '2026-11-24T00:00:00.000Z';
function entry(accountId: string, i: number): Watch {
  const nine = String(300_000_000 + i);
  return { id: `wch_race${i}`, accountId, bno: nine + checkDigitOf(nine), name: null, address: null, state: null, lastCheckedAt: null, nextCheckAt: at, failures: 0, createdAt: at };
}

describeEachStore('the watch limit under concurrent adds', (kind) => {
  const held = useFreshStore(kind);

  test('60 adds at once onto a list 10 short of its limit: exactly 10 are registered', async () => {
    const { store } = held;
    const accountId = `acc_race_${kind}`;
    await store.accounts.create({ id: accountId, email: `race-${kind}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: at });
    const limit = 50;
    for (let i = 0; i < limit - 10; i++) assert.ok(await store.watches.create(entry(accountId, i), false, limit));
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => store.watches.create(entry(accountId, 1000 + i), false, limit)));
    assert.equal(outcomes.filter((o) => o?.created).length, 10);
    assert.equal(outcomes.filter((o) => o === null).length, 50);
    assert.equal(await store.watches.count(accountId), limit);
    // a number already on the list is returned even when the list is full
    const again = await store.watches.create(entry(accountId, 0), false, limit);
    assert.equal(again?.created, false);
  });

  test('bulk adds at once, and removals meanwhile, keep the counter exact and the limit held', async () => {
    const { store } = held;
    const accountId = `acc_bulk_race_${kind}`;
    await store.accounts.create({ id: accountId, email: `bulk-race-${kind}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: at });
    const limit = 100;
    await store.watches.createMany(accountId, Array.from({ length: limit - 10 }, (_, i) => entry(accountId, 2000 + i)), false, limit);
    const batches = Array.from({ length: 6 }, (_b, b) => Array.from({ length: 10 }, (_, i) => entry(accountId, 3000 + b * 10 + i)));
    const outcomes = (await Promise.all(batches.map((ws) => store.watches.createMany(accountId, ws, false, limit)))).flat();
    assert.equal(outcomes.filter((o) => o?.created).length, 10);
    assert.equal(outcomes.filter((o) => o === null).length, 50);
    assert.equal(await store.watches.count(accountId), limit);
    const first = await store.watches.list(accountId, { after: null, limit: 5 });
    for (const w of first) assert.ok(await store.watches.remove(accountId, w.id));
    assert.equal(await store.watches.count(accountId), limit - 5);
    const refill = await store.watches.createMany(accountId, Array.from({ length: 8 }, (_, i) => entry(accountId, 4000 + i)), false, limit);
    assert.equal(refill.filter((o) => o?.created).length, 5);
    assert.equal(await store.watches.count(accountId), limit);
  });
});
