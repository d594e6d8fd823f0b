// Retention of customers' lists, over HTTP on each store with the server's clock moved by hand:
// a finished job's rows and results expire after BATCH_RETENTION_DAYS (or the account's own
// retention, set by the operator); the job still answers with its counts and when it expired, its
// downloads and labels say 410 Gone, its labels keep what the model was fed, and no trace of its
// rows' names and addresses is left in the tables — nor, embedded, in the database's files.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { setBatchRetention } from '../src/accounts/accounts.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';
import { databaseFiles, everyRow, sqlOf } from './helpers/traces.ts';

const DAY = 86_400_000;
const valid = (i: number) => {
  const nine = String(470000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

describeEachStore('batch job retention', (kind) => {
  let srv: TestServer;
  let clock = Date.now();
  before(async () => {
    // chunks of 10 rows: a job's rows go over several chunks
    srv = await startTestServer(kind, { RETENTION_SWEEP_SECONDS: '86400', BATCH_CHUNK_ROWS: '10' }, { now: () => new Date(clock) });
  });
  after(async () => srv.close());

  async function job(key: string, marker: string): Promise<string> {
    const rows = Array.from({ length: 48 }, (_, i) => `${valid(i)},상회${marker}-${i},서울특별시 중구 보관길${marker} ${i + 1}`);
    const res = await upload(srv.url, key, { name: `목록-${marker}.csv`, body: `사업자등록번호,상호,주소\n${rows.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal((await waitForJob(srv.url, key, res.body.job_id)).body.status, 'done');
    return res.body.job_id as string;
  }

  test('jobs expire after the default retention or the account\'s own; the job stays with its counts, its rows are gone', async () => {
    const a = await srv.account('business');
    const b = await srv.account('business');
    await setBatchRetention(srv.store, b.accountId, 7);
    const [markA, markB] = [randomBytes(5).toString('hex'), randomBytes(5).toString('hex')];
    const jobA = await job(a.apiKey, markA);
    const jobB = await job(b.apiKey, markB);
    const label = await call(srv.url, 'POST', `/batch/${jobA}/label`, { key: a.apiKey, body: { row_id: 2, bounced: true, reason: `이사감 ${markA}` } });
    assert.equal(label.status, 200, JSON.stringify(label.body));
    const countsA = (await call(srv.url, 'GET', `/batch/${jobA}`, { key: a.apiKey })).body.counts;

    // a week and a day on: only B's job, by B's own retention
    clock += 8 * DAY;
    const first = await srv.retention.runOnce();
    assert.deepEqual([first.swept, first.expired], [true, 1]);
    assert.equal(first.chunksDeleted, 5, JSON.stringify(first));
    const b1 = await call(srv.url, 'GET', `/batch/${jobB}?preview=5`, { key: b.apiKey });
    assert.equal(b1.status, 200);
    assert.equal(b1.body.status, 'done');
    assert.equal(b1.body.expired_at, new Date(clock).toISOString());
    assert.equal(b1.body.total, 48);
    assert.equal(Object.values(b1.body.counts.biz_status as Record<string, number>).reduce((x, y) => x + y, 0), 48, 'the counts remain');
    assert.deepEqual(b1.body.preview, []);
    assert.equal(b1.body.file.name, null, 'the file name goes with the rows');
    const gone = await call(srv.url, 'GET', `/batch/${jobB}/results?format=csv`, { key: b.apiKey });
    assert.equal(gone.status, 410);
    assert.match(gone.headers.get('content-type') ?? '', /problem\+json/);
    assert.equal(gone.body.expired_at, b1.body.expired_at);
    assert.equal((await call(srv.url, 'POST', `/batch/${jobB}/label`, { key: b.apiKey, body: { row_id: 1, bounced: true } })).status, 410);
    assert.equal((await call(srv.url, 'POST', `/batch/${jobB}/watch`, { key: b.apiKey })).status, 410);
    const listed = (await call(srv.url, 'GET', '/batch', { key: b.apiKey })).body.jobs;
    assert.equal(listed[0].expired_at, b1.body.expired_at);
    // A's job is untouched
    assert.equal((await call(srv.url, 'GET', `/batch/${jobA}/results?format=csv`, { key: a.apiKey })).status, 200);
    assert.equal((await call(srv.url, 'GET', `/batch/${jobA}`, { key: a.apiKey })).body.expired_at, null);
    const mid = await everyRow(srv);
    assert.doesNotMatch(mid, new RegExp(markB));
    assert.match(mid, new RegExp(markA));

    // past 90 days: A's job too; its label stays for the model, without address and reason
    clock += 83 * DAY;
    const second = await srv.retention.runOnce();
    assert.equal(second.expired, 1);
    const a2 = await call(srv.url, 'GET', `/batch/${jobA}?preview=5`, { key: a.apiKey });
    assert.deepEqual(a2.body.counts, countsA);
    assert.ok(a2.body.expired_at);
    assert.equal((await srv.store.labels.counts(a.accountId, valid(1), null)).bizBounced, 1);
    const all = await everyRow(srv);
    assert.doesNotMatch(all, new RegExp(`${markA}|${markB}`), 'no name, address, reason or file name in any table');
    if (kind === 'sqlite') assert.doesNotMatch(databaseFiles(srv), new RegExp(`${markA}|${markB}`), 'nor in the database files');

    // nothing more to do; an expired job can still be deleted outright
    const idle = await srv.retention.runOnce();
    assert.deepEqual([idle.expired, idle.chunksDeleted, idle.evidenceDeleted], [0, 0, 0]);
    assert.equal((await call(srv.url, 'DELETE', `/batch/${jobA}`, { key: a.apiKey })).status, 200);
    assert.equal((await call(srv.url, 'GET', `/batch/${jobA}`, { key: a.apiKey })).status, 404);
  });
  test('evidence outlives the lists and goes after EVIDENCE_RETENTION_DAYS (five years)', async () => {
    const { apiKey: key } = await srv.account('business');
    const id = (await call(srv.url, 'POST', '/verify', { key, body: { b_no: valid(7) } })).body.verification_id as string;
    clock += 1825 * DAY;
    await srv.retention.runOnce();
    assert.equal((await call(srv.url, 'GET', `/verifications/${id}`, { key })).status, 200, 'kept for five years');
    clock += 2 * DAY;
    const round = await srv.retention.runOnce();
    assert.ok(round.evidenceDeleted >= 1, JSON.stringify(round));
    assert.equal((await call(srv.url, 'GET', `/verifications/${id}`, { key })).status, 404);
  });
  test('the tables that grow with traffic lose what is past its age: status cache, delivery log', async () => {
    const { apiKey: key } = await srv.account('business');
    assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no: valid(9) } })).status, 200);
    // a delivered webhook event in the log (as the deliverer leaves one)
    const sql = sqlOf(srv);
    const me = (await call(srv.url, 'GET', '/me', { key })).body.account_id as string;
    await sql.run("INSERT INTO webhook_deliveries (id, account_id, type, body, state, attempts, created_at, finished_at) VALUES (?, ?, 'webhook.test', '{}', 'delivered', 1, ?, ?)", [
      `msg_old_${me}`, me, new Date(clock).toISOString(), new Date(clock).toISOString(),
    ]);
    assert.equal((await srv.store.statusCache.getCachedStatuses([valid(9)])).size, 1);
    clock += 29 * DAY;
    await srv.retention.runOnce();
    assert.equal((await srv.store.statusCache.getCachedStatuses([valid(9)])).size, 1, 'kept within STATUS_CACHE_RETENTION_DAYS');
    clock += 2 * DAY;
    const round = await srv.retention.runOnce();
    assert.ok(round.housekeeping >= 1, JSON.stringify(round));
    assert.equal((await srv.store.statusCache.getCachedStatuses([valid(9)])).size, 0, 'gone after 30 days');
    assert.equal((await sql.all('SELECT id FROM webhook_deliveries WHERE id = ?', [`msg_old_${me}`])).length, 0, 'the delivery log past WEBHOOK_LOG_RETENTION_DAYS');
  });
  test('model versions nothing points to any more go; the newest and those labels or offsets name stay', async () => {
    const sql = sqlOf(srv);
    const [d400, d399, tomorrow] = [400, 399, -1].map((days) => new Date(clock - days * DAY).toISOString());
    for (const [version, created] of [['old-unused', d400], ['old-labelled', d399], ['newest', tomorrow]]) {
      await sql.run("INSERT INTO models (version, kind, params, trained_on, created_at) VALUES (?, 'logistic', '{}', 0, ?)", [version, created]);
    }
    const { accountId } = await srv.account('business');
    await sql.run(
      "INSERT INTO labels (account_id, job_id, row_id, b_no, bounced, features, model_version, created_at, updated_at) VALUES (?, 'job_gone', 1, '1248100998', true, '{}', 'old-labelled', ?, ?)",
      [accountId, d399, d399],
    );
    const round = await srv.retention.runOnce();
    assert.ok(round.housekeeping >= 1, JSON.stringify(round));
    const left = (await sql.all('SELECT version FROM models')).map((r) => String(r.version));
    assert.ok(!left.includes('old-unused'), left.join());
    assert.ok(left.includes('old-labelled') && left.includes('newest'), left.join());
  });
});

describeEachStore('batch job retention spares unfinished jobs', (kind) => {
  let srv: TestServer;
  let clock = Date.now();
  before(async () => {
    // no workers: a job stays queued
    srv = await startTestServer(kind, { RETENTION_SWEEP_SECONDS: '86400', BATCH_WORKER_CONCURRENCY: '0' }, { now: () => new Date(clock) });
  });
  after(async () => srv.close());

  test('a job that has not finished is not expired, however old', async () => {
    const { apiKey } = await srv.account('business');
    const res = await upload(srv.url, apiKey, { name: 'queued.csv', body: `사업자등록번호,상호\n${valid(1)},대기상회\n` });
    assert.equal(res.status, 202);
    clock += 400 * DAY;
    assert.equal((await srv.retention.runOnce()).expired, 0);
    const now = await call(srv.url, 'GET', `/batch/${res.body.job_id}?preview=1`, { key: apiKey });
    assert.deepEqual([now.body.status, now.body.expired_at, now.body.preview.length], ['queued', null, 1]);
  });
});
