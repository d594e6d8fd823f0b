// A server killed with SIGKILL in the middle of a job, and another started on the same database:
// the job finishes with every row processed once and every lookup charged once.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../bench/lib.ts';
import { createAccount } from '../src/accounts/accounts.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { openStore } from '../src/store/open.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import type { Store } from '../src/store/store.ts';
import { call } from './helpers/server.ts';
import { upload } from './helpers/batch.ts';
import { describeEachStore, PG_URL } from './helpers/stores.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');
const ROWS = 1500;

describeEachStore('a batch job across a SIGKILL', (kind) => {
  let dataDir: string;
  let nts: FakeNts;
  let env: Record<string, string>;
  let store: Store;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let child: ChildProcess | undefined;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-crash-'));
    // slow enough upstream that the job is surely in the middle when the process dies
    nts = await startFakeNts({ latencyMs: 250, seed: 5 });
    env = {
      DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url,
      BATCH_CHUNK_ROWS: '50', BATCH_WORKER_CONCURRENCY: '2', BATCH_LEASE_SECONDS: '2', NTS_CONCURRENCY: '2',
      ...(kind === 'postgres' ? { DATABASE_URL: PG_URL!, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' }),
    };
    store = await openStore(kind === 'postgres' ? { kind: 'postgres', url: PG_URL!, schema } : { kind: 'sqlite', file: path.join(dataDir, 'bizcheck.db') });
  });
  after(async () => {
    child?.kill('SIGKILL');
    await store.close();
    await nts.close();
    if (kind === 'postgres') {
      const s = new PostgresStore({ url: PG_URL!, schema });
      await s.dropSchema();
      await s.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startProcess(): Promise<string> {
    const port = await freePort();
    child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', MAIN], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(500) })).ok) return url;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('server did not start');
  }

  test('killed mid-job and restarted, the job finishes: every row processed once, every lookup charged once', async () => {
    const { apiKey } = await createAccount(store, `crash-${kind}@example.com`, 'business');
    const numbers = Array.from({ length: ROWS }, (_, i) => {
      const nine = String(300000000 + i * 104729).slice(0, 9);
      return nine + checkDigitOf(nine);
    });
    const distinct = new Set(numbers).size;
    let url = await startProcess();
    const res = await upload(url, apiKey, { name: 'crash.csv', body: `사업자등록번호\n${numbers.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const jobId: string = res.body.job_id;
    // wait until it is properly under way, then kill without warning
    for (let i = 0; i < 300; i++) {
      const s = await call(url, 'GET', `/batch/${jobId}`, { key: apiKey });
      if (s.body.processed >= 100) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const atKill = (await store.batches.jobById(jobId))!;
    assert.ok(atKill.processed > 0 && atKill.processed < ROWS, `killed at ${atKill.processed}/${ROWS}`);

    url = await startProcess();
    let done;
    for (let i = 0; i < 600; i++) {
      done = await call(url, 'GET', `/batch/${jobId}?preview=0`, { key: apiKey });
      if (done.body.status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(done?.body.status, 'done', JSON.stringify(done?.body));
    assert.equal(done.body.processed, ROWS);
    const counted = Object.values(done.body.counts.biz_status as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(counted, ROWS, 'each row counted once');
    const rows = await call(url, 'GET', `/batch/${jobId}/results?format=json`, { key: apiKey });
    assert.equal(rows.body.length, ROWS);
    assert.ok(rows.body.every((r: { biz_status: string }) => r.biz_status !== 'pending' && r.biz_status !== 'unknown'));
    const me = await call(url, 'GET', '/me', { key: apiKey });
    assert.equal(me.body.quota.used, distinct, 'charged once per distinct number');
    assert.equal(done.body.refunded, 0);
    child!.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
    child = undefined;
  });
});
