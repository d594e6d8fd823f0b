// Deleting a job on request, over HTTP on each store: its rows, results and downloads are gone at
// once (404 after), another account cannot, a job still running is stopped and what it will not
// answer is refunded, its labels keep only what the model was fed; and no trace of a deleted
// row's name or address is left in any table — nor, embedded, anywhere in the database's files.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';
import { databaseFiles, everyRow } from './helpers/traces.ts';

const valid = (i: number) => {
  const nine = String(430000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

describeEachStore('deleting a job', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());
  const used = async (key: string) => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  test('its rows, results and downloads are gone at once; its labels keep the outcome and lose the address and reason', async () => {
    const { apiKey: key } = await srv.account('business');
    const marker = randomBytes(6).toString('hex');
    const name = `홍길순상회${marker}`;
    const address = `서울특별시 종로구 비밀길${marker} 12`;
    const reason = `수취인불명 (홍길순 ${marker} 이사)`;
    const rows = [`${valid(1)},${name},${address}`, `${valid(2)},다른상회,부산광역시 해운대구 해운대로 1`];
    const job = await upload(srv.url, key, { name: `거래처-${marker}.csv`, body: `사업자등록번호,상호,주소\n${rows.join('\n')}\n` });
    assert.equal(job.status, 202, JSON.stringify(job.body));
    const id = job.body.job_id as string;
    assert.equal((await waitForJob(srv.url, key, id)).body.status, 'done');
    const label = await call(srv.url, 'POST', `/batch/${id}/label`, { key, body: { row_id: 1, bounced: true, reason } });
    assert.equal(label.status, 200, JSON.stringify(label.body));
    assert.match(await everyRow(srv), new RegExp(marker), 'the marker is there before');
    if (kind === 'sqlite') assert.match(databaseFiles(srv), new RegExp(marker), 'and in the files');
    const usedBefore = await used(key);

    const { apiKey: other } = await srv.account('business');
    const stranger = await call(srv.url, 'DELETE', `/batch/${id}`, { key: other });
    assert.equal(stranger.status, 404);
    assert.match(stranger.headers.get('content-type') ?? '', /problem\+json/);
    assert.equal((await call(srv.url, 'GET', `/batch/${id}`, { key })).status, 200, 'another account deleted nothing');

    const res = await call(srv.url, 'DELETE', `/batch/${id}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { job_id: id, deleted: true, refunded: 0, labels_kept: 1 });
    for (const p of [`/batch/${id}`, `/batch/${id}/results?format=csv`]) assert.equal((await call(srv.url, 'GET', p, { key })).status, 404, p);
    assert.equal((await call(srv.url, 'DELETE', `/batch/${id}`, { key })).status, 404, 'deleting twice');
    assert.equal((await call(srv.url, 'GET', '/batch', { key })).body.jobs.length, 0, 'not in the job list');
    assert.equal(await used(key), usedBefore, 'a finished job refunds nothing: its lookups were made');

    // the label is kept for the model, by number and outcome only
    const account = (await call(srv.url, 'GET', '/me', { key })).body.account_id as string;
    const counts = await srv.store.labels.counts(account, valid(1), null);
    assert.equal(counts.bizBounced, 1, 'the number still counts its bounce');
    const all = await everyRow(srv);
    assert.doesNotMatch(all, new RegExp(marker), 'no table holds the name, address, reason or file name');
    if (kind === 'sqlite') assert.doesNotMatch(databaseFiles(srv), new RegExp(marker), 'nor do the database files');
  });

  test('a job given as another account\'s or as nonsense is 404, with nothing deleted', async () => {
    const { apiKey: key } = await srv.account('business');
    for (const id of ['job_nope', 'x'.repeat(64)]) {
      const res = await call(srv.url, 'DELETE', `/batch/${id}`, { key });
      assert.equal(res.status, 404, id);
    }
    assert.equal((await call(srv.url, 'DELETE', '/batch/job_x', {})).status, 401);
  });
});

describeEachStore('deleting a job that is still running', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k', seed: 9 });
    srv = await startTestServer(kind, {
      NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '300', NTS_BREAKER_HALF_OPEN_SECONDS: '1',
      BATCH_CHUNK_ROWS: '10', BATCH_WORKER_CONCURRENCY: '1', BATCH_UPSTREAM_RETRY_SECONDS: '1',
    });
  });
  after(async () => {
    await srv?.close();
    await nts?.close();
  });

  test('it is stopped, the numbers it will not answer are refunded, and the workers carry on', async () => {
    const { apiKey: key } = await srv.account('business');
    const usedAtStart = (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;
    // 10 numbers answered first (cached), then 30 that wait for NTS, one of them twice across chunks
    const cached = Array.from({ length: 10 }, (_, i) => valid(100 + i));
    for (const b_no of cached) assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no } })).status, 200);
    const afterVerify = (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;
    const waiting = Array.from({ length: 30 }, (_, i) => valid(200 + i));
    nts.setOptions({ errorRate: 1 });
    try {
      const job = await upload(srv.url, key, { name: 'running.csv', body: `b_no\n${[...cached, ...waiting, waiting[0]].join('\n')}\n` });
      assert.equal(job.status, 202, JSON.stringify(job.body));
      const id = job.body.job_id as string;
      assert.equal(job.body.charged, 40);
      const deadline = Date.now() + 20_000;
      let body: any;
      do {
        await new Promise((r) => setTimeout(r, 100));
        body = (await call(srv.url, 'GET', `/batch/${id}?preview=0`, { key })).body;
      } while ((body.upstream_wait === null || body.processed < 10) && Date.now() < deadline);
      assert.equal(body.status, 'processing', JSON.stringify(body));
      assert.equal(body.processed, 10, 'the cached chunk is done, the rest waits');
      assert.equal((await call(srv.url, 'GET', '/me', { key })).body.quota.used, afterVerify + 40);

      const res = await call(srv.url, 'DELETE', `/batch/${id}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.refunded, 30, 'the 30 numbers never answered, the repeated one once');
      assert.equal((await call(srv.url, 'GET', '/me', { key })).body.quota.used, afterVerify + 10);
      assert.equal((await call(srv.url, 'GET', `/batch/${id}`, { key })).status, 404);
    } finally {
      nts.setOptions({ errorRate: 0 });
    }
    // the workers go on with other jobs
    const next = await upload(srv.url, key, { name: 'next.csv', body: `b_no\n${valid(300)}\n` });
    assert.equal((await waitForJob(srv.url, key, next.body.job_id)).body.status, 'done');
    assert.ok(usedAtStart >= 0);
  });
});
