// The server correcting addresses through the 도로명주소 검색 API (a fake speaking its wire format):
// the real client end to end, and a directory outage that degrades instead of failing lookups.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFakeJuso, type FakeJuso } from '../src/addresses/fake-juso-server.ts';
import { SANDBOX_FIXTURES, sandboxWorld } from '../src/addresses/sandbox-data.ts';
import { roadAddressOf } from '../src/domain/address/official-form.ts';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const ACTIVE = SANDBOX_FIXED.find((f) => f.status === 'active')!.bno;

describeEachStore('addresses through the juso API', (kind) => {
  let juso: FakeJuso;
  let srv: TestServer;
  let key: string;
  before(async () => {
    // the fake answers from the documented sandbox fixtures only, so every answer is known
    const fixtureAddresses = new Set(SANDBOX_FIXTURES.map((f) => roadAddressOf(f.entry)));
    juso = await startFakeJuso({ entries: sandboxWorld().entries.filter((e) => fixtureAddresses.has(e.roadAddress)), confmKey: 'juso-key' });
    srv = await startTestServer(kind, { JUSO_CONFM_KEY: 'juso-key', JUSO_BASE_URL: juso.url });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv.close();
    await juso.close();
  });

  test('a juso key makes the API the directory, and corrections come from its answers', async () => {
    assert.equal(srv.directory.source, 'juso');
    const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: ACTIVE, name: '(주)한빛', address: '서울시 강남구 테헤란로 152 5층' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.fixed_zipcode, '06236');
    assert.equal(res.body.fixed_address, '서울특별시 강남구 테헤란로 152, 5층');
    assert.ok(juso.calls > 0);
    assert.ok(juso.received.some((k) => k.includes('테헤란로')), juso.received.join(' | '));
  });

  test('when the directory fails, the lookup still answers, flags the address unchecked and advises to confirm', async () => {
    juso.setOptions({ errorRate: 1 });
    try {
      const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: ACTIVE, name: '(주)한빛', address: '서울 중구 세종대로 110' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.address.quality, 'unavailable');
      assert.equal(res.body.fixed_address, null);
      assert.equal(res.body.action, 'confirm_address');
      assert.ok(res.body.reasons.some((r: string) => r.startsWith('[address_unchecked +0.00]')));
    } finally {
      juso.setOptions({ errorRate: 0 });
    }
  });
});
