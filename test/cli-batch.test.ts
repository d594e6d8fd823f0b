// `bizcheck batch FILE` against a running server, as an operator runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
