import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withAuthCache } from './auth-cache.ts';
import { SqliteStore } from '../store/sqlite.ts';

async function setup() {
  const inner = new SqliteStore(':memory:');
  await inner.migrate();
  let now = 1_000_000;
  const cached = withAuthCache(inner, { ttlMs: 1000, now: () => now });
  await inner.accounts.create({ id: 'acc_1', email: 'a@example.com', plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: new Date().toISOString() });
  await inner.keys.insert({ id: 'key_1', accountId: 'acc_1', prefix: 'bzk_AAAAAAAA', hash: 'h1', createdAt: new Date().toISOString(), lastUsedAt: null, revokedAt: null });
  return { inner, cached, tick: (ms: number) => (now += ms) };
}

test('a key check is reused within the TTL, so a change made elsewhere applies after it', async () => {
  const { inner, cached, tick } = await setup();
  assert.equal((await cached.keys.findByHash('h1'))?.account.plan, 'business');
  await inner.accounts.setPlan('acc_1', 'pro'); // another process, bypassing this cache
  assert.equal((await cached.keys.findByHash('h1'))?.account.plan, 'business', 'still within the TTL');
  tick(1001);
  assert.equal((await cached.keys.findByHash('h1'))?.account.plan, 'pro');
  await inner.close();
});

test('revocations and plan or limit changes made through the cache apply at once', async () => {
  const { inner, cached } = await setup();
  await cached.keys.findByHash('h1');
  await cached.accounts.setQuotaLimit('acc_1', 5);
  assert.equal((await cached.keys.findByHash('h1'))?.account.quotaLimit, 5);
  await cached.accounts.setPlan('acc_1', 'enterprise');
  assert.equal((await cached.keys.findByHash('h1'))?.account.plan, 'enterprise');
  await cached.keys.revoke('acc_1', 'bzk_AAAAAAAA', new Date().toISOString());
  assert.equal(await cached.keys.findByHash('h1'), null);
  await inner.close();
});

test('an unknown key is not remembered: a key issued a moment later works at once', async () => {
  const { inner, cached } = await setup();
  assert.equal(await cached.keys.findByHash('h2'), null);
  await inner.keys.insert({ id: 'key_2', accountId: 'acc_1', prefix: 'bzk_BBBBBBBB', hash: 'h2', createdAt: new Date().toISOString(), lastUsedAt: null, revokedAt: null });
  assert.equal((await cached.keys.findByHash('h2'))?.key.id, 'key_2');
  assert.equal(cached.kind, 'sqlite', 'everything else passes through');
  await inner.close();
});
