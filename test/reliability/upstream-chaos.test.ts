// The fake NTS misbehaving: 30% 5xx, 10% never answering, 10% malformed JSON, 20% slow. Every
// row and lookup still ends answered or `unknown`, nothing unanswered is charged, no process
// dies; then a full outage opens the circuit breaker, readiness reports it, and recovery closes it.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.ts';
import { startFakeNts, type FakeNts } from '../../src/registry/fake-nts-server.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { call } from '../helpers/server.ts';
import { eventually, metric, numbers, openTestDb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 150_000 };
const CHAOS = { errorRate: 0.3, timeoutRate: 0.1, malformedRate: 0.1, slowRate: 0.2, slowMs: 300, latencyMs: 20 };
const ANSWERS = new Set(['active', 'suspended', 'closed', 'unregistered']);

for (const kind of ['postgres', 'sqlite'] as const) {
  reliabilitySuite(`an unreliable NTS [${kind}]`, { needsPostgres: kind === 'postgres' }, () => {
    let db: TestDb;
    let nts: FakeNts;
    const procs = new Processes();
    let api: ServerProcess;
    let all: ServerProcess[];

    before(async () => {
      db = await openTestDb(kind);
      nts = await startFakeNts({ ...CHAOS, seed: 11 });
      const env = {
        ...db.env, NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '600', NTS_BREAKER_HALF_OPEN_SECONDS: '2',
        BATCH_CHUNK_ROWS: '25', BATCH_LEASE_SECONDS: '60', BATCH_UPSTREAM_RETRY_SECONDS: '1',
      };
      // PostgreSQL: the API and the worker in processes of their own; embedded: one process
      all = kind === 'postgres'
        ? await Promise.all([procs.start('api', 'api', env), procs.start('worker', 'worker', env)])
        : [await procs.start('all', 'all', env)];
      api = all[0]!;
    });
    after(async () => {
      await procs.stopAll();
      await nts?.close();
      await db?.cleanup();
    });

    test('every row and lookup ends answered or unknown, only answers are charged, and no process dies', T, async (t: TestContext) => {
      const batchAccount = await createAccount(db.store, `chaos-batch-${kind}@example.com`, 'business');
      const verifyAccount = await createAccount(db.store, `chaos-verify-${kind}@example.com`, 'business');
      const rows = numbers(400, 30);
      const res = await upload(api.url, batchAccount.apiKey, { name: 'chaos.csv', body: `b_no\n${rows.join('\n')}\n` });
      assert.equal(res.status, 202, JSON.stringify(res.body));

      // single lookups at the same time, four clients one after another
      const singles = numbers(48, 31);
      const answers = (await Promise.all([0, 1, 2, 3].map(async (s) => {
        const out = [];
        for (const b_no of singles.filter((_, i) => i % 4 === s)) out.push(await call(api.url, 'POST', '/verify', { key: verifyAccount.apiKey, body: { b_no } }));
        return out;
      }))).flat();
      for (const a of answers) {
        assert.ok(a.status === 200 || a.status === 503, `${a.status} ${JSON.stringify(a.body)}`);
        if (a.status === 200) assert.ok(ANSWERS.has(a.body.biz_status), JSON.stringify(a.body));
        else assert.equal(a.body.code, 'upstream_unavailable');
      }
      const granted = answers.filter((a) => a.status === 200).length;
      const verifyMe = await call(api.url, 'GET', '/me', { key: verifyAccount.apiKey });
      assert.equal(verifyMe.body.quota.used, granted, 'only answered lookups are charged');

      const done = await waitForJob(api.url, batchAccount.apiKey, res.body.job_id, 120_000, '?preview=0');
      assert.equal(done.body.status, 'done', JSON.stringify(done.body));
      const results = await call(api.url, 'GET', `/batch/${res.body.job_id}/results?format=json`, { key: batchAccount.apiKey });
      assert.equal(results.body.length, rows.length);
      const statuses: string[] = results.body.map((r: { biz_status: string }) => r.biz_status);
      for (const s of statuses) assert.ok(ANSWERS.has(s) || s === 'unknown', s);
      const unknown = statuses.filter((s) => s === 'unknown').length;
      assert.equal(done.body.refunded, unknown, 'each unanswered number refunded');
      const batchMe = await call(api.url, 'GET', '/me', { key: batchAccount.apiKey });
      assert.equal(batchMe.body.quota.used, rows.length - unknown, 'only answered numbers stay charged');

      const faults: Record<string, number> = {};
      for (const f of ['ok', 'http_5xx', 'timeout', 'malformed']) {
        faults[f] = (await Promise.all(all.map((p) => metric(p.url, 'bizcheck_upstream_attempts_total', { outcome: f })))).reduce((a, b) => a + b, 0);
      }
      t.diagnostic(`single lookups: ${granted}/${answers.length} answered; batch: ${unknown}/${rows.length} unknown; NTS attempts ${JSON.stringify(faults)}`);
      for (const f of ['http_5xx', 'timeout', 'malformed']) assert.ok(faults[f]! > 0, `the chaos included ${f}`);
      for (const p of all) {
        assert.ok(p.alive(), `${p.name} is alive: ${p.errors()}`);
        assert.equal((await call(p.url, 'GET', '/healthz')).status, 200);
      }
    });

    test('a full outage opens the breaker (readiness says degraded, still 200), and recovery closes it', T, async () => {
      const { apiKey } = await createAccount(db.store, `chaos-breaker-${kind}@example.com`, 'business');
      const fresh = numbers(200, 32);
      let next = 0;
      const healthy = async (what: string) =>
        eventually(what, 60, 200, async () => {
          const r = await call(api.url, 'POST', '/verify', { key: apiKey, body: { b_no: fresh[next++] } });
          const ready = await call(api.url, 'GET', '/readyz');
          return r.status === 200 && ready.body.upstream === 'closed' ? ready : undefined;
        });
      // from a closed breaker (the chaos above may have left it open)
      nts.setOptions({ errorRate: 0, timeoutRate: 0, malformedRate: 0, slowRate: 0 });
      await healthy('breaker closed before the outage');
      const opensBefore = await metric(api.url, 'bizcheck_upstream_breaker_transitions_total', { to: 'open' });
      const closesBefore = await metric(api.url, 'bizcheck_upstream_breaker_transitions_total', { to: 'closed' });

      nts.setOptions({ errorRate: 1 });
      const opened = await eventually('breaker open', 30, 100, async () => {
        const r = await call(api.url, 'POST', '/verify', { key: apiKey, body: { b_no: fresh[next++] } });
        assert.equal(r.status, 503, JSON.stringify(r.body));
        const ready = await call(api.url, 'GET', '/readyz');
        return ready.body.upstream === 'open' ? { ...ready, seenAt: Date.now() } : undefined;
      });
      assert.equal(opened.status, 200);
      assert.equal(opened.body.status, 'degraded');
      assert.equal(await metric(api.url, 'bizcheck_upstream_breaker_state'), 2);
      // while open (2 s before a trial call), a lookup fails at once without calling NTS; checked
      // only when this machine was quick enough to ask well within those 2 s
      const callsBefore = nts.calls;
      const fast = await call(api.url, 'POST', '/verify', { key: apiKey, body: { b_no: fresh[next++] } });
      assert.equal(fast.status, 503);
      if (Date.now() - opened.seenAt < 1500) assert.equal(nts.calls, callsBefore, 'no call while the breaker is open');

      nts.setOptions({ errorRate: 0 });
      const closed = await healthy('breaker closed after recovery');
      assert.equal(closed.body.status, 'ready');
      assert.equal(await metric(api.url, 'bizcheck_upstream_breaker_transitions_total', { to: 'open' }), opensBefore + 1);
      assert.equal(await metric(api.url, 'bizcheck_upstream_breaker_transitions_total', { to: 'closed' }), closesBefore + 1);
      assert.equal(await metric(api.url, 'bizcheck_upstream_breaker_state'), 0);
    });
  });
}
