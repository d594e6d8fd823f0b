// `npm start` as a process: first-run instructions, configuration errors, graceful shutdown.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../bench/lib.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

function start(env: Record<string, string>) {
  const proc = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', MAIN], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, exited, output: () => out, errors: () => err };
}

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the server process', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-proc-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a bad setting stops start-up with exit code 2 and names the variable', async () => {
    const p = start({ DATA_DIR: dataDir, PORT: 'http' });
    assert.equal(await p.exited, 2);
    assert.match(p.errors(), /PORT="http"/);
  });

  test('a first start prints how to get a key, serves, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const p = start({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    try {
      await waitFor(() => p.output().includes('npx bizcheck accounts create'), 20_000);
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
      assert.equal(res.status, 200);
      await waitFor(() => p.output().split('\n').some((l) => l.includes('"msg":"request"') && l.includes('"route":"/healthz"') && l.includes('"status":200')), 5000);
      p.proc.kill('SIGTERM');
      assert.equal(await p.exited, 0);
      assert.match(p.output(), /shutting down/);
    } finally {
      p.proc.kill('SIGKILL');
    }
  });
});
