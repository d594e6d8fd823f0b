// Bulk verification over HTTP, with files made the way Korean offices make them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { setQuotaLimit } from '../src/accounts/accounts.ts';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { checkDigitOf, formatWithHyphens } from '../src/domain/bizno.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { cp949, upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const valid = (i: number) => {
  const nine = String(200000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

describeEachStore('POST /batch and GET /batch/{job_id}', (kind) => {
  let srv: TestServer;
  let key: string;
  let accountId: string;
  before(async () => {
    srv = await startTestServer(kind, { BATCH_CHUNK_ROWS: '50', BATCH_MAX_ROWS: '5000', BATCH_MAX_FILE_BYTES: '2000000' });
    ({ apiKey: key, accountId } = await srv.account('business'));
  });
  after(async () => srv.close());
  const used = async (k = key) => (await call(srv.url, 'GET', '/me', { key: k })).body.quota;

  test('a CP949 CSV with Korean headers and hyphenated numbers is verified row by row', async () => {
    const lines = ['사업자등록번호,상호,주소', `${formatWithHyphens(fixed('active'))},(주)한빛,서울 강남구 테헤란로 152`, `${formatWithHyphens(fixed('closed'))},한빛상사(폐업),서울 중구 세종대로 110`, `${fixed('active')},한빛,"서울 강남구 테헤란로 152, 3층"`, '123-45-67890,틀린번호,', `'${fixed('suspended')},휴업상회,`];
    const usedBefore = await used();
    const res = await upload(srv.url, key, { name: '거래처목록.csv', body: cp949(lines.join('\r\n')), type: 'text/csv' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.total, 5);
    assert.equal(res.body.distinct_numbers, 3, 'the repeated number counts once; the invalid one not at all');
    assert.equal(res.body.file.number_column, '사업자등록번호');
    assert.equal(res.headers.get('location'), `/batch/${res.body.job_id}`);
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    assert.equal(done.body.processed, 5);
    assert.equal(done.body.progress, 1);
    assert.deepEqual(done.body.counts.biz_status, { active: 2, closed: 1, invalid: 1, suspended: 1 });
    assert.equal(Object.values(done.body.counts.grade as Record<string, number>).reduce((a, b) => a + b, 0), 5);
    assert.deepEqual(done.body.preview.map((r: { row_id: number }) => r.row_id), [1, 2, 3, 4, 5]);
    const [first, second, third] = done.body.preview;
    assert.equal(first.input.상호, '(주)한빛');
    assert.equal(first.result.fixed_zipcode, '06236');
    assert.equal(second.result.action, 'do_not_send');
    assert.equal(third.result.fixed_address, '서울특별시 강남구 테헤란로 152, 3층');
    assert.equal((await used()).used, usedBefore.used + 3, 'charged once per distinct valid number');
  });

  test('XLSX (numbers stored as numbers, a chosen sheet), JSON and NDJSON are read too', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['이 시트는 설명입니다']);
    const ws = wb.addWorksheet('거래처');
    ws.addRow(['사업자번호', '업체명', '사업장주소']);
    ws.addRow([Number(fixed('active')), '한빛', '서울특별시 중구 세종대로 110']);
    ws.addRow([`'${fixed('closed')}`, '두리', '']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const x = await upload(srv.url, key, { name: 'list.xlsx', body: xlsx }, '?sheet=거래처');
    assert.equal(x.status, 202, JSON.stringify(x.body));
    const xd = await waitForJob(srv.url, key, x.body.job_id);
    assert.deepEqual(xd.body.counts.biz_status, { active: 1, closed: 1 });

    const json = await upload(srv.url, key, { name: 'list.json', body: JSON.stringify([{ b_no: fixed('active'), name: 'A' }, { b_no: fixed('unregistered'), name: 'B' }]), type: 'application/json' });
    assert.equal(json.status, 202, JSON.stringify(json.body));
    assert.deepEqual((await waitForJob(srv.url, key, json.body.job_id)).body.counts.biz_status, { active: 1, unregistered: 1 });
    const nd = await upload(srv.url, key, { name: 'list.ndjson', body: `{"biz_no":"${fixed('active')}"}\n{"biz_no":"${fixed('closed')}"}\n` });
    assert.equal(nd.status, 202, JSON.stringify(nd.body));
    assert.equal((await waitForJob(srv.url, key, nd.body.job_id)).body.processed, 2);
  });

  test('a file bigger than the remaining quota is refused with 429 before anything is charged; paid=true runs it as overage', async () => {
    const { apiKey, accountId: acc } = await srv.account('business');
    await setQuotaLimit(srv.store, acc, 3);
    const csv = ['b_no', ...Array.from({ length: 5 }, (_, i) => valid(i))].join('\n');
    const refused = await upload(srv.url, apiKey, { name: 'five.csv', body: csv });
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.needed, 5);
    assert.equal(refused.body.remaining, 3);
    assert.equal((await used(apiKey)).used, 0);
    assert.equal((await srv.store.batches.listJobs(acc, 10)).length, 0, 'no job left behind');
    const paid = await upload(srv.url, apiKey, { name: 'five.csv', body: csv }, '?paid=true');
    assert.equal(paid.status, 202, JSON.stringify(paid.body));
    assert.deepEqual([paid.body.charged, paid.body.overage], [3, 2]);
    await waitForJob(srv.url, apiKey, paid.body.job_id);
    const q = await used(apiKey);
    assert.deepEqual([q.used, q.remaining, q.overage], [3, 0, 2]);
  });

  test('offline=true makes no upstream call and charges nothing: known numbers answer with their age, others are unknown', async () => {
    const { apiKey } = await srv.account('business');
    await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: fixed('closed') } });
    const usedBefore = (await used(apiKey)).used;
    const res = await upload(srv.url, apiKey, { name: 'o.csv', body: `b_no\n${fixed('closed')}\n${valid(777)}\n` }, '?offline=true');
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.charged, 0);
    const done = await waitForJob(srv.url, apiKey, res.body.job_id);
    assert.deepEqual(done.body.counts.biz_status, { closed: 1, unknown: 1 });
    assert.ok(done.body.preview[0].result.checked_at, 'the age of a stored answer is stated');
    assert.equal((await used(apiKey)).used, usedBefore);
  });

  test('bad uploads get clear errors and leave no job behind', async () => {
    const { apiKey, accountId: acc } = await srv.account('business');
    const cases: [Parameters<typeof upload>, number, RegExp][] = [
      [[srv.url, apiKey, { name: 'x.csv', body: '상호,주소\n한빛,서울\n' }], 400, /사업자등록번호|number/],
      [[srv.url, apiKey, { name: 'x.csv', body: '' }], 400, /./],
      [[srv.url, apiKey, { name: 'x.csv', body: '사업자등록번호\n' }], 400, /./],
      [[srv.url, apiKey, { name: 'x.json', body: '{"not": "an array"' }], 400, /./],
      [[srv.url, apiKey, { name: 'x.bin', body: Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 9]) }], 400, /./],
      [[srv.url, apiKey, { name: 'x.csv', body: `b_no\n${fixed('active')}\n` }, '?offline=yes'], 400, /offline/],
      [[srv.url, apiKey, { name: 'x.csv', body: `b_no\n${fixed('active')}\n` }, '', {}, 'upload'], 400, /"file"/],
      [[srv.url, apiKey, { name: 'big.csv', body: `b_no,name\n${`${fixed('active')},${'가'.repeat(200)}\n`.repeat(4000)}` }], 413, /limit/],
      [[srv.url, apiKey, { name: 'rows.csv', body: `b_no\n${`${fixed('active')}\n`.repeat(5001)}` }], 413, /./],
    ];
    for (const [args, status, detail] of cases) {
      const res = await upload(...args);
      assert.equal(res.status, status, `${args[2].name} ${args[3] ?? ''}: ${JSON.stringify(res.body)}`);
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
      assert.match(res.body.detail, detail);
    }
    const notMultipart = await call(srv.url, 'POST', '/batch', { key: apiKey, body: { b_no: fixed('active') } });
    assert.equal(notMultipart.status, 415);
    assert.equal((await srv.store.batches.listJobs(acc, 10)).length, 0);
    assert.equal((await used(apiKey)).used, 0);
  });

  test('preview bounds, unknown jobs and jobs of other accounts', async () => {
    const res = await upload(srv.url, key, { name: 'p.csv', body: `b_no\n${Array.from({ length: 30 }, (_, i) => valid(i + 100)).join('\n')}\n` });
    await waitForJob(srv.url, key, res.body.job_id);
    assert.equal((await call(srv.url, 'GET', `/batch/${res.body.job_id}`, { key })).body.preview.length, 10);
    assert.equal((await call(srv.url, 'GET', `/batch/${res.body.job_id}?preview=25`, { key })).body.preview.length, 25);
    assert.equal((await call(srv.url, 'GET', `/batch/${res.body.job_id}?preview=0`, { key })).body.preview.length, 0);
    for (const q of ['?preview=1001', '?preview=-1', '?preview=abc']) assert.equal((await call(srv.url, 'GET', `/batch/${res.body.job_id}${q}`, { key })).status, 400, q);
    assert.equal((await call(srv.url, 'GET', '/batch/job_nope', { key })).status, 404);
    const other = await srv.account('business');
    for (const [method, path, body] of [
      ['GET', `/batch/${res.body.job_id}`],
      ['GET', `/batch/${res.body.job_id}/results?format=json`],
      ['POST', `/batch/${res.body.job_id}/label`, { row_id: 1, bounced: true }],
    ] as const) {
      const r = await call(srv.url, method, path, { key: other.apiKey, body });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.code, 'not_found');
    }
  });

  test('results download as CSV, XLSX and JSON, with formula cells neutralised', async () => {
    const csv = `사업자등록번호,상호,메모\n${fixed('active')},=HYPERLINK("http://x"),+1\n${fixed('closed')},@SUM(A1),-2+3\n`;
    const res = await upload(srv.url, key, { name: 'f.csv', body: csv });
    await waitForJob(srv.url, key, res.body.job_id);
    const c = await fetch(`${srv.url}/batch/${res.body.job_id}/results?format=csv`, { headers: { 'x-api-key': key } });
    assert.equal(c.status, 200);
    assert.match(c.headers.get('content-disposition') ?? '', /attachment/);
    const bytes = Buffer.from(await c.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM for Excel');
    const text = bytes.toString('utf8');
    assert.match(text, /biz_status/);
    assert.ok(!/(^|,)"?[=+@-]/m.test(text.split('\n').slice(1).join('\n').replace(/,-?\d+(\.\d+)?(?=,|\r?$)/gm, ',')), text);
    const x = await fetch(`${srv.url}/batch/${res.body.job_id}/results?format=xlsx`, { headers: { 'x-api-key': key } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await x.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    assert.equal(sheet.rowCount, 3);
    sheet.eachRow((row) => row.eachCell((cell) => assert.notEqual(cell.type, ExcelJS.ValueType.Formula)));
    const j = await call(srv.url, 'GET', `/batch/${res.body.job_id}/results?format=json`, { key });
    assert.equal(j.body.length, 2);
    assert.equal(j.body[1].biz_status, 'closed');
    assert.equal((await call(srv.url, 'GET', `/batch/${res.body.job_id}/results?format=pdf`, { key })).status, 400);
  });

  test('labels: recorded, replaced on relabel, checked against the job', async () => {
    const res = await upload(srv.url, key, { name: 'l.csv', body: `b_no,name\n${fixed('active')},한빛\n${fixed('closed')},두리\n` });
    const job = res.body.job_id;
    await waitForJob(srv.url, key, job);
    const label = (body: unknown) => call(srv.url, 'POST', `/batch/${job}/label`, { key, body });
    const first = await label({ row_id: 2, bounced: true, reason: '폐문부재' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.row_id, first.body.bounced, first.body.reason, first.body.replaced], [2, true, '폐문부재', false]);
    assert.match(first.body.model_version, /^(prior|global)-/);
    const again = await label({ row_id: 2, bounced: false });
    assert.equal(again.body.replaced, true);
    assert.equal((await srv.store.labels.counts(accountId, fixed('closed'), null)).bizDelivered, 1);
    assert.equal((await label({ row_id: 3, bounced: true })).status, 404);
    for (const bad of [{ bounced: true }, { row_id: 1 }, { row_id: '1', bounced: true }, { row_id: 1, bounced: 'yes' }, { row_id: 0, bounced: true }, { row_id: 1, bounced: true, reason: 'x'.repeat(501) }, { row_id: 1, bounced: true, extra: 1 }]) {
      assert.equal((await label(bad)).status, 400, JSON.stringify(bad));
    }
  });

  test('an Idempotency-Key returns the same job for the same file and refuses a different one', async () => {
    const body = `b_no\n${valid(4242)}\n`;
    const a = await upload(srv.url, key, { name: 'i.csv', body }, '', { 'idempotency-key': 'order-2026-11-21' });
    const b = await upload(srv.url, key, { name: 'i.csv', body }, '', { 'idempotency-key': 'order-2026-11-21' });
    assert.equal(a.status, 202);
    assert.equal(b.status, 202);
    assert.equal(b.body.job_id, a.body.job_id);
    assert.equal(b.headers.get('idempotent-replayed'), 'true');
    const c = await upload(srv.url, key, { name: 'i.csv', body: `b_no\n${valid(4343)}\n` }, '', { 'idempotency-key': 'order-2026-11-21' });
    assert.equal(c.status, 409);
  });
});
