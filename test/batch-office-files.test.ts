// Files as Korean offices keep them, over HTTP: the list on the second sheet after a 안내 sheet,
// 합계 rows under the list, numbers Excel stored without their leading zero, and a list without
// an address column — each read as the person meant it and said in the job's `file.notices`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { checkDigitOf, formatWithHyphens } from '../src/domain/bizno.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
type Notice = { code: string; message: string; count?: number; row_ids?: number[]; examples?: string[] };
const notice = (body: { file: { notices: Notice[] } }, code: string) => body.file.notices.find((n) => n.code === code);

describeEachStore('office files: sheets, totals, lost zeros, missing columns', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind, { BATCH_CHUNK_ROWS: '50' });
    ({ apiKey: key } = await srv.account('business'));
  });
  after(async () => srv.close());
  const used = async () => ((await fetch(`${srv.url}/me`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as { quota: { used: number } }).quota.used;
  const jobs = async () => ((await fetch(`${srv.url}/batch?limit=100`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as { jobs: unknown[] }).jobs.length;

  test('a workbook whose first sheet is notes: the list is read from the sheet that holds the number column, and the job says so', async () => {
    const wb = new ExcelJS.Workbook();
    const notes = wb.addWorksheet('안내');
    notes.addRow(['거래처 목록 작성 안내']);
    notes.addRow(['1. 사업자번호는 숫자로 입력하세요.']);
    wb.addWorksheet('빈 시트');
    const list = wb.addWorksheet('거래처');
    list.addRow(['사업자번호', '업체명', '사업장 소재지']);
    list.addRow([Number(fixed('active')), '한빛', '서울특별시 중구 세종대로 110']);
    list.addRow([formatWithHyphens(fixed('closed')), '두리', '서울특별시 강남구 테헤란로 152']);
    const res = await upload(srv.url, key, { name: 'list.xlsx', body: Buffer.from(await wb.xlsx.writeBuffer()) });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.total, 2);
    assert.equal(res.body.file.sheet, '거래처');
    assert.equal(res.body.file.address_column, '사업장 소재지');
    assert.match(notice(res.body, 'sheet_chosen')!.message, /"거래처".*"안내", "빈 시트", "거래처"/);
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.deepEqual(done.body.counts.biz_status, { active: 1, closed: 1 });
    assert.equal(done.body.file.sheet, '거래처');
    assert.ok(notice(done.body, 'sheet_chosen'), 'the status says it too');
  });

  test('a 안내 sheet before a list of thousands of rows: every row is read (the sheet is read again after the probe looked at its first rows)', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['거래처 목록 작성 안내']);
    const list = wb.addWorksheet('거래처목록');
    list.addRow(['사업자번호', '상호']);
    const rows = 3_000;
    // more than one read of the spooled sheet (64 KiB) and far more than the probe's first rows
    for (let i = 0; i < rows; i++) {
      const nine = String(200_000_000 + i * 7_919).slice(0, 9);
      list.addRow([`${nine}${checkDigitOf(nine)}`, '']);
    }
    const res = await upload(srv.url, key, { name: 'office.xlsx', body: Buffer.from(await wb.xlsx.writeBuffer()) });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.total, rows);
    assert.equal(res.body.file.sheet, '거래처목록');
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.equal(done.body.status, 'done');
    assert.equal(Object.values(done.body.counts.biz_status as Record<string, number>).reduce((a, n) => a + n, 0), rows);
  });

  test('a workbook with no sheet holding a number column: 400 naming every sheet, no job', async () => {
    const jobCount = async () => ((await fetch(`${srv.url}/batch?limit=100`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as { jobs: unknown[] }).jobs.length;
    const jobsBefore = await jobCount();
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['설명']);
    wb.addWorksheet('메모').addRow(['고객', '전화']);
    const res = await upload(srv.url, key, { name: 'notes.xlsx', body: Buffer.from(await wb.xlsx.writeBuffer()) });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    assert.match(res.body.detail, /"안내", "메모"/);
    assert.equal(await jobCount(), jobsBefore, 'no job was created');
  });

  test('sheet= still picks a sheet outright, the first one included', async () => {
    const wb = new ExcelJS.Workbook();
    const a = wb.addWorksheet('올해');
    a.addRow(['b_no']);
    a.addRow([fixed('active')]);
    const b = wb.addWorksheet('작년');
    b.addRow(['b_no']);
    b.addRow([fixed('closed')]);
    b.addRow([fixed('active')]);
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    const first = await upload(srv.url, key, { name: 'two.xlsx', body });
    assert.equal(first.body.total, 1);
    assert.equal(first.body.file.sheet, '올해');
    assert.equal(notice(first.body, 'sheet_chosen'), undefined, 'the first sheet holds a list: nothing was picked by content');
    const second = await upload(srv.url, key, { name: 'two.xlsx', body }, '?sheet=2');
    assert.equal(second.body.total, 2);
    assert.equal(second.body.file.sheet, '작년');
  });

  test('합계 and =COUNT() rows are skipped (not looked up, not charged) and reported; the rows keep their numbers', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('목록');
    ws.addRow(['사업자등록번호', '상호', '주소', '금액']);
    ws.addRow([fixed('active'), '한빛', '서울특별시 중구 세종대로 110', 1000]);
    ws.addRow([fixed('closed'), '두리', '서울특별시 강남구 테헤란로 152', 2000]);
    ws.addRow(['소계', '', '', 3000]);
    ws.addRow([fixed('suspended'), '세종', '', 500]);
    ws.addRow(['', '합 계', '', 3500]);
    // what a count of the customers leaves under the number column
    ws.addRow([{ formula: 'COUNT(A2:A3,A5)', result: 3 }]);
    const res = await upload(srv.url, key, { name: 'totals.xlsx', body: Buffer.from(await wb.xlsx.writeBuffer()) });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.total, 3, 'three customers');
    assert.equal(res.body.distinct_numbers, 3);
    const skipped = notice(res.body, 'total_rows_skipped')!;
    assert.equal(skipped.count, 3);
    assert.deepEqual(skipped.examples, ['소계 3000', '합 계 3500', '3']);
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.deepEqual(done.body.counts.biz_status, { active: 1, closed: 1, suspended: 1 });
    assert.deepEqual(done.body.preview.map((r: { row_id: number; result: { b_no: string } }) => [r.row_id, r.result.b_no]), [[1, fixed('active')], [2, fixed('closed')], [3, fixed('suspended')]]);
  });

  test('9-digit numbers (the leading zero Excel dropped) are read alike from CSV and XLSX, and reported', async () => {
    // a number whose first digit is 0, as typed into a cell formatted as a number
    const padded = '012345678';
    const withZero = padded + String(checkDigitOf(padded));
    const csv = ['사업자번호,상호', `${withZero.slice(1)},영상사`, `${fixed('active')},한빛`, `'${withZero.slice(1)},따옴표`].join('\n');
    const c = await upload(srv.url, key, { name: 'nine.csv', body: csv, type: 'text/csv' });
    assert.equal(c.status, 202, JSON.stringify(c.body));
    const cn = notice(c.body, 'numbers_zero_padded')!;
    assert.equal(cn.count, 2);
    assert.deepEqual(cn.row_ids, [1, 3]);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('목록');
    ws.addRow(['사업자번호', '상호']);
    ws.addRow([Number(withZero), '영상사']);
    ws.addRow([Number(fixed('active')), '한빛']);
    const x = await upload(srv.url, key, { name: 'nine.xlsx', body: Buffer.from(await wb.xlsx.writeBuffer()) });
    assert.equal(x.status, 202, JSON.stringify(x.body));
    assert.deepEqual(notice(x.body, 'numbers_zero_padded')?.row_ids, [1]);

    const [cd, xd] = [await waitForJob(srv.url, key, c.body.job_id), await waitForJob(srv.url, key, x.body.job_id)];
    assert.equal(cd.body.preview[0].result.b_no, withZero, 'CSV: read with its zero');
    assert.equal(xd.body.preview[0].result.b_no, withZero, 'XLSX: the same');
    assert.equal(cd.body.preview[0].result.biz_status, xd.body.preview[0].result.biz_status);
  });

  test('a list with no recognisable address or name column says so in its status', async () => {
    const res = await upload(srv.url, key, { name: 'bare.csv', body: `사업자등록번호,전화\n${fixed('active')},02-123-4567\n`, type: 'text/csv' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.deepEqual(done.body.file.notices.map((n: Notice) => n.code), ['no_address_column', 'no_name_column']);
    assert.match(notice(done.body, 'no_address_column')!.message, /address_column/);
    const full = await upload(srv.url, key, { name: 'full.csv', body: `사업자등록번호,상호(법인명),본점소재지\n${fixed('active')},한빛,서울특별시 중구 세종대로 110\n`, type: 'text/csv' });
    assert.deepEqual(full.body.file.notices, []);
    assert.equal(full.body.file.address_column, '본점소재지');
  });

  test('POST /batch/inspect says what an upload would read — sheet, columns, first rows — and creates and charges nothing', async () => {
    const [usedBefore, jobsBefore] = [await used(), await jobs()];
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['설명']);
    const ws = wb.addWorksheet('목록');
    ws.addRow(['번호', '고객', '위치', '우편']);
    for (let i = 0; i < 30; i++) ws.addRow([fixed('active'), `상점${i}`, '서울특별시 중구 세종대로 110', '04524']);
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    const inspect = (query = '') => upload(srv.url, key, { name: 'list.xlsx', body }, `/inspect${query}`);

    // nothing recognised: the first sheet's first row shown as the header, no number column, so one can be chosen
    const unknown = await inspect();
    assert.equal(unknown.status, 200, JSON.stringify(unknown.body));
    assert.deepEqual([unknown.body.sheet, unknown.body.sheets, unknown.body.number_column, unknown.body.headers], ['안내', ['안내', '목록'], null, ['설명']]);
    const second = await inspect('?sheet=목록');
    assert.deepEqual([second.body.number_column, second.body.headers, second.body.rows.length], [null, ['번호', '고객', '위치', '우편'], 10]);
    // an upload of the same file is still refused: only inspection reads without a number column
    assert.equal((await upload(srv.url, key, { name: 'list.xlsx', body })).status, 400);
    // the user names the sheet and the columns: the first rows come back under those choices
    const named = await inspect('?sheet=목록&bno_column=1&name_column=고객&address_column=3');
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.deepEqual([named.body.sheet, named.body.sheets, named.body.headers], ['목록', ['안내', '목록'], ['번호', '고객', '위치', '우편']]);
    assert.deepEqual([named.body.number_column, named.body.name_column, named.body.address_column], ['번호', '고객', '위치']);
    assert.equal(named.body.rows.length, 10);
    assert.deepEqual(named.body.rows[0], { row_id: 1, cells: { 번호: fixed('active'), 고객: '상점0', 위치: '서울특별시 중구 세종대로 110', 우편: '04524' } });
    assert.deepEqual(named.body.notices, []);
    const partly = await inspect('?sheet=2&bno_column=번호');
    assert.deepEqual(partly.body.notices.map((n: Notice) => n.code), ['no_address_column'], '고객 reads as the name; 위치 is not an address label');
    assert.equal(await used(), usedBefore);
    assert.equal(await jobs(), jobsBefore);
  });

  test("a job's rows read in its uploader's language (Accept-Language), named or not", async () => {
    const csv = `사업자등록번호,상호\n${fixed('closed')},두리상사\n${fixed('suspended')},\n`;
    const reasonsOf = async (lang: string | null) => {
      const up = await upload(srv.url, key, { name: 'lang.csv', body: csv, type: 'text/csv' }, '', lang ? { 'accept-language': lang } : {});
      const done = await waitForJob(srv.url, key, up.body.job_id);
      return (done.body.preview as { result: { reasons: string[] } }[]).map((r) => r.result.reasons.join(' | '));
    };
    const [en, ko] = [await reasonsOf('en-US,en;q=0.9'), await reasonsOf(null)];
    assert.match(en[0]!, /NTS status: closed/);
    assert.match(en[1]!, /suspended/i);
    assert.doesNotMatch(en.join(' '), /[가-힣]{3,}:/, 'no Korean reason text');
    assert.match(ko[0]!, /국세청 상태: 폐업자/);
  });
});
