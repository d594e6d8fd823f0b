// Outcomes in bulk over HTTP: a JSON array, and returned-mail lists as files (CP949 CSV, XLSX,
// and a job's own results download sent back with an outcome column filled in).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { formatWithHyphens } from '../src/domain/bizno.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { cp949, upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string, n = 0) => SANDBOX_FIXED.filter((f) => f.status === status)[n]!.bno;

describeEachStore('POST /batch/{job_id}/labels', (kind) => {
  let srv: TestServer;
  let key: string;
  let accountId: string;
  let job: string;
  // rows: 1 active, 2 closed, 3 suspended, 4 the closed number again, 5 unregistered, 6–14 another active
  // number, 15 the closed number again in the second chunk; every row named, with an address
  const numbers = [fixed('active'), fixed('closed'), fixed('suspended'), fixed('closed'), fixed('unregistered'), ...Array.from({ length: 9 }, () => fixed('active', 1)), fixed('closed')];
  before(async () => {
    srv = await startTestServer(kind, { BATCH_CHUNK_ROWS: '10', BATCH_MAX_ROWS: '5000' });
    ({ apiKey: key, accountId } = await srv.account('business'));
    const lines = ['사업자등록번호,상호,주소', ...numbers.map((n, i) => `${formatWithHyphens(n)},상회${i + 1},서울 강남구 테헤란로 152`)];
    const res = await upload(srv.url, key, { name: 'customers.csv', body: lines.join('\n') });
    job = res.body.job_id;
    assert.equal((await waitForJob(srv.url, key, job)).body.status, 'done');
  });
  after(async () => srv.close());

  const post = (body: unknown, query = '', k = key) => call(srv.url, 'POST', `/batch/${job}/labels${query}`, { key: k, body });
  const tallies = async () => {
    let bounced = 0;
    let delivered = 0;
    for (const n of new Set(numbers)) {
      const c = await srv.store.labels.counts(accountId, n, null);
      bounced += c.bizBounced;
      delivered += c.bizDelivered;
    }
    const labels = (await srv.store.labels.forFit(1_000_000)).filter((l) => l.accountId === accountId);
    return { bounced, delivered, labels: labels.length, labelsBounced: labels.filter((l) => l.bounced).length };
  };

  test('a JSON array by row and by number, with 반송 사유 in place of an outcome; bad items reported, the rest recorded', async () => {
    const res = await post([
      { row_id: 1, bounced: false },
      { b_no: formatWithHyphens(fixed('closed')), reason: '이사불명' },
      { row_id: 3, reason: '폐문 부재' },
      { row_id: 99, bounced: true },
      { row_id: 5 },
      { row_id: 5, b_no: fixed('active'), bounced: true },
      { b_no: '1111111111', bounced: true },
      {},
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // the closed number is on rows 2, 4 and 15 (another chunk): all labelled
    assert.deepEqual([res.body.recorded, res.body.bounced, res.body.delivered, res.body.replaced], [5, 4, 1, 0]);
    assert.deepEqual(res.body.causes, { moved: 3, nobody_home: 1 });
    // the tallies scoring reads keep what the reasons said: the closed business left, the suspended one was shut
    assert.equal((await srv.store.labels.counts(accountId, fixed('closed'), null)).bizGone, 3);
    assert.equal((await srv.store.labels.counts(accountId, fixed('suspended'), null)).bizAbsent, 1);
    assert.deepEqual(res.body.rejected.map((r: { at: number; code: string }) => [r.at, r.code]), [[4, 'not_in_job'], [5, 'no_outcome'], [6, 'number_mismatch'], [7, 'not_in_job'], [8, 'no_row']]);
    const fit = (await srv.store.labels.forFit(1_000_000)).filter((l) => l.accountId === accountId);
    assert.deepEqual(fit.map((l) => l.cause ?? '').toSorted((a, b) => a.localeCompare(b)), ['', 'moved', 'moved', 'moved', 'nobody_home'], 'every label of a scored row reaches refits, with its cause');
    assert.deepEqual(await tallies(), { bounced: 4, delivered: 1, labels: 5, labelsBounced: 4 });

    // the same outcomes again replace, and the tallies do not double; { labels: [...] } is the same as the bare array
    const again = await post({ labels: [{ row_id: 1, reason: '수취인불명' }, { row_id: 2, bounced: false }] });
    assert.deepEqual([again.body.recorded, again.body.replaced, again.body.rejected.length], [2, 2, 0]);
    assert.deepEqual(await tallies(), { bounced: 4, delivered: 1, labels: 5, labelsBounced: 4 });
    // a row given twice keeps the later outcome
    const twice = await post([{ row_id: 3, bounced: true }, { row_id: 3, bounced: false }]);
    assert.deepEqual([twice.body.recorded, twice.body.bounced], [1, 0]);
    assert.deepEqual(await tallies(), { bounced: 3, delivered: 2, labels: 5, labelsBounced: 3 });
  });

  test('outcome=bounced: a bare list of returned numbers', async () => {
    const res = await post([{ b_no: fixed('unregistered') }], '?outcome=bounced');
    assert.deepEqual([res.body.recorded, res.body.bounced], [1, 1]);
    assert.equal((await post([{ b_no: fixed('unregistered') }])).body.rejected[0].code, 'no_outcome');
    // a reason with no cause of its own is still a bounce; one that says the mail arrived is a delivery
    assert.deepEqual((await post([{ b_no: fixed('unregistered'), reason: '기타' }])).body.causes, { other: 1 });
    assert.equal((await post([{ b_no: fixed('unregistered'), reason: '배달완료' }])).body.delivered, 1);
  });

  test('a CP949 CSV of returned mail as the mailroom types it: numbers and 반송사유, no outcome column', async () => {
    const csv = ['반송 접수일,사업자 번호,업체명,반송사유', `2026-11-20,${formatWithHyphens(fixed('closed'))},상회2,수취인 불명`, `2026-11-20,${fixed('suspended')},상회3,폐문부재`, '2026-11-21,123-45-67890,모름,이사감', '2026-11-21,,빈칸,기타'].join('\r\n');
    const res = await upload(srv.url, key, { name: '반송목록.csv', body: cp949(csv), type: 'text/csv' }, `/${job}/labels`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.columns, { b_no: '사업자 번호', row_id: null, outcome: null, reason: '반송사유' });
    assert.deepEqual([res.body.recorded, res.body.bounced], [4, 4]);
    assert.deepEqual(res.body.causes, { unknown_recipient: 3, nobody_home: 1 });
    assert.deepEqual(res.body.rejected.map((r: { at: number; code: string }) => [r.at, r.code]), [[3, 'not_in_job'], [4, 'no_row']]);
  });

  test('a file whose 행번호 is not a row number (0, -5, abc): that row is rejected, not labelled by its number alone', async () => {
    const was = await tallies();
    const csv = ['행번호,사업자등록번호,반송사유', `0,${fixed('closed')},이사불명`, `abc,${fixed('suspended')},폐문부재`, `-5,${fixed('unregistered')},수취인불명`, `"1,234",${fixed('active')},이사불명`].join('\n');
    const res = await upload(srv.url, key, { name: '반송.csv', body: csv, type: 'text/csv' }, `/${job}/labels`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.recorded, 0);
    // a row number as a sheet formats it with thousands separators is read as one (this job has no row 1234)
    assert.deepEqual(res.body.rejected.map((r: { at: number; code: string; row_id: number | null }) => [r.at, r.code, r.row_id]), [[1, 'no_row', null], [2, 'no_row', null], [3, 'no_row', null], [4, 'not_in_job', 1234]]);
    assert.match(res.body.rejected[1].detail, /"abc" is not a row number/);
    assert.deepEqual(await tallies(), was, 'nothing was recorded');
  });

  test('the job’s own results download, sent back as XLSX with a 배달결과 column filled in', async () => {
    const download = await fetch(`${srv.url}/batch/${job}/results?format=json`, { headers: { 'x-api-key': key } });
    const rows = (await download.json()) as Record<string, unknown>[];
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('결과');
    ws.addRow(['row_id', 'b_no', 'biz_status', '배달결과', '반송사유']);
    rows.slice(0, 5).forEach((r, i) => ws.addRow([r.row_id, r.b_no, r.biz_status, i % 2 === 0 ? '반송' : '배달완료', i % 2 === 0 ? '주소불명' : '']));
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(srv.url, key, { name: 'results.xlsx', body }, `/${job}/labels`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.columns, { b_no: 'b_no', row_id: 'row_id', outcome: '배달결과', reason: '반송사유' });
    assert.deepEqual([res.body.recorded, res.body.bounced, res.body.rejected.length], [5, 3, 0]);
    assert.deepEqual(res.body.causes, { bad_address: 3 });
    const t = await tallies();
    assert.equal(t.labels, 6);
    assert.equal(t.bounced + t.delivered, 6, 'one tally per label, however often relabelled');
  });

  test('a returned-mail file with a raw NUL or other control bytes is refused as not text, and nothing is recorded', async () => {
    const held = await srv.store.labels.counts(accountId, fixed('unregistered'), null);
    for (const c of ['\u0000', '\u0007']) {
      const res = await upload(srv.url, key, { name: 'ctl.csv', body: `사업자번호,반송사유\n${fixed('unregistered')},이사${c}불명\n`, type: 'text/csv' }, `/${job}/labels`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.file_error, 'unreadable');
      assert.match(String(res.headers.get('content-type')), /application\/problem\+json/);
    }
    assert.deepEqual(await srv.store.labels.counts(accountId, fixed('unregistered'), null), held);
  });

  test('another account’s job is 404 whatever the body; malformed requests get a problem', async () => {
    const other = await srv.account('business');
    const res = await post([{ row_id: 1, bounced: true }], '', other.apiKey);
    assert.equal(res.status, 404);
    assert.equal((await upload(srv.url, other.apiKey, { name: 'x.csv', body: `b_no,반송사유\n${fixed('closed')},이사불명\n` }, `/${job}/labels`)).status, 404);
    for (const bad of [{ labels: 'x' }, [{ row_id: 0, bounced: true }], [{ row_id: 1, bounced: 'yes' }], [{ row_id: 1, extra: 1 }], { labels: [], more: 1 }, 'text']) {
      const r = await post(bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.match(String(r.headers.get('content-type')), /application\/problem\+json/);
    }
    assert.equal((await post([{ row_id: 1, bounced: true }], '?outcome=maybe')).status, 400);
    const tooMany = await post(Array.from({ length: 100_001 }, () => ({ row_id: 1, bounced: true })));
    assert.ok([400, 413].includes(tooMany.status), String(tooMany.status));
    const noNumber = await upload(srv.url, key, { name: 'x.csv', body: '메모,반송사유\n가,이사불명\n' }, `/${job}/labels`);
    assert.equal(noNumber.status, 400);
    assert.equal((await tallies()).labels, 6, 'nothing recorded by any refused request');
  });
  test('a delivered letter has no cause of return, by the single route as in bulk', async () => {
    const one = await call(srv.url, 'POST', `/batch/${job}/label`, { key, body: { row_id: 6, bounced: false, reason: '이사불명' } });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.cause, null);
    const many = await post([{ row_id: 7, bounced: false, reason: '이사불명' }]);
    assert.deepEqual([many.body.delivered, many.body.causes], [1, {}]);
  });
});

describeEachStore('labels of rows not yet processed', (kind) => {
  let srv: TestServer;
  before(async () => {
    // an API process alone: jobs wait for a worker that never comes
    srv = await startTestServer(kind, { BIZCHECK_ROLE: 'api' });
  });
  after(async () => srv.close());

  test('are refused one by one (409) and reported in bulk, and nothing is recorded', async () => {
    const { apiKey: key, accountId } = await srv.account('business');
    const res = await upload(srv.url, key, { name: 'wait.csv', body: `b_no,상호\n${fixed('closed')},가\n${fixed('active')},나\n` });
    assert.equal(res.status, 202);
    const job = res.body.job_id;
    assert.equal((await call(srv.url, 'POST', `/batch/${job}/label`, { key, body: { row_id: 1, bounced: true } })).status, 409);
    const bulk = await call(srv.url, 'POST', `/batch/${job}/labels`, { key, body: [{ row_id: 1, bounced: true }, { b_no: fixed('active'), reason: '이사불명' }] });
    assert.equal(bulk.status, 200);
    assert.deepEqual([bulk.body.recorded, bulk.body.rejected.map((r: { code: string }) => r.code)], [0, ['not_processed', 'not_processed']]);
    assert.equal((await srv.store.labels.counts(accountId, fixed('closed'), null)).bizBounced, 0);
  });
});
