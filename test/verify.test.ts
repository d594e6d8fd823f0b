// POST /verify end to end over HTTP, on each store, against the sandbox registry.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const REASON = /^\[[a-z_]+ [+-]\d+\.\d{2}\] .+ \((nts|address|labels|model|input)\)$/;

describeEachStore('POST /verify', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind);
    key = (await srv.account('business')).apiKey;
  });
  after(async () => srv.close());

  const verify = (body: unknown, opts: { key?: string; headers?: Record<string, string> } = {}) =>
    call(srv.url, 'POST', '/verify', { key: opts.key ?? key, body, headers: opts.headers });
  const used = async (k = key) => (await call(srv.url, 'GET', '/me', { key: k })).body.quota.used as number;

  test('each sandbox status comes back with its NTS detail, and is charged one lookup', async () => {
    for (const status of ['active', 'suspended', 'closed', 'unregistered']) {
      const usedBefore = await used();
      const res = await verify({ b_no: fixed(status) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.biz_status, status);
      assert.equal(res.body.source, 'sandbox');
      assert.ok(res.body.checked_at);
      assert.ok(res.body.nts, 'NTS detail present');
      for (const k of ['bounce_prob', 'grade', 'action', 'fixed_zipcode', 'fixed_address']) assert.equal(res.body[k], null, k);
      assert.ok(Array.isArray(res.body.reasons) && res.body.reasons.length > 0);
      for (const r of res.body.reasons) assert.match(r, REASON);
      assert.equal(await used(), usedBefore + 1, `${status} charged once`);
    }
  });

  test('a closed business says when it closed', async () => {
    const res = await verify({ b_no: fixed('closed') });
    assert.equal(res.body.nts.b_stt, '폐업자');
    assert.match(res.body.closed_on, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(res.body.reasons[0], /폐업/);
  });

  test('a branch number closed on conversion to unit VAT filing is converted, not closed, and not do_not_send', async () => {
    const bno = SANDBOX_FIXED.find((f) => f.utcc)!.bno;
    const res = await verify({ b_no: bno, name: '(주)한빛상사 부산지점', address: '부산광역시 해운대구 센텀중앙로 79' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.biz_status, 'converted');
    assert.equal(res.body.closed_on, null);
    assert.equal(res.body.nts.utcc_yn, 'Y');
    assert.equal(res.body.nts.b_stt_cd, '03');
    assert.equal(res.body.nts.end_dt, '20250701');
    assert.notEqual(res.body.action, 'do_not_send');
    assert.ok(res.body.reasons.some((r: string) => r.startsWith('[converted ')), res.body.reasons.join('\n'));
    assert.ok(!res.body.reasons.some((r: string) => r.startsWith('[closed')), res.body.reasons.join('\n'));
  });

  test('nts is the record as NTS sent it, with every field', async () => {
    const res = await verify({ b_no: fixed('closed') });
    assert.deepEqual(Object.keys(res.body.nts).toSorted(), [
      'b_no', 'b_stt', 'b_stt_cd', 'end_dt', 'invoice_apply_dt', 'rbf_tax_type', 'rbf_tax_type_cd', 'tax_type', 'tax_type_cd',
      'tax_type_change_dt', 'utcc_yn',
    ]);
    assert.match(res.body.nts.end_dt, /^\d{8}$/);
    assert.equal(res.body.nts.rbf_tax_type_cd, '99');
  });

  test('the second lookup of a number is answered from the cache and still charged', async () => {
    const bno = fixed('active');
    await verify({ b_no: bno });
    const usedBefore = await used();
    const res = await verify({ b_no: bno });
    assert.equal(res.body.cached, true);
    assert.equal(res.body.stale, false);
    assert.equal(await used(), usedBefore + 1);
  });

  test('an invalid check digit is answered as invalid, never charged', async () => {
    const usedBefore = await used();
    for (const bno of ['1234567890', '0000000000', '1248100999']) {
      const res = await verify({ b_no: bno });
      assert.equal(res.status, 200);
      assert.equal(res.body.biz_status, 'invalid');
      assert.equal(res.body.nts, null);
      assert.match(res.body.reasons[0], /\(input\)$/);
    }
    assert.equal(await used(), usedBefore);
  });

  test('Accept-Language: en gives English reasons', async () => {
    const res = await verify({ b_no: fixed('closed') }, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    assert.match(res.body.reasons[0], /NTS status: closed/);
  });

  test('remaining quota is in the RateLimit headers', async () => {
    const res = await verify({ b_no: fixed('active') });
    assert.match(res.headers.get('ratelimit-policy') ?? '', /^"monthly";q=50000;w=\d+$/);
    const m = /^"monthly";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
    assert.ok(m, res.headers.get('ratelimit') ?? 'no header');
    assert.equal(Number(m[1]), 50000 - (await used()));
  });

  test('bad bodies are 400 problem+json naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ b_no: '124-81-00998' }, /b_no: must be exactly 10 digits/],
      [{ b_no: '124810099' }, /b_no/],
      [{ b_no: 1248100998 }, /b_no/],
      [{ b_no: ' 1248100998' }, /b_no/],
      [{}, /b_no/],
      [{ b_no: '1248100998', adress: 'x' }, /adress/],
      [{ b_no: '1248100998', name: 42 }, /name/],
      [[], /body/],
      ['{"b_no": "1248100998"', /JSON/i],
      ['', /body/i],
    ];
    const usedBefore = await used();
    for (const [body, detail] of cases) {
      const res = await verify(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.status}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.status, 400);
      assert.equal(typeof res.body.code, 'string');
      assert.match(res.body.detail, detail, JSON.stringify(res.body));
    }
    assert.equal(await used(), usedBefore, 'nothing charged for bad requests');
  });

  test('a body that is not JSON is 415, an oversized one 413', async () => {
    const text = await call(srv.url, 'POST', '/verify', { key, body: 'b_no=1248100998', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(text.status, 415);
    assert.equal(text.body.code, 'unsupported_media_type');
    // text/plain too, even holding JSON: on every JSON route
    for (const [method, path] of [['POST', '/verify'], ['POST', '/validate'], ['POST', '/watch'], ['PUT', '/webhook']] as const) {
      const plain = await call(srv.url, method, path, { key, body: '{"b_no":"1248100998"}', headers: { 'content-type': 'text/plain' } });
      assert.equal(plain.status, 415, `${method} ${path}: ${JSON.stringify(plain.body)}`);
      assert.match(plain.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
    const big = await verify({ b_no: '1248100998', name: 'x'.repeat(srv.config.bodyLimitBytes) });
    assert.equal(big.status, 413);
    assert.equal(big.body.code, 'payload_too_large');
  });

  test('every response carries a request id, and a sane one from the caller is kept', async () => {
    const res = await verify({ b_no: fixed('active') }, { headers: { 'x-request-id': 'client-abc-123' } });
    assert.equal(res.headers.get('x-request-id'), 'client-abc-123');
    const bad = await verify({ b_no: 'x' }, { headers: { 'x-request-id': 'no spaces allowed here' } });
    assert.match(bad.headers.get('x-request-id') ?? '', /^req_/);
    assert.equal(bad.body.request_id, bad.headers.get('x-request-id'));
  });
});
