// Hostile bytes at the edge, on both stores: NUL and other control characters in every kind of
// input, ids that cannot exist, numbers out of range. Each answers a 4xx problem (never a 500),
// charges nothing, and leaves nothing behind; in uploaded files such characters are cleaned.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SANDBOX_FIXED } from '../../src/registry/sandbox.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { ConsoleClient, PASSWORD } from '../helpers/console.ts';
import { call, startTestServer, type Call, type TestServer } from '../helpers/server.ts';
import { describeEachStore } from '../helpers/stores.ts';

const active = SANDBOX_FIXED.find((f) => f.status === 'active')!.bno;

function problem(res: Call, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
}

describeEachStore('hostile bytes at the edge', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind, { BATCH_CHUNK_ROWS: '10' });
    ({ apiKey: key } = await srv.account('business'));
  });
  after(async () => srv.close());
  const used = async () => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  test('control characters and unpaired surrogates in JSON values and keys are 400, and nothing is charged or stored', async () => {
    const usedBefore = await used();
    const bodies: [string, string, unknown][] = [
      ['/verify', 'address', { b_no: active, name: '한빛', address: '서울\u0000강남구' }],
      ['/verify', 'name', { b_no: active, name: '한빛\u001b[31m' }],
      ['/verify', 'name', { b_no: active, name: '한빛\ud800' }],
      ['/verify', 'key', JSON.parse(`{"b_no":"${active}","x\\u0000":1}`)],
      ['/watch', 'name', { biz_no: active, name: '한빛\u0000상사' }],
      ['/watch', 'address', { biz_no: active, address: '서울\u007f' }],
      ['/webhook', 'url', { url: 'https://example.com/\u0000' }],
      ['/batch/job_none/labels', 'reason', [{ row_id: 1, reason: '이사\u0000불명' }]],
      ['/batch/job_none/labels', 'b_no', { labels: [{ b_no: `${active}\u0000`, bounced: true }] }],
    ];
    for (const [path, what, body] of bodies) problem(await call(srv.url, path === '/webhook' ? 'PUT' : 'POST', path, { key, body }), 400, `${path} ${what}`);
    assert.equal(await used(), usedBefore, 'nothing charged');
    assert.equal((await call(srv.url, 'GET', '/watch', { key })).body.items?.length ?? 0, 0, 'no watch created');
  });

  test('a path parameter that cannot be an id is 404; a cursor or header with control characters is 400', async () => {
    for (const path of ['/batch/%00', '/batch/%00/results', '/watch/%00', '/watch/%00/history', '/webhook/deliveries/%00', '/batch/abc%01def']) {
      problem(await call(srv.url, 'GET', path, { key }), 404, path);
    }
    problem(await call(srv.url, 'DELETE', '/watch/%00', { key }), 404, 'DELETE /watch/%00');
    problem(await call(srv.url, 'POST', '/batch/%00/label', { key, body: { row_id: 1, bounced: true } }), 404, 'label of %00');
    problem(await call(srv.url, 'GET', '/watch?cursor=%00', { key }), 400, 'cursor');
    problem(await call(srv.url, 'GET', '/batch?cursor=a%00b', { key }), 400, 'batch cursor');
    const res = await upload(srv.url, key, { name: 'a.csv', body: `b_no\n${active}\n` }, '', { 'idempotency-key': 'key\twith tab' });
    problem(res, 400, 'Idempotency-Key');
  });

  test('files: control characters in cells and the file name are cleaned; a NUL in an address does not fail the job', async () => {
    const usedBefore = await used();
    // JSON carries NUL as an escape (a CSV with raw NUL bytes is refused as binary)
    const lines: string[] = [];
    for (let i = 0; i < 25; i++) lines.push(JSON.stringify({ 사업자등록번호: active, 상호: `한빛\u0000상사${i}`, 주소: `서울\u0000 강남구\r\n테헤란로 ${i}\u0007\ud800` }));
    const res = await upload(srv.url, key, { name: 'list\u0000.ndjson', body: `${lines.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitForJob(srv.url, key, res.body.job_id, 60_000, '?preview=25');
    assert.equal(done.body.status, 'done', JSON.stringify(done.body).slice(0, 500));
    assert.equal(done.body.processed, 25);
    for (const row of done.body.preview) assert.doesNotMatch(JSON.stringify(row), /\\u000|\\u0007|\\r|\\n/, 'no control character is stored');
    assert.equal(done.body.preview[0].input['주소'], '서울 강남구  테헤란로 0\ufffd');
    assert.equal(await used(), usedBefore + 1, 'one distinct number, charged once');
    const job = await srv.store.batches.jobById(res.body.job_id);
    assert.equal(job?.filename, 'list.ndjson');
  });

  test('a file part with an empty file name is read like any other, and an empty file is a 400', async () => {
    // FormData sends filename="" for an empty name; the multipart parser then gives no name at all
    const named = await upload(srv.url, key, { name: '', body: `b_no\n${active}\n` });
    assert.equal(named.status, 202, JSON.stringify(named.body));
    assert.equal((await srv.store.batches.jobById(named.body.job_id))?.filename, null);
    problem(await upload(srv.url, key, { name: '', body: '' }), 400, 'empty file with no name');
  });

  test('numbers out of range are 400, not a database error', async () => {
    const res = await upload(srv.url, key, { name: 'one.csv', body: `b_no\n${active}\n` });
    await waitForJob(srv.url, key, res.body.job_id);
    for (const rowId of [1e300, 2 ** 31, 2 ** 53]) {
      problem(await call(srv.url, 'POST', `/batch/${res.body.job_id}/label`, { key, body: `{"row_id":${rowId},"bounced":true}` }), 400, `row_id ${rowId}`);
    }
  });

  test('every documented route answers a NUL in its path and body with a 4xx, never a 5xx', async () => {
    const doc = (await call(srv.url, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    let tried = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const url = path.replace(/\{[^}]+\}/g, '%00');
        const body = ['post', 'put', 'patch'].includes(method) ? { 'k\u0000': 'v\u0000' } : undefined;
        const res = await call(srv.url, method.toUpperCase(), `${url}?q=%00`, { key, body });
        assert.ok(res.status >= 400 && res.status < 500, `${method.toUpperCase()} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        tried++;
      }
    }
    assert.ok(tried >= 12, `${tried} routes tried`);
  });

  test('console: a sign-up email with a NUL is refused, and cannot shadow an existing account', async () => {
    const owner = new ConsoleClient(srv.url);
    assert.equal((await owner.signUp(`victim-${kind}@x.com`)).status, 200);
    const attacker = new ConsoleClient(srv.url);
    problem(await attacker.request('POST', '/signup', { body: { email: `victim-${kind}@x.com\u0000evil`, password: PASSWORD } }), 400, 'sign-up with NUL');
    problem(await attacker.request('POST', '/session', { body: { email: `victim-${kind}@x.com\u0000`, password: PASSWORD } }), 400, 'sign-in with NUL');
  });
});

describeEachStore('the API docs page', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());

  test('/docs carries the pages\' security headers: a CSP that forbids framing and foreign scripts, nosniff, no referrer', async () => {
    for (const path of ['/docs', '/docs/', '/docs/static/index.html', '/docs/swagger-initializer.js']) {
      const res = await fetch(`${srv.url}${path}`, { redirect: 'manual' });
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(res.headers.get('referrer-policy'), 'same-origin', path);
      await res.arrayBuffer();
    }
  });
});
