// Monthly quota over HTTP: GET /me, 429 with Retry-After, and exactness under concurrency,
// also across two server instances sharing one database.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setQuotaLimit } from '../src/accounts/accounts.ts';
import { startServer } from '../src/start/server.ts';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const ACTIVE = SANDBOX_FIXED.find((f) => f.status === 'active')!.bno;

describeEachStore('monthly quota', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());

  test('GET /me shows the plan, its features and the month', async () => {
    const { accountId, apiKey } = await srv.account('enterprise', 'me-test@example.com');
    const res = await call(srv.url, 'GET', '/me', { key: apiKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.account_id, accountId);
    assert.equal(res.body.email, 'me-test@example.com');
    assert.equal(res.body.plan, 'enterprise');
    assert.deepEqual(res.body.features, { api: true, batch: true, watch: true, history: true, watch_interval_hours: 1, watch_limit: 200_000 });
    assert.deepEqual({ ...res.body.quota, resets_at: undefined }, { limit: 1_000_000, used: 0, remaining: 1_000_000, overage: 0, custom_limit: false, resets_at: undefined });
    assert.match(res.body.quota.resets_at, /^\d{4}-\d{2}-01T00:00:00\+09:00$/);
    assert.match(res.body.api_key.prefix, /^bzk_[0-9A-Za-z]{8}$/);
    assert.ok(!JSON.stringify(res.body).includes(apiKey), 'the key is never echoed');
  });

  test('past the limit a lookup is 429 with Retry-After, and invalid numbers still answer for free', async () => {
    const { accountId, apiKey } = await srv.account('business');
    await setQuotaLimit(srv.store, accountId, 2);
    for (let i = 0; i < 2; i++) assert.equal((await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: ACTIVE } })).status, 200);
    const res = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: ACTIVE } });
    assert.equal(res.status, 429);
    assert.equal(res.body.code, 'quota_exceeded');
    assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 31 * 86400, `Retry-After ${retryAfter}`);
    assert.match(res.headers.get('ratelimit') ?? '', /r=0;/);
    const invalid = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: '1234567890' } });
    assert.equal(invalid.status, 200);
    assert.equal(invalid.body.biz_status, 'invalid');
    const me = await call(srv.url, 'GET', '/me', { key: apiKey });
    assert.deepEqual([me.body.quota.limit, me.body.quota.used, me.body.quota.remaining, me.body.quota.custom_limit], [2, 2, 0, true]);
  });

  test('with 1 lookup left, exactly one of 50 concurrent calls succeeds (repeated)', async () => {
    for (let round = 0; round < 3; round++) {
      const { accountId, apiKey } = await srv.account('business');
      await setQuotaLimit(srv.store, accountId, 1);
      const results = await Promise.all(
        Array.from({ length: 50 }, () => call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: ACTIVE } })),
      );
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 49);
    }
  });

  test('two server instances on one database share the counter exactly', async () => {
    const second = await startServer({ ...srv.config });
    try {
      const { accountId, apiKey } = await srv.account('business');
      await setQuotaLimit(srv.store, accountId, 5);
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => call(i % 2 ? srv.url : second.url, 'POST', '/verify', { key: apiKey, body: { b_no: ACTIVE } })),
      );
      assert.equal(results.filter((r) => r.status === 200).length, 5);
      assert.equal(results.filter((r) => r.status === 429).length, 55);
      assert.equal((await call(second.url, 'GET', '/me', { key: apiKey })).body.quota.used, 5);
    } finally {
      await second.stop();
    }
  });
});
