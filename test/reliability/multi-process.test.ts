// Two API processes and two worker processes on one PostgreSQL: a batch job is processed
// exactly once, the monthly quota stays exact when both API processes are asked at once, and
// each closure of a watched business is notified once, under one event id.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { sandboxRecord } from '../../src/registry/sandbox.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { quotaMonth } from '../../src/domain/quota-period.ts';
import { startFakeNts, type FakeNts } from '../../src/registry/fake-nts-server.ts';
import { SANDBOX_FIXED } from '../../src/registry/sandbox.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { call } from '../helpers/server.ts';
import { metric, numbers, openTestDb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 120_000 };

reliabilitySuite('two API and two worker processes on one PostgreSQL', { needsPostgres: true }, () => {
  let db: TestDb;
  let nts: FakeNts;
  const procs = new Processes();
  let api: ServerProcess[];
  let workers: ServerProcess[];
  let receiver: Receiver;

  before(async () => {
    db = await openTestDb('postgres');
    nts = await startFakeNts({ latencyMs: 30 });
    receiver = await startReceiver();
    const env = {
      ...db.env, NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url,
      BATCH_CHUNK_ROWS: '50', BATCH_WORKER_CONCURRENCY: '2', BATCH_LEASE_SECONDS: '30',
      WATCH_POLL_SECONDS: '1', WATCH_CLAIM_SIZE: '5', WEBHOOK_POLL_SECONDS: '1', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true',
    };
    [api, workers] = await Promise.all([
      Promise.all([procs.start('api-1', 'api', env), procs.start('api-2', 'api', env)]),
      Promise.all([procs.start('worker-1', 'worker', env), procs.start('worker-2', 'worker', env)]),
    ]);
  });
  after(async () => {
    await procs.stopAll();
    await nts?.close();
    await receiver?.close();
    await db?.cleanup();
  });

  test('a batch job uploaded to one API process is processed exactly once by the two workers', T, async () => {
    const { apiKey } = await createAccount(db.store, 'multi-batch@example.com', 'business');
    const distinct = numbers(1000, 1);
    // every number twice, far apart: still one lookup and one charge each
    const rows = [...distinct, ...distinct];
    const res = await upload(api[0]!.url, apiKey, { name: 'many.csv', body: `사업자등록번호\n${rows.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitForJob(api[1]!.url, apiKey, res.body.job_id, 90_000, '?preview=0');
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    assert.equal(done.body.processed, rows.length);
    const counted = Object.values(done.body.counts.biz_status as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(counted, rows.length, 'each row counted once');

    const results = await call(api[0]!.url, 'GET', `/batch/${res.body.job_id}/results?format=json`, { key: apiKey });
    assert.equal(results.body.length, rows.length);
    assert.ok(results.body.every((r: { biz_status: string }) => r.biz_status !== 'pending' && r.biz_status !== 'unknown'));

    // no chunk was looked up twice: every number reached NTS exactly once, with no faults to retry
    const asked = new Map<string, number>();
    for (const sent of nts.received) for (const b of sent) asked.set(b, (asked.get(b) ?? 0) + 1);
    for (const b of distinct) assert.equal(asked.get(b), 1, `${b} asked ${asked.get(b) ?? 0} times`);

    // rows committed, as the workers count them: all of them, once; the API processes commit none
    const perWorker = await Promise.all(workers.map((w) => metric(w.url, 'bizcheck_batch_rows_processed_total')));
    assert.equal(perWorker[0]! + perWorker[1]!, rows.length, `worker split ${perWorker.join(' + ')}`);
    for (const a of api) assert.equal(await metric(a.url, 'bizcheck_batch_rows_processed_total'), 0);
    const lost = await Promise.all(workers.map((w) => metric(w.url, 'bizcheck_batch_chunks_total', { outcome: 'lease_lost' })));
    assert.deepEqual(lost, [0, 0]);

    const me = await call(api[1]!.url, 'GET', '/me', { key: apiKey });
    assert.equal(me.body.quota.used, distinct.length, 'charged once per distinct number');
    assert.equal(done.body.refunded, 0);
  });

  test('one lookup left and 50 concurrent requests across both API processes: exactly one is granted (20 rounds)', T, async () => {
    const bnos = SANDBOX_FIXED.map((f) => f.bno);
    for (let round = 0; round < 20; round++) {
      const { account, apiKey } = await createAccount(db.store, `multi-quota-${round}@example.com`, 'business');
      await db.store.accounts.setQuotaLimit(account.id, 7);
      assert.deepEqual(await db.store.usage.reserve(account.id, quotaMonth(new Date()), 6, 7), { granted: true, used: 6 });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(api[i % 2]!.url, 'POST', '/verify', { key: apiKey, body: { b_no: bnos[i % bnos.length] } })),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${statuses.join(',')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 49, `round ${round}`);
      const usage = await db.store.usage.get(account.id, quotaMonth(new Date()));
      assert.deepEqual(usage, { used: 7, overage: 0 }, `round ${round}`);
    }
  });
  test('each closure of a watched business is notified once, under one event id, by the two workers', T, async () => {
    const { apiKey } = await createAccount(db.store, 'multi-watch@example.com', 'business');
    assert.equal((await call(api[0]!.url, 'PUT', '/webhook', { key: apiKey, body: { url: receiver.url } })).status, 200);
    const watched = numbers(40, 7);
    const closing: string[] = [];
    for (const [i, bno] of watched.entries()) {
      const res = await call(api[i % 2]!.url, 'POST', '/watch', { key: apiKey, body: { biz_no: bno } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      if (i % 2 === 0 && res.body.biz_status !== 'closed') closing.push(res.body.watch_id as string);
    }
    const byWatch = new Map((await call(api[0]!.url, 'GET', '/watch?limit=1000', { key: apiKey })).body.data.map((w: { watch_id: string; biz_no: string }) => [w.watch_id, w.biz_no]));
    const overrides = new Map(closing.map((id) => {
      const bno = byWatch.get(id) as string;
      return [bno, { ...sandboxRecord(bno), b_no: bno, b_stt: '폐업자', b_stt_cd: '03' as const, end_dt: '20261121' }];
    }));
    nts.setOptions({ overrides });
    // a day passes: every entry is due and every cached answer too old to stand for a re-check
    const client = new pg.Client({ connectionString: db.env.DATABASE_URL, options: `-c search_path=${db.env.DATABASE_SCHEMA}` });
    await client.connect();
    try {
      await client.query("UPDATE status_cache SET checked_at = checked_at - interval '2 days', expires_at = expires_at - interval '2 days'");
      await client.query('UPDATE watches SET next_check_at = now()');
    } finally {
      await client.end();
    }
    await receiver.waitFor(2 * closing.length, 60_000);
    // time for a second delivery of anything to show up
    await new Promise((r) => setTimeout(r, 3000));
    const events = receiver.received.map((r) => ({ id: String(r.headers['webhook-id']), ...(JSON.parse(r.body) as { type: string; data: { watch_id: string } }) }));
    const closed = events.filter((e) => e.type === 'watch.closed');
    assert.deepEqual(closed.map((e) => e.data.watch_id).toSorted(), closing.toSorted(), 'one watch.closed per closure');
    assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'every event id delivered once');
    assert.equal(events.length, 2 * closing.length, 'watch.changed and watch.closed per closure, nothing else');
    const checks = await Promise.all(workers.map((w) => metric(w.url, 'bizcheck_watch_checks_total', { outcome: 'checked' })));
    assert.equal(checks[0]! + checks[1]!, watched.length, `each entry re-checked once (${checks.join(' + ')})`);
    for (const a of api) assert.equal(await metric(a.url, 'bizcheck_watch_checks_total', { outcome: 'checked' }), 0, 'API processes run no scheduler');
  });
});
