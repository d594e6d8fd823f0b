// The server against a fake NTS speaking the real wire protocol: real client, coalescing,
// failures that are never charged, stale answers during an outage.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const valid = (i: number) => {
  const nine = String(100000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

describeEachStore('NTS upstream', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let key: string;
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'test-key/with+chars=', seed: 7 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'test-key/with+chars=', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '500', NTS_CACHE_TTL_SECONDS: '3600' });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });
  const used = async () => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  test('statuses come from NTS through the real client', async () => {
    const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: fixed('closed') } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.source, 'nts');
    assert.equal(res.body.biz_status, 'closed');
    assert.equal(res.body.nts.b_stt_cd, '03');
    const unreg = await call(srv.url, 'POST', '/verify', { key, body: { b_no: fixed('unregistered') } });
    assert.equal(unreg.body.biz_status, 'unregistered');
  });

  test('concurrent lookups share upstream calls of at most 100 numbers', async () => {
    const callsBefore = nts.calls;
    const numbers = Array.from({ length: 150 }, (_, i) => valid(i + 1000));
    const results = await Promise.all(numbers.map((b_no) => call(srv.url, 'POST', '/verify', { key, body: { b_no } })));
    assert.ok(results.every((r) => r.status === 200));
    const calls = nts.calls - callsBefore;
    assert.ok(calls < 150 && calls >= 2, `${calls} upstream calls for 150 numbers`);
    assert.ok(nts.received.every((b) => b.length <= 100));
  });

  test('an upstream outage with nothing cached is 503 and charges nothing', async () => {
    nts.setOptions({ errorRate: 1 });
    try {
      const usedBefore = await used();
      const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: valid(999) } });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 'upstream_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal(await used(), usedBefore);
    } finally {
      nts.setOptions({ errorRate: 0 });
    }
  });

  test('a malformed answer is never taken for a status', async () => {
    nts.setOptions({ malformedRate: 1 });
    try {
      const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: valid(998) } });
      assert.equal(res.status, 503);
    } finally {
      nts.setOptions({ malformedRate: 0 });
    }
  });
});

describeEachStore('NTS upstream with an expired cache', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ seed: 3 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '300', NTS_CACHE_TTL_SECONDS: '0' });
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('during an outage an expired answer stands in, flagged stale and not charged', async () => {
    const { apiKey } = await srv.account('business');
    const bno = fixed('active');
    assert.equal((await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: bno } })).body.stale, false);
    nts.setOptions({ errorRate: 1 });
    const usedBefore = (await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used;
    const res = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: bno } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.stale, true);
    assert.equal(res.body.cached, true);
    assert.equal(res.body.biz_status, 'active');
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, usedBefore);
  });
});
