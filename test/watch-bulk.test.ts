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

  test('the list is narrowed by status and searched by number or name, with a count of what matches', async () => {
    const { apiKey: key } = await srv.account('business');
    const body = [
      { biz_no: '1248100998', name: '한빛상사' }, { biz_no: '3333333336', name: '우리 50% 할인마트' }, { biz_no: '3030303038', name: 'Hanbit_Trading' },
      { biz_no: '2222222227', name: '한빛 물산' }, { biz_no: '1111111119' },
    ];
    assert.equal((await call(srv.url, 'POST', '/watch', { key, body })).status, 207);
    const list = async (query: string) => {
      const res = await call(srv.url, 'GET', `/watch?${query}`, { key });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const closed = await list('status=closed');
    assert.deepEqual(closed.data.map((w: any) => w.biz_no).toSorted(), ['3030303038', '3333333336']);
    assert.deepEqual([closed.total, closed.matching], [5, 2]);
    assert.deepEqual((await list('status=suspended')).data.map((w: any) => w.biz_no), ['2222222227']);
    assert.equal((await list('status=unknown')).matching, 0, 'every entry was answered at registration');
    assert.deepEqual((await list(`q=${encodeURIComponent('124-81')}`)).data.map((w: any) => w.biz_no), ['1248100998'], 'a number as people write it, from its start');
    assert.equal((await list('q=81')).matching, 0, 'digits match from the start, not anywhere');
    assert.equal((await list('q=3')).matching, 2);
    assert.deepEqual((await list('q=1111111119')).data.map((w: any) => w.biz_no), ['1111111119'], 'a whole number ending in 9');
    assert.equal((await list('q=999')).matching, 0);
    assert.deepEqual((await list(`q=${encodeURIComponent('한빛')}`)).data.map((w: any) => w.name).toSorted(), ['한빛 물산', '한빛상사'], 'a piece of the name');
    assert.deepEqual((await list(`q=${encodeURIComponent('한빛')}&status=active`)).data.map((w: any) => w.name), ['한빛상사'], 'both narrow');
    assert.deepEqual((await list('q=hanbit_')).data.map((w: any) => w.name), ['Hanbit_Trading'], 'case-blind; _ is a character, not a wildcard');
    assert.deepEqual((await list(`q=${encodeURIComponent('50%')}`)).data.map((w: any) => w.biz_no), ['3333333336'], '% is a character, not a wildcard');
    assert.equal((await list(`q=${encodeURIComponent('%')}`)).matching, 1);
    // pages of a filtered list carry on under the same filter
    const first = await list('status=closed&limit=1');
    assert.equal(first.data.length, 1);
    const second = await list(`status=closed&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`);
    assert.equal(second.data.length, 1);
    assert.equal(second.next_cursor, null);
    assert.notEqual(second.data[0].biz_no, first.data[0].biz_no);
    const plain = await list('');
    assert.equal(plain.matching, undefined, 'no filter, no second count');
    for (const bad of ['status=invalid', 'status=gone', `q=${'가'.repeat(101)}`]) {
      const res = await call(srv.url, 'GET', `/watch?${bad}`, { key });
      assert.equal(res.status, 400, bad);
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    }
  });

});
