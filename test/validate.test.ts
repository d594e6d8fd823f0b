// POST /validate (진위확인) end to end: on the sandbox, and through the real client against the
// fake NTS's validate endpoint, on each store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { SANDBOX_FIXED, sandboxOwner } from '../src/registry/sandbox.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const REASON = /^\[[a-z_]+ [+-]\d+\.\d{2}\] .+ \((nts|input)\)$/;

describeEachStore('POST /validate on the sandbox', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind);
    key = (await srv.account('business')).apiKey;
  });
  after(async () => srv.close());
  const validate = (body: unknown, headers?: Record<string, string>) => call(srv.url, 'POST', '/validate', { key, body, headers });
  const used = async () => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  test('the registered opening date and representative are confirmed, with the status; one lookup', async () => {
    const usedBefore = await used();
    const res = await validate({ b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.valid, true);
    assert.equal(res.body.valid_code, '01');
    assert.equal(res.body.valid_msg, null);
    assert.equal(res.body.biz_status, 'active');
    assert.equal(res.body.nts.b_stt_cd, '01');
    assert.equal(res.body.source, 'sandbox');
    for (const r of res.body.reasons) assert.match(r, REASON);
    assert.ok(res.headers.get('ratelimit'));
    assert.equal(await used(), usedBefore + 1);
  });

  test('a closed business is confirmed as closed; a dashed date is accepted; spaces in the name do not matter', async () => {
    const bno = fixed('closed');
    const owner = sandboxOwner(bno);
    const dashed = `${owner.start_dt.slice(0, 4)}-${owner.start_dt.slice(4, 6)}-${owner.start_dt.slice(6)}`;
    const res = await validate({ b_no: bno, start_dt: dashed, p_nm: ` ${owner.p_nm.split('').join(' ')} `, b_nm: '아무 상호' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.valid, true);
    assert.equal(res.body.biz_status, 'closed');
    assert.match(res.body.closed_on, /^\d{4}-\d{2}-\d{2}$/);
  });

  test('other details are answered 02 with NTS\'s text, no status, and still charged', async () => {
    const usedBefore = await used();
    const res = await validate({ b_no: '1248100998', start_dt: '19960215', p_nm: '홍길동' }, { 'accept-language': 'en' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      { valid: res.body.valid, code: res.body.valid_code, msg: res.body.valid_msg, status: res.body.biz_status, nts: res.body.nts },
      { valid: false, code: '02', msg: '확인할 수 없습니다.', status: null, nts: null },
    );
    assert.match(res.body.reasons[0], /^\[not_confirmed \+0\.00\] NTS authenticity check/);
    assert.equal(await used(), usedBefore + 1);
    const unregistered = await validate({ b_no: fixed('unregistered'), start_dt: '20000101', p_nm: '홍길동' });
    assert.equal(unregistered.body.valid_code, '02');
  });

  test('a number failing the check digit is not asked and not charged', async () => {
    const usedBefore = await used();
    const res = await validate({ b_no: '1248100999', start_dt: '19960214', p_nm: '홍길동' });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.valid, res.body.valid_code, res.body.biz_status], [false, null, 'invalid']);
    assert.equal(await used(), usedBefore);
  });

  test('a missing start_dt or p_nm, a bad date or a bad corp_no is 400 problem+json, not charged', async () => {
    const usedBefore = await used();
    for (const body of [
      { b_no: '1248100998', p_nm: '홍길동' },
      { b_no: '1248100998', start_dt: '19960214' },
      { b_no: '1248100998', start_dt: '19960214', p_nm: '   ' },
      { b_no: '1248100998', start_dt: '19960230', p_nm: '홍길동' },
      { b_no: '1248100998', start_dt: '1996021', p_nm: '홍길동' },
      { b_no: '1248100998', start_dt: 'yesterday!', p_nm: '홍길동' },
      { b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동', corp_no: '12345' },
      { b_no: '124-81-00998', start_dt: '19960214', p_nm: '홍길동' },
      { b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동', extra: 1 },
      { b_no: '1248100998', start_dt: '19960214', p_nm: '홍\u0000길동' },
    ]) {
      const res = await validate(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.ok(res.body.code && res.body.detail, JSON.stringify(res.body));
    }
    assert.equal(await used(), usedBefore);
  });

  test('without a key it is 401; it is in the OpenAPI document', async () => {
    const res = await call(srv.url, 'POST', '/validate', { body: { b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동' } });
    assert.equal(res.status, 401);
    const doc = (await call(srv.url, 'GET', '/openapi.json')).body;
    assert.ok(doc.paths['/validate']?.post, 'documented');
  });
});

describeEachStore('POST /validate against NTS', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let key: string;
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k', seed: 3 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '500' });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });
  const used = async () => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  test('the question goes to the validate endpoint with every field, and the nested status comes back', async () => {
    const bno = fixed('suspended');
    const owner = sandboxOwner(bno);
    const res = await call(srv.url, 'POST', '/validate', { key, body: { b_no: bno, start_dt: owner.start_dt, p_nm: owner.p_nm, b_nm: '한빛상회', corp_no: '110111-1234567' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.valid, true);
    assert.equal(res.body.biz_status, 'suspended');
    assert.equal(res.body.source, 'nts');
    const sent = nts.validated.at(-1)![0]!;
    assert.deepEqual(sent, { b_no: bno, start_dt: owner.start_dt, p_nm: owner.p_nm, p_nm2: '', b_nm: '한빛상회', corp_no: '1101111234567', b_sector: '', b_type: '', b_adr: '' });
    // the confirmation's status is as fresh as a status call: a lookup now needs no call
    const calls = nts.calls;
    const v = await call(srv.url, 'POST', '/verify', { key, body: { b_no: bno } });
    assert.equal(v.body.biz_status, 'suspended');
    assert.equal(v.body.cached, true);
    assert.equal(nts.calls, calls);
  });

  test('concurrent questions share calls of at most 100 businesses', async () => {
    const calls = nts.calls;
    const asks = Array.from({ length: 120 }, (_, i) => ({ b_no: '1248100998', start_dt: '19960214', p_nm: `대표${i}` }));
    const results = await Promise.all(asks.map((body) => call(srv.url, 'POST', '/validate', { key, body })));
    assert.ok(results.every((r) => r.status === 200 && r.body.valid_code === '02'));
    assert.ok(nts.calls - calls < 120 && nts.validated.every((b) => b.length <= 100), `${nts.calls - calls} calls`);
  });

  test('an outage is 503 with Retry-After and charges nothing', async () => {
    nts.setOptions({ errorRate: 1 });
    try {
      const usedBefore = await used();
      const res = await call(srv.url, 'POST', '/validate', { key, body: { b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동' } });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 'upstream_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal(await used(), usedBefore);
    } finally {
      nts.setOptions({ errorRate: 0 });
    }
  });
});
