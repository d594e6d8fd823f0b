// Rows stored a chunk at a time, numbers shared between chunks, results rebuilt when read: over
// HTTP against the fake NTS, on both stores.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkDigitOf, transposedNeighbours } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(400000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
/** the parts of a result that come from the NTS answer alone */
const ntsPart = (r: Record<string, unknown>) => [r.b_no, r.biz_status, r.closed_on, r.tax_type, r.entity_type, r.checked_at, r.stale];

describeEachStore('batch rows across chunks', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ latencyMs: 20, seed: 3 });
    // no waiting for NTS here: an outage settles rows as unknown at once (waiting: upstream-wait.test.ts)
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, BATCH_CHUNK_ROWS: '10', BATCH_WORKER_CONCURRENCY: '3', BATCH_UPSTREAM_WAIT_SECONDS: '0' });
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('a number in many chunks is looked up and charged once; rows with and without a name agree on it; unscored rows can be labelled', async () => {
    const { apiKey } = await srv.account('business');
    // 60 rows over 12 numbers in chunks of 10: every number is in several chunks; every fifth row has a name
    const lines = Array.from({ length: 60 }, (_, i) => `${valid(i % 12)},${i % 5 === 0 ? `상호${i}` : ''}`);
    const askedBefore = nts.received.length;
    const res = await upload(srv.url, apiKey, { name: 'shared.csv', body: `사업자등록번호,상호\n${lines.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.distinct_numbers, 12);
    const done = await waitForJob(srv.url, apiKey, res.body.job_id);
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    assert.equal(Object.values(done.body.counts.biz_status as Record<string, number>).reduce((a, b) => a + b, 0), 60);
    assert.equal(Object.values(done.body.counts.grade as Record<string, number>).reduce((a, b) => a + b, 0), 12, 'one grade per named row');
    const asked = nts.received.slice(askedBefore).flat();
    const listed = Array.from({ length: 12 }, (_, i) => valid(i));
    assert.deepEqual(asked.filter((b) => listed.includes(b)).toSorted(), listed.toSorted(), 'each number asked once');
    // and, once each, the swapped-digit neighbours of the named rows' unregistered numbers (live-neighbours.ts)
    const neighbours = asked.filter((b) => !listed.includes(b));
    assert.equal(new Set(neighbours).size, neighbours.length, 'each neighbour asked once');
    for (const b of neighbours) assert.ok(listed.some((l) => transposedNeighbours(l).includes(b)), b);
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, 12);

    const rows = (await call(srv.url, 'GET', `/batch/${res.body.job_id}/results?format=json`, { key: apiKey })).body as Record<string, unknown>[];
    assert.equal(rows.length, 60);
    for (let n = 0; n < 12; n++) {
      const same = rows.filter((r) => r.b_no === valid(n));
      assert.ok(same.some((r) => r.grade !== null) && same.some((r) => r.grade === null), `number ${n} has scored and unscored rows`);
      for (const r of same) assert.deepEqual(ntsPart(r), ntsPart(same[0]!), `row ${String(r.row_id)}`);
    }
    const preview = (await call(srv.url, 'GET', `/batch/${res.body.job_id}?preview=25`, { key: apiKey })).body.preview as { row_id: number; result: Record<string, unknown> }[];
    assert.deepEqual(preview.map((p) => p.row_id), Array.from({ length: 25 }, (_, i) => i + 1), 'preview runs across chunks');
    assert.deepEqual(preview.map((p) => ntsPart(p.result)), rows.slice(0, 25).map(ntsPart));

    const label = await call(srv.url, 'POST', `/batch/${res.body.job_id}/label`, { key: apiKey, body: { row_id: 2, bounced: true } });
    assert.equal(label.status, 200, JSON.stringify(label.body));
    assert.equal(label.body.model_version, null, 'row 2 has no name: it was not scored');
  });

  test('numbers in many chunks that get no answer are refunded once each', async () => {
    const { apiKey } = await srv.account('business');
    nts.setOptions({ errorRate: 1 });
    try {
      const lines = Array.from({ length: 40 }, (_, i) => valid(100 + (i % 8)));
      const res = await upload(srv.url, apiKey, { name: 'down.csv', body: `b_no\n${lines.join('\n')}\n` });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.charged, 8);
      const done = await waitForJob(srv.url, apiKey, res.body.job_id, 60_000);
      assert.equal(done.body.status, 'done', JSON.stringify(done.body));
      assert.deepEqual(done.body.counts.biz_status, { unknown: 40 });
      assert.equal(done.body.refunded, 8, 'each number once, however many chunks it is in');
      assert.equal(done.body.charged, 0);
      assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, 0);
    } finally {
      nts.setOptions({ errorRate: 0 });
    }
  });
});
