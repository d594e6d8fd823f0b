// The XLSX object bombs of the report, through both doors a free account has: POST /batch with an
// API key and /console/api/batch with a console session. Each is a 413 problem in Korean, nothing
// is charged, no job is left, and the server goes on answering.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inlineRow, xlsxWithRows, buildZip } from '../../src/batch/files/test-fixtures.ts';
import { upload } from '../helpers/batch.ts';
import { ConsoleClient } from '../helpers/console.ts';
import { call, startTestServer, type TestServer } from '../helpers/server.ts';
import { describeEachStore } from '../helpers/stores.ts';

function* flood(head: string, element: string, tail: string, n = 5_000_000): Generator<string> {
  yield head;
  const block = element.repeat(10_000);
  for (let i = 0; i < n; i += 10_000) yield block;
  yield tail;
}
const header = () => [inlineRow(1, ['사업자등록번호', '상호']), inlineRow(2, ['1248100998', '한빛'])];

const BOMBS: [string, () => Promise<Buffer>][] = [
  ['runs.xlsx', () => xlsxWithRows(header, [{ name: 'xl/sharedStrings.xml', content: () => flood('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si>', '<r/>', '</si></sst>') }])],
  ['styles.xlsx', () => xlsxWithRows(header, [{ name: 'xl/styles.xml', content: () => flood('<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>', '<xf/>', '</cellXfs></styleSheet>') }])],
  ['cols.xlsx', () => buildZip([
    { name: 'xl/workbook.xml', content: () => ['<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'] },
    { name: 'xl/_rels/workbook.xml.rels', content: () => ['<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/></Relationships>'] },
    { name: 'xl/worksheets/sheet1.xml', content: () => flood('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cols>', '<col min="1" max="1"/>', `</cols><sheetData>${header().join('')}</sheetData></worksheet>`) },
  ])],
];

describeEachStore('XLSX object bombs over HTTP', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());

  test('through POST /batch and /console/api/batch: 413, nothing charged, no job, the server answering', { timeout: 120_000 }, async () => {
    const { apiKey } = await srv.account('business');
    const web = new ConsoleClient(srv.url);
    assert.equal((await web.signUp(`bombs-${kind}@example.com`)).status, 200);
    for (const [name, make] of BOMBS) {
      const bomb = await make();
      assert.ok(bomb.length < 1024 * 1024, `${name} is ${bomb.length} bytes`);
      const api = await upload(srv.url, apiKey, { name, body: bomb });
      assert.equal(api.status, 413, `${name} via the API: ${JSON.stringify(api.body).slice(0, 300)}`);
      assert.match(api.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(api.body.detail, /엑셀/);
      const form = new FormData();
      form.append('file', new Blob([bomb]), name);
      const viaConsole = await web.request('POST', '/batch', { form });
      assert.equal(viaConsole.status, 413, `${name} via the console: ${JSON.stringify(viaConsole.body).slice(0, 300)}`);
    }
    assert.equal((await call(srv.url, 'GET', '/healthz')).status, 200);
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, 0);
    assert.equal((await call(srv.url, 'GET', '/batch', { key: apiKey })).body.jobs.length, 0);
    assert.equal((await web.request('GET', '/batch')).body.jobs.length, 0);
  });
});
