import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../errors.ts';
import { SqliteStore } from '../store/sqlite.ts';
import type { Account } from '../domain/account.ts';
import { Quota, rateLimitHeaders } from './quota.ts';

async function setup(limit: number) {
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const account: Account = { id: 'acc_q', email: 'q@example.com', plan: 'business', quotaLimit: limit, batchRetentionDays: null, createdAt: new Date().toISOString() };
  await store.accounts.create(account);
  let now = new Date('2026-11-30T14:59:59Z'); // one second before December starts in Seoul
  return { store, account, quota: new Quota(store, () => now), setNow: (d: Date) => (now = d) };
}

test('reserve is all or nothing and a refusal charges nothing', async () => {
  const { store, account, quota } = await setup(5);
  const r = await quota.reserve(account, 3);
  assert.deepEqual([r.state.used, r.state.remaining, r.month], [3, 2, '2026-11']);
  await assert.rejects(quota.reserve(account, 3), (e: unknown) => e instanceof AppError && e.code === 'quota_exceeded' && e.headers['retry-after'] === '1');
  assert.equal((await quota.current(account)).used, 3);
  await store.close();
});

test('concurrent single lookups share writes but never pass the limit, in arrival order', async () => {
  const { store, account, quota } = await setup(7);
  const results = await Promise.allSettled(Array.from({ length: 20 }, () => quota.reserveOne(account)));
  const granted = results.filter((r) => r.status === 'fulfilled');
  assert.equal(granted.length, 7);
  assert.ok(results.slice(0, 7).every((r) => r.status === 'fulfilled'), 'the first seven callers win');
  assert.deepEqual(granted.map((r) => r.value.state.used), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal((await quota.current(account)).used, 7);
  await store.close();
});

test('a refund goes back to the month it was charged to, even after the month turned', async () => {
  const { store, account, quota, setNow } = await setup(5);
  const r = await quota.reserveOne(account);
  setNow(new Date('2026-11-30T15:00:01Z'));
  await quota.refund(r);
  assert.deepEqual(await store.usage.get(account.id, '2026-11'), { used: 0, overage: 0 });
  assert.equal((await quota.current(account)).used, 0);
  await store.close();
});

test('RateLimit fields state the monthly policy and what is left', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  const h = rateLimitHeaders({ limit: 50_000, used: 13, remaining: 49_987, overage: 0, resetsAt: new Date('2026-11-30T15:00:00Z') }, now);
  assert.equal(h['ratelimit-policy'], '"monthly";q=50000;w=2592000');
  assert.equal(h.ratelimit, `"monthly";r=49987;t=${(Date.parse('2026-11-30T15:00:00Z') - now.getTime()) / 1000}`);
});
