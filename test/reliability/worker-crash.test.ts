// Workers killed with SIGKILL in the middle of a job, again and again: the job still finishes,
// no row is lost or counted twice and no lookup is charged twice. On PostgreSQL one API process
// and two workers, one of which dies three times; on the embedded store its single process.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.ts';
import { startFakeNts, type FakeNts } from '../../src/registry/fake-nts-server.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { call } from '../helpers/server.ts';
import { eventually, numbers, openTestDb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 150_000 };
const KILLS = 3;

for (const kind of ['postgres', 'sqlite'] as const) {
  reliabilitySuite(`a batch job across repeated SIGKILLs of its worker [${kind}]`, { needsPostgres: kind === 'postgres' }, () => {
    let db: TestDb;
    let nts: FakeNts;
    const procs = new Processes();
    let env: Record<string, string>;

    before(async () => {
      db = await openTestDb(kind);
      // slow enough upstream that each kill lands in the middle of the job, even with the other
      // PostgreSQL worker going on meanwhile (~100 rows/s each)
      nts = await startFakeNts({ latencyMs: 400 });
      env = {
        ...db.env, NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_CONCURRENCY: '2',
        BATCH_CHUNK_ROWS: '40', BATCH_WORKER_CONCURRENCY: kind === 'postgres' ? '1' : '2', BATCH_LEASE_SECONDS: '2',
      };
    });
    after(async () => {
      await procs.stopAll();
      await nts?.close();
      await db?.cleanup();
    });

    test(`killed ${KILLS} times mid-job: the job finishes, every row processed once, every lookup charged once`, T, async (t: TestContext) => {
      const { apiKey } = await createAccount(db.store, `crash-${kind}@example.com`, 'business');
      const distinct = numbers(1600, 20);
      const rows = [...distinct, ...distinct.slice(0, 400)];
      // the embedded store: one process does everything; PostgreSQL: the API lives on while workers die
      const victimRole = kind === 'postgres' ? 'worker' : 'all';
      const api = kind === 'postgres' ? await procs.start('api', 'api', env) : undefined;
      let victim: ServerProcess = await procs.start('victim-0', victimRole, env);
      const steady = kind === 'postgres' ? await procs.start('steady-worker', 'worker', env) : undefined;
      const apiUrl = () => (api ?? victim).url;

      const res = await upload(apiUrl(), apiKey, { name: 'crash.csv', body: `사업자등록번호\n${rows.join('\n')}\n` });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const jobId: string = res.body.job_id;
      const killedAt: number[] = [];
      for (let k = 0; k < KILLS; k++) {
        // let it make progress since the last kill, then kill without warning
        const progress = (await db.store.batches.jobById(jobId))!.processed;
        await eventually('progress before a kill', 400, 50, async () => ((await db.store.batches.jobById(jobId))!.processed >= progress + 80 ? true : undefined));
        await victim.kill();
        const at = (await db.store.batches.jobById(jobId))!.processed;
        killedAt.push(at);
        assert.ok(at < rows.length, `kill ${k + 1} came after the job finished (${at}/${rows.length}); slow the fake NTS down`);
        victim = await procs.start(`victim-${k + 1}`, victimRole, env);
      }
      t.diagnostic(`killed at ${killedAt.join(', ')} of ${rows.length} rows processed`);

      const done = await waitForJob(apiUrl(), apiKey, jobId, 120_000, '?preview=0');
      assert.equal(done.body.status, 'done', JSON.stringify(done.body));
      assert.equal(done.body.processed, rows.length);
      const counted = Object.values(done.body.counts.biz_status as Record<string, number>).reduce((a, b) => a + b, 0);
      assert.equal(counted, rows.length, 'each row counted once');
      const results = await call(apiUrl(), 'GET', `/batch/${jobId}/results?format=json`, { key: apiKey });
      assert.equal(results.body.length, rows.length, 'no row lost');
      assert.deepEqual(results.body.map((r: { row_id: number }) => r.row_id), rows.map((_, i) => i + 1));
      assert.ok(results.body.every((r: { biz_status: string }) => r.biz_status !== 'pending' && r.biz_status !== 'unknown'));
      const me = await call(apiUrl(), 'GET', '/me', { key: apiKey });
      assert.equal(me.body.quota.used, distinct.length, 'charged once per distinct number');
      assert.equal(done.body.charged, distinct.length);
      assert.equal(done.body.refunded, 0);
      if (steady) assert.ok(steady.alive(), 'the other worker kept running');
    });
  });
}
