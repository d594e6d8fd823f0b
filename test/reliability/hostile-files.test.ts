// Hostile uploads and bodies against a real server process: each gets its proper status (never
// a 5xx), nothing is left charged, and the process's peak memory stays bounded.
import assert from 'node:assert/strict';
import { after, afterEach, before, test, type TestContext } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.ts';
import { inlineRow, xlsxWithRows } from '../../src/batch/files/test-fixtures.ts';
import { SANDBOX_FIXED } from '../../src/registry/sandbox.ts';
import { cp949, upload, waitForJob } from '../helpers/batch.ts';
import { call, type Call } from '../helpers/server.ts';
import { openTestDb, peakRssMb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 120_000 };
const MAX_FILE_MB = 8;
// The server starts at ~170 MB resident (the sandbox address directory is in memory). Streaming
// 100,000 rows into a job and throwing it away grows the V8 heap to ~300 MB; what a hostile file
// may not do is push it much past that, however far it inflates (measured: 366 MB).
const PEAK_MB = 450;
const HEAP_MB = 192;

function assertProblem(res: Call, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body).slice(0, 400)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
}

reliabilitySuite('hostile files and bodies', {}, () => {
  let db: TestDb;
  const procs = new Processes();
  let server: ServerProcess;
  let key = '';
  const fixed = SANDBOX_FIXED[0]!.bno;

  before(async () => {
    db = await openTestDb('sqlite');
    server = await procs.start('hostile', 'all', { ...db.env, BATCH_MAX_FILE_BYTES: String(MAX_FILE_MB * 1024 * 1024), BATCH_MAX_ROWS: '100000', NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
    key = (await createAccount(db.store, 'hostile@example.com', 'business')).apiKey;
  });
  // the peak so far after each case, so a failure of the bound below says which upload raised it
  afterEach((t) => {
    if (server?.alive()) t.diagnostic(`server peak memory so far: ${peakRssMb(server.proc.pid!).toFixed(0)} MB`);
  });
  after(async () => {
    await procs.stopAll();
    await db?.cleanup();
  });

  test('a file over BATCH_MAX_FILE_BYTES is 413, CSV or JSON', T, async () => {
    const big = Buffer.alloc((MAX_FILE_MB + 2) * 1024 * 1024, `${fixed}\n`);
    assertProblem(await upload(server.url, key, { name: 'big.csv', body: Buffer.concat([Buffer.from('b_no\n'), big]) }), 413, 'csv');
    const json = Buffer.alloc((MAX_FILE_MB + 2) * 1024 * 1024, `{"b_no":"${fixed}"}\n`);
    assertProblem(await upload(server.url, key, { name: 'big.ndjson', body: json }), 413, 'ndjson');
  });

  test('XLSX zip bombs are 413: a part inflating past 256 MB, and a sheet of endless rows', T, async () => {
    const zeros = Buffer.alloc(1024 * 1024);
    const media = await xlsxWithRows(() => [inlineRow(1, ['b_no']), inlineRow(2, [fixed])], [
      { name: 'xl/media/image1.png', content: function* () { for (let i = 0; i < 300; i++) yield zeros; } },
    ]);
    assert.ok(media.length < 1024 * 1024, `the bomb is ${media.length} bytes`);
    assertProblem(await upload(server.url, key, { name: 'bomb.xlsx', body: media }), 413, 'media bomb');

    const rows = inlineRow(2, [fixed, '한빛상사']).repeat(2000);
    const sheet = await xlsxWithRows(function* () {
      yield inlineRow(1, ['사업자등록번호', '상호']);
      for (let i = 0; i < 300; i++) yield rows; // 600,000 rows, ~30 MB of XML; BATCH_MAX_ROWS is 100,000 here
    });
    assert.ok(sheet.length < 1024 * 1024, `the bomb is ${sheet.length} bytes`);
    assertProblem(await upload(server.url, key, { name: 'rows.xlsx', body: sheet }), 413, 'row bomb');
  });

  test('deeply nested JSON: 400 for bodies and for uploaded files', T, async () => {
    assertProblem(await call(server.url, 'POST', '/verify', { key, body: `{"b_no":${'['.repeat(30_000)}` }), 400, 'unterminated body');
    assertProblem(await call(server.url, 'POST', '/verify', { key, body: `{"b_no":"${fixed}","name":${'['.repeat(30_000)}${']'.repeat(30_000)}}` }), 400, 'nested name');
    const deep = await upload(server.url, key, { name: 'deep.json', body: `[{"b_no":${'['.repeat(200_000)}${']'.repeat(200_000)}}]` });
    assertProblem(deep, 400, 'nested file');
    assert.equal(deep.body.file_error, 'too_deep');
    assertProblem(await upload(server.url, key, { name: 'open.json', body: '['.repeat(3_000_000) }), 400, 'endless open brackets');
    assertProblem(await upload(server.url, key, { name: 'deep.ndjson', body: `{"b_no":"${fixed}"}\n{"b_no":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}\n` }), 400, 'nested NDJSON line');
  });

  const post = (body: string, type: string) =>
    fetch(`${server.url}/batch`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': type }, body, signal: AbortSignal.timeout(10_000) });

  test('broken multipart bodies are 400, not 500', T, async () => {
    for (const [body, type] of [
      ['x', 'multipart/form-data'],
      ['\u0000', 'multipart/form-data; boundary=----b'],
      ['------b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n', 'multipart/form-data; boundary=----b'],
    ] as const) {
      const res = await post(body, type);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${await res.text()}`);
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    }
  });

  test('CSV formula cells are stored as text and written back neutralised', T, async () => {
    const formulas = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-3+4', '@SUM(A1)', '=cmd|\' /C calc\'!A0'];
    const body = `b_no,name,address\n${formulas.map((f, i) => `${SANDBOX_FIXED[i % SANDBOX_FIXED.length]!.bno},"${f.replaceAll('"', '""')}","${f.replaceAll('"', '""')} 서울"`).join('\n')}\n`;
    const res = await upload(server.url, key, { name: 'formulas.csv', body });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await waitForJob(server.url, key, res.body.job_id);
    const csv = await (await fetch(`${server.url}/batch/${res.body.job_id}/results?format=csv`, { headers: { 'x-api-key': key } })).text();
    const cells = csv.replace(/^\uFEFF/, '').split(/\r?\n/).slice(1).filter(Boolean).flatMap((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []);
    for (const raw of cells) {
      const cell = raw.replace(/,$/, '').replace(/^"(.*)"$/s, '$1').replaceAll('""', '"');
      assert.ok(!/^[=+\-@\t\r]/.test(cell), `a cell that would run as a formula: ${cell}`);
    }
    for (const f of formulas) assert.ok(csv.includes(`'${f.replaceAll('"', '""')}`), `${f} kept, with a leading apostrophe`);
  });

  test('broken encodings: read as CP949 when they are not UTF-8; 400 when the number column cannot be found', T, async () => {
    // invalid UTF-8 in a data cell: the file is read as CP949, the ASCII header still matches
    const mixed = Buffer.concat([Buffer.from(`b_no,name\n${fixed},`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('\n')]);
    const ok = await upload(server.url, key, { name: 'mixed.csv', body: mixed });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    // a UTF-8 Korean header with a broken byte after it: read as CP949 the header is not recognisable
    const garbled = Buffer.concat([Buffer.from(`사업자등록번호,상호\n${fixed},`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('\n')]);
    const bad = await upload(server.url, key, { name: 'garbled.csv', body: garbled });
    assertProblem(bad, 400, 'garbled header');
    assert.equal(bad.body.file_error, 'no_number_column');
    // CP949 cut in the middle of a character, and binary noise
    assertProblem(await upload(server.url, key, { name: 'cut.csv', body: Buffer.concat([cp949('사업자'), Buffer.from([0xb0])]) }), 400, 'cut CP949');
    assertProblem(await upload(server.url, key, { name: 'noise.csv', body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 73) % 256)) }), 400, 'binary noise');
  });

  test(`the peak memory of the server stayed under ${PEAK_MB} MB, and it still answers`, async (t: TestContext) => {
    const peak = peakRssMb(server.proc.pid!);
    t.diagnostic(`server peak resident memory (VmHWM): ${peak.toFixed(0)} MB`);
    assert.ok(peak < PEAK_MB, `peak ${peak.toFixed(0)} MB`);
    assert.ok(server.alive(), server.errors());
    assert.equal((await call(server.url, 'POST', '/verify', { key, body: { b_no: fixed } })).status, 200);
  });

  // Excel cells hold at most 32,767 characters: the reader refuses a longer run of text while it
  // inflates, before the XML parser could hold it
  test('an XLSX cell of 100 MB is refused without holding it', T, async (t: TestContext) => {
    const chunk = 'A'.repeat(1024 * 1024);
    const cell = await xlsxWithRows(function* () {
      yield inlineRow(1, ['b_no', 'name']);
      yield `<row r="2"><c r="A2" t="inlineStr"><is><t>${fixed}</t></is></c><c r="B2" t="inlineStr"><is><t>`;
      for (let i = 0; i < 100; i++) yield chunk;
      yield '</t></is></c></row>';
    });
    const res = await upload(server.url, key, { name: 'cell.xlsx', body: cell });
    t.diagnostic(`answered ${res.status}; server peak memory now ${peakRssMb(server.proc.pid!).toFixed(0)} MB`);
    assert.ok(res.status === 413 || res.status === 400, `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    assert.ok(peakRssMb(server.proc.pid!) < PEAK_MB, 'memory bounded');
  });
});
