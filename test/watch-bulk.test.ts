// Watching a supplier list in bulk over HTTP: POST /watch with an array (each entry answered on
// its own, charged per new answered number) and POST /batch/{job_id}/watch (a finished job's
// numbers, first checked by the job's own answers: no second charge), on each store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(710000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

describeEachStore('bulk watch registration', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());
  const used = async (key: string) => (await call(srv.url, 'GET', '/me', { key })).body.quota.used as number;

  test('an array is answered entry by entry: created, already watched, bad number; duplicates count once', async () => {
    const { apiKey: key } = await srv.account('business');
    const first = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: valid(0) } });
    assert.equal(first.status, 201);
    const usedBefore = await used(key);
    const body = [
      { biz_no: valid(0) }, { biz_no: valid(1), name: '한빛상사' }, { biz_no: '1234567890' }, { biz_no: valid(2) }, { biz_no: valid(1) },
    ];
    const res = await call(srv.url, 'POST', '/watch', { key, body });
    assert.equal(res.status, 207, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.map((d: any) => d.status), [200, 201, 400, 201, 201]);
    assert.equal(res.body.data[0].watch.watch_id, first.body.watch_id);
    assert.equal(res.body.data[1].watch.watch_id, res.body.data[4].watch.watch_id, 'the same number twice is one entry');
    assert.equal(res.body.data[1].watch.name, '한빛상사');
    assert.ok(res.body.data[1].watch.grade, 'named entries are assessed at once');
    assert.equal(res.body.data[2].error.code, 'invalid_b_no');
    assert.deepEqual([res.body.created, res.body.existing, res.body.refused], [3, 1, 1]);
    assert.equal(await used(key), usedBefore + 2, 'two new numbers answered, two lookups');
    const list = await call(srv.url, 'GET', '/watch?limit=2', { key });
    assert.equal(list.body.data.length, 2);
    assert.equal(list.body.total, 3, 'the list says how long it is');
  });

  test('malformed bulk bodies are 400 and register nothing', async () => {
    const { apiKey: key } = await srv.account('business');
    for (const body of [[], Array.from({ length: 1001 }, (_, i) => ({ biz_no: valid(i) })), [{ biz_no: valid(5), extra: 1 }], [{ biz_no: 5 }], [{ biz_no: valid(6), name: '한빛\u0000상사' }], [{ biz_no: valid(7), name: 'x'.repeat(300_000) }]]) {
      const res = await call(srv.url, 'POST', '/watch', { key, body });
      assert.ok(res.status === 400 || res.status === 413, `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    assert.equal((await call(srv.url, 'GET', '/watch', { key })).body.data.length, 0);
  });

  test('a finished job\'s numbers are watched with its answers as their first check, charged nothing more', async () => {
    const { apiKey: key } = await srv.account('business');
    const numbers = Array.from({ length: 30 }, (_, i) => valid(100 + i));
    const rows = [...numbers, numbers[0], '1234567890'].map((n, i) => `${n},상호${i},서울특별시 강남구 테헤란로 ${i + 1}`);
    const job = await upload(srv.url, key, { name: 'suppliers.csv', body: `사업자등록번호,상호,주소\n${rows.join('\n')}\n` });
    assert.equal(job.status, 202, JSON.stringify(job.body));
    const done = await waitForJob(srv.url, key, job.body.job_id);
    assert.equal(done.body.status, 'done');
    const usedBefore = await used(key);
    const res = await call(srv.url, 'POST', `/batch/${job.body.job_id}/watch`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.created, res.body.existing, res.body.refused], [30, 0, 0]);
    assert.equal(await used(key), usedBefore, 'no second charge');
    const list = (await call(srv.url, 'GET', '/watch?limit=100', { key })).body.data;
    assert.equal(list.length, 30);
    const one = list.find((w: any) => w.biz_no === numbers[3]);
    assert.equal(one.name, '상호3');
    assert.ok(one.last_checked_at, 'checked: the job\'s answer');
    const again = await call(srv.url, 'POST', `/batch/${job.body.job_id}/watch`, { key });
    assert.deepEqual([again.body.created, again.body.existing], [0, 30]);
    // another account's job is unknown; a job still running cannot be watched yet
    const { apiKey: other } = await srv.account('business');
    assert.equal((await call(srv.url, 'POST', `/batch/${job.body.job_id}/watch`, { key: other })).status, 404);
  });
});
