// `bizcheck batch FILE` against a running server, as an operator runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../bin/bizcheck.js');

describe('bizcheck batch', () => {
  let srv: TestServer;
  let dir: string;
  let key: string;
  before(async () => {
    srv = await startTestServer('sqlite');
    key = (await srv.account('business')).apiKey;
    dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-clibatch-'));
  });
  after(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('uploads, shows progress, and writes the results file', async () => {
    const file = path.join(dir, '거래처.csv');
    writeFileSync(file, `사업자등록번호,상호\n${SANDBOX_FIXED.map((f) => `${f.bno},상호`).join('\n')}\n`);
    const out = path.join(dir, 'out.csv');
    const { stdout, stderr } = await run(process.execPath, [BIN, 'batch', file, '--out', out, '--url', srv.url], { env: { ...process.env, BIZCHECK_API_KEY: key }, timeout: 60_000 });
    const summary = JSON.parse(stdout);
    assert.equal(summary.status, 'done');
    assert.equal(summary.total, SANDBOX_FIXED.length);
    assert.match(stderr, /\[#+\] 100\.0%/);
    const csv = readFileSync(out, 'utf8');
    assert.equal(csv.trim().split(/\r?\n/).length, SANDBOX_FIXED.length + 1);
    assert.match(csv, /closed/);
  });

  test('--sheet and --*-column name what the headers do not say; the columns read and the notices are shown', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['설명']);
    const ws = wb.addWorksheet('목록');
    ws.addRow(['번호', '고객 이름', '위치']);
    for (const f of SANDBOX_FIXED.slice(0, 3)) ws.addRow([f.bno, '한빛', '서울특별시 중구 세종대로 110']);
    const file = path.join(dir, '목록.xlsx');
    writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
    const out = path.join(dir, 'cols.json');
    const { stdout, stderr } = await run(process.execPath, [BIN, 'batch', file, '--out', out, '--url', srv.url, '--sheet', '목록', '--bno-column', '1', '--name-column', '고객 이름', '--address-column', '위치'], { env: { ...process.env, BIZCHECK_API_KEY: key }, timeout: 60_000 });
    assert.equal(JSON.parse(stdout).total, 3);
    assert.match(stderr, /columns: number "번호", name "고객 이름", address "위치" \(sheet "목록"\)/);
    const rows = JSON.parse(readFileSync(out, 'utf8')) as { result: { fixed_address: string | null } }[] | { rows: unknown[] };
    assert.ok(Array.isArray(rows) ? rows.length === 3 : rows.rows.length === 3);
    // without the flags the same file is refused: its headers name no number column
    await assert.rejects(run(process.execPath, [BIN, 'batch', file, '--url', srv.url, '--key', key], { timeout: 30_000 }), (e: { stderr: string }) => /"안내", "목록"/.test(e.stderr));
  });

  test('a refusal from the server is a clear message and exit 1', async () => {
    const file = path.join(dir, 'bad.csv');
    writeFileSync(file, '상호\n한빛\n');
    await assert.rejects(run(process.execPath, [BIN, 'batch', file, '--url', srv.url, '--key', key], { timeout: 30_000 }), (e: { code: number; stderr: string }) => {
      assert.equal(e.code, 1);
      assert.match(e.stderr, /400 .*bad_request/);
      return true;
    });
    await assert.rejects(run(process.execPath, [BIN, 'batch', file, '--url', srv.url], { env: { ...process.env, BIZCHECK_API_KEY: '' }, timeout: 30_000 }), /API key/);
  });
});
