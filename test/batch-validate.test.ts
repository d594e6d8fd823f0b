// 진위확인 in batch jobs, over HTTP on each store: a list with 대표자 and 개업일 columns has each row
// that fills both checked by NTS's validate API (a `validation` in results and downloads), rows
// without them are not (a mailing list rarely holds the opening date), and nothing more is
// charged; through the sandbox, and through the real client against the fake NTS.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { SANDBOX_FIXED, sandboxOwner } from '../src/registry/sandbox.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { cp949, upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const closed = SANDBOX_FIXED.find((f) => f.status === 'closed')!.bno;
const owner = sandboxOwner(closed);
const dotted = (d: string) => `${d.slice(0, 4)}. ${Number(d.slice(4, 6))}. ${Number(d.slice(6))}.`;

const HEADER = ['사업자등록번호', '상호', '대표자명', '개업일자'];
/** rows, each with the validation status expected of it (null: not asked) */
const LIST: [string[], string | null][] = [
  [['124-81-00998', '한빛상사', '홍길동', '1996-02-14'], 'confirmed'],
  [['1248100998', '한빛상사', '김철수', '19960214'], 'not_confirmed'],
  [['1248100998', '한빛상사', '', '19960214'], null],
  [['1248100998', '한빛상사', '홍길동', ''], null],
  [['1248100998', '한빛상사', '홍길동', '2020-13-45'], 'unreadable_date'],
  [['1248100999', '틀린번호', '홍길동', '19960214'], null],
  [[closed, '', owner.p_nm, dotted(owner.start_dt)], 'confirmed'],
  [['124-81-00998', '한빛상사', '홍길동', '1996-02-14'], 'confirmed'],
];
const csvOf = (rows: string[][]) => `${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
const LIST_CSV = csvOf([HEADER, ...LIST.map(([r]) => r)]);
const EXPECTED = LIST.map(([, v]) => v);

describeEachStore('진위확인 in batch jobs on the sandbox', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind);
    key = (await srv.account('business')).apiKey;
  });
  after(async () => srv.close());
  const used = async () => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  async function run(file: { name: string; body: Buffer | string }, query = '') {
    const job = await upload(srv.url, key, file, query);
    assert.equal(job.status, 202, JSON.stringify(job.body));
    const done = await waitForJob(srv.url, key, job.body.job_id, 30_000, '?preview=50');
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    return { accepted: job.body, done: done.body };
  }

  test('rows with a representative and an opening date are checked; the others are not; nothing more is charged', async () => {
    const usedBefore = await used();
    const { accepted, done } = await run({ name: 'customers.csv', body: cp949(LIST_CSV) });
    assert.equal(accepted.file.representative_column, '대표자명');
    assert.equal(accepted.file.opening_date_column, '개업일자');
    assert.equal(accepted.file.validates, true);
    assert.equal(await used(), usedBefore + 2, 'two distinct valid numbers, charged once each: 진위확인 comes with them');
    const validations = done.preview.map((r: any) => r.result.validation ?? null);
    assert.deepEqual(validations.map((v: any) => v?.status ?? null), EXPECTED);
    const [confirmed, notConfirmed, , , unreadable, , nameless] = validations;
    assert.deepEqual(
      { valid: confirmed.valid, code: confirmed.valid_code, msg: confirmed.valid_msg, p_nm: confirmed.p_nm, start_dt: confirmed.start_dt },
      { valid: true, code: '01', msg: null, p_nm: '홍길동', start_dt: '19960214' },
    );
    assert.match(confirmed.checked_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual([notConfirmed.valid, notConfirmed.valid_code, notConfirmed.valid_msg], [false, '02', '확인할 수 없습니다.']);
    assert.deepEqual([unreadable.valid, unreadable.valid_code, unreadable.start_dt], [null, null, '2020-13-45']);
    assert.match(unreadable.valid_msg, /2020-13-45/);
    assert.equal(nameless.start_dt, owner.start_dt, '"1996. 2. 14." is read as the date it is');
    assert.equal(done.preview[6].result.biz_status, 'closed', 'a row without a name keeps its status beside its validation');
    assert.equal(done.preview[0].result.biz_status, 'active');
    assert.ok(done.preview[0].result.grade, 'named rows are still graded');

    const csv = await fetch(`${srv.url}/batch/${accepted.job_id}/results?format=csv`, { headers: { 'x-api-key': key } });
    assert.equal(csv.status, 200);
    const lines = (await csv.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    const header = lines[0]!.split(',');
    assert.deepEqual(header.slice(-3), ['validation', 'validation_code', 'validation_msg']);
    const at = (line: string, col: string) => line.split(',')[header.indexOf(col)];
    assert.deepEqual(lines.slice(1).map((l) => at(l, 'validation') || null), EXPECTED);
    assert.equal(at(lines[2]!, 'validation_code'), '02');
    assert.equal(at(lines[2]!, 'validation_msg'), '확인할 수 없습니다.');

    const json = await (await fetch(`${srv.url}/batch/${accepted.job_id}/results?format=json`, { headers: { 'x-api-key': key } })).json() as any[];
    assert.deepEqual(json.map((r) => r.validation), EXPECTED);
  });

  test('an XLSX date cell and a date typed as Excel shows it are both dates; columns can be named outright', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('거래처');
    sheet.addRow(['번호', '사업자번호', '업체명', 'CEO 이름', '설립']);
    sheet.addRow([1, '124-81-00998', '한빛상사', '홍길동', new Date(Date.UTC(1996, 1, 14))]);
    sheet.addRow([2, '124-81-00998', '한빛상사', '홍길동', '1996년 2월 14일']);
    sheet.addRow([3, '124-81-00998', '한빛상사', '홍길동', 35109]);
    const body = Buffer.from(await book.xlsx.writeBuffer());
    const { accepted, done } = await run({ name: 'list.xlsx', body }, `?representative_column=${encodeURIComponent('CEO 이름')}&opening_date_column=5`);
    assert.equal(accepted.file.representative_column, 'CEO 이름');
    assert.equal(accepted.file.opening_date_column, '설립');
    assert.deepEqual(done.preview.map((r: any) => [r.result.validation.status, r.result.validation.start_dt]), [
      ['confirmed', '19960214'], ['confirmed', '19960214'], ['confirmed', '19960214'],
    ]);
    const named = await upload(srv.url, key, { name: 'list.xlsx', body }, '?opening_date_column=없는열');
    assert.equal(named.status, 400, JSON.stringify(named.body));
    assert.equal(named.body.column, 'opening_date');
    assert.match(named.body.detail, /개업일 열로 지정한 "없는열"/);
  });

  test('a list without those columns is not checked, and its download has no validation columns', async () => {
    const { accepted, done } = await run({ name: 'plain.csv', body: '사업자등록번호,상호,대표자명\n1248100998,한빛상사,홍길동\n' });
    assert.equal(accepted.file.validates, false);
    assert.equal(accepted.file.representative_column, '대표자명');
    assert.equal(accepted.file.opening_date_column, null);
    assert.equal(done.preview[0].result.validation, undefined);
    const csv = await (await fetch(`${srv.url}/batch/${accepted.job_id}/results?format=csv`, { headers: { 'x-api-key': key } })).text();
    assert.doesNotMatch(csv.split('\r\n')[0]!, /validation/);
  });
});

describeEachStore('진위확인 in batch jobs against NTS', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let key: string;
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k', seed: 5 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '500', BATCH_UPSTREAM_WAIT_SECONDS: '0' });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv?.close();
    await nts?.close();
  });

  test('each distinct question is asked once, in NTS\'s validate format; the answers land on every row that asked', async () => {
    const job = await upload(srv.url, key, { name: 'customers.csv', body: LIST_CSV });
    assert.equal(job.status, 202, JSON.stringify(job.body));
    const done = await waitForJob(srv.url, key, job.body.job_id, 30_000, '?preview=50');
    assert.equal(done.body.status, 'done');
    assert.deepEqual(done.body.preview.map((r: any) => r.result.validation?.status ?? null), EXPECTED);
    const asked = nts.validated.flat();
    // rows 1 and 8 ask the same question; the unreadable date and the bad number ask nothing
    assert.equal(asked.length, 3, JSON.stringify(asked));
    assert.deepEqual(
      asked.map((q) => [q.b_no, q.start_dt, q.p_nm].join(' ')).toSorted(),
      ['1248100998 19960214 김철수', '1248100998 19960214 홍길동', `${closed} ${owner.start_dt} ${owner.p_nm}`].toSorted(),
    );
    for (const q of asked) assert.deepEqual(Object.keys(q).toSorted(), ['b_adr', 'b_nm', 'b_no', 'b_sector', 'b_type', 'corp_no', 'p_nm', 'p_nm2', 'start_dt']);
  });

  test('when NTS fails the questions, their rows say so (unanswered), never a guess', async () => {
    nts.setOptions({ errorRate: 1 });
    try {
      const job = await upload(srv.url, key, { name: 'customers.csv', body: LIST_CSV });
      const done = await waitForJob(srv.url, key, job.body.job_id, 60_000, '?preview=50');
      assert.equal(done.body.status, 'done');
      const first = done.body.preview[0].result.validation;
      assert.equal(first.status, 'unanswered');
      assert.deepEqual([first.valid, first.valid_code], [null, null]);
      assert.match(first.valid_msg, /NTS did not answer/);
    } finally {
      nts.setOptions({ errorRate: 0 });
    }
  });
});

describeEachStore('진위확인 in batch jobs waits out an NTS outage', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let key: string;
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k', seed: 5 });
    srv = await startTestServer(kind, {
      NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '300', NTS_BREAKER_HALF_OPEN_SECONDS: '1', BATCH_UPSTREAM_RETRY_SECONDS: '1',
    });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv?.close();
    await nts?.close();
  });

  test('the statuses are cached but NTS is down for 진위확인: the job waits, then every row is answered', async () => {
    // the numbers' statuses are fresh in the cache: only 진위확인 needs NTS
    for (const b_no of ['1248100998', closed]) assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no } })).status, 200);
    nts.setOptions({ errorRate: 1 });
    let recovered = false;
    try {
      const job = await upload(srv.url, key, { name: 'customers.csv', body: LIST_CSV });
      assert.equal(job.status, 202, JSON.stringify(job.body));
      const deadline = Date.now() + 20_000;
      let body: any;
      do {
        await new Promise((r) => setTimeout(r, 100));
        body = (await call(srv.url, 'GET', `/batch/${job.body.job_id}?preview=0`, { key })).body;
      } while (body.upstream_wait === null && body.status !== 'done' && Date.now() < deadline);
      assert.equal(body.status, 'processing', JSON.stringify(body));
      assert.match(body.upstream_wait.reason, /^upstream_unavailable: /);
      nts.setOptions({ errorRate: 0 });
      recovered = true;
      const done = await waitForJob(srv.url, key, job.body.job_id, 30_000, '?preview=50');
      assert.equal(done.body.status, 'done');
      assert.equal(done.body.upstream_wait, null);
      assert.deepEqual(done.body.preview.map((r: any) => r.result.validation?.status ?? null), EXPECTED);
    } finally {
      if (!recovered) nts.setOptions({ errorRate: 0 });
    }
  });
});
