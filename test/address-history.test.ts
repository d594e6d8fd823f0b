// What an account's recorded outcomes at an address say of the next letter there: they are
// counted by delivery point (the building and the unit the address names), so the returned
// letters of one tenant of a building weigh on the next letter to that unit, not on its neighbours'.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { formatWithHyphens } from '../src/domain/bizno.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const active = (n: number) => SANDBOX_FIXED.filter((f) => f.status === 'active')[n]!.bno;

describeEachStore('address history by delivery point', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind);
    ({ apiKey: key } = await srv.account('business'));
    // three businesses that were at 301호 of one building, each of whose letters came back
    const lines = ['사업자등록번호,상호,주소', ...[0, 1, 2].map((n) => `${formatWithHyphens(active(n))},상회${n + 1},서울 강남구 테헤란로 152 3층 301호`)];
    const job = (await upload(srv.url, key, { name: 'customers.csv', body: lines.join('\n') })).body.job_id as string;
    assert.equal((await waitForJob(srv.url, key, job)).body.status, 'done');
    const res = await call(srv.url, 'POST', `/batch/${job}/labels`, { key, body: [1, 2, 3].map((rowId) => ({ row_id: rowId, reason: '수취인불명' })) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.recorded, 3);
  });
  after(async () => srv.close());

  const verify = async (address: string) => {
    const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: active(3), name: '새상회', address } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const history = (res.body.reasons as string[]).find((r) => r.startsWith('[address_history '));
    return { prob: res.body.bounce_prob as number, history };
  };

  test('the same unit, however it is written, carries the returned letters; another unit or the building alone does not', async () => {
    const same = await verify('서울 강남구 테헤란로 152 3층 301호');
    assert.match(same.history ?? '', /^\[address_history \+/, 'three returned letters at this unit count against the next one');
    // the 호 names the unit: written without its 층, or with the 시 spelled out, it is the same door
    assert.equal((await verify('서울특별시 강남구 테헤란로 152, 301호')).history, same.history);
    const neighbour = await verify('서울 강남구 테헤란로 152 7층 701호');
    assert.equal(neighbour.history, undefined, 'a neighbour on another floor is not where those letters went');
    assert.equal((await verify('서울 강남구 테헤란로 152')).history, undefined);
    assert.ok(same.prob > neighbour.prob, `${same.prob} > ${neighbour.prob}`);
  });
});
