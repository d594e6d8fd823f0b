// When NTS is down or the day's allowance is spent, batch jobs wait and resume by themselves, and
// single lookups answer from the cache or say when to come back: over HTTP, on each store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(500000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

/** Polls the job until `ok` holds (bounded). */
async function jobUntil(srv: TestServer, key: string, jobId: string, what: string, ok: (body: Record<string, any>) => boolean, ms = 20_000): Promise<Record<string, any>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await call(srv.url, 'GET', `/batch/${jobId}?preview=0`, { key });
    assert.equal(res.status, 200);
    if (ok(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`job never ${what}: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeEachStore('batch jobs wait out an NTS outage', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ seed: 5 });
    srv = await startTestServer(kind, {
      NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '300', NTS_BREAKER_HALF_OPEN_SECONDS: '1',
      BATCH_CHUNK_ROWS: '10', BATCH_WORKER_CONCURRENCY: '1', BATCH_UPSTREAM_RETRY_SECONDS: '1',
    });
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('an outage in the middle of a job: it waits, says why and since when, and finishes with every row answered', async () => {
    const { apiKey } = await srv.account('business');
    // the first 20 rows are cached, so their chunks finish before NTS goes down
    const cached = Array.from({ length: 20 }, (_, i) => valid(i));
    for (const b_no of cached) assert.equal((await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no } })).status, 200);
    const rows = [...cached, ...Array.from({ length: 30 }, (_, i) => valid(100 + i))];
    nts.setOptions({ errorRate: 1 });
    let recovered = false;
    try {
      const res = await upload(srv.url, apiKey, { name: 'outage.csv', body: `b_no\n${rows.join('\n')}\n` });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const waiting = await jobUntil(srv, apiKey, res.body.job_id, 'waiting', (b) => b.upstream_wait !== null);
      assert.equal(waiting.status, 'processing');
      assert.equal(waiting.processed, 20, 'the cached chunks are done, the rest waits');
      assert.match(waiting.upstream_wait.reason, /^upstream_unavailable: /);
      assert.ok(Date.parse(waiting.upstream_wait.since) <= Date.now());
      assert.ok(Date.parse(waiting.upstream_wait.gives_up_at) - Date.parse(waiting.upstream_wait.since) === 6 * 3600 * 1000, 'the default wait is 6 h');
      // still waiting a few retries later, nothing given up
      await new Promise((r) => setTimeout(r, 2500));
      const still = (await call(srv.url, 'GET', `/batch/${res.body.job_id}?preview=0`, { key: apiKey })).body;
      assert.equal(still.status, 'processing');
      assert.equal(still.processed, 20);
      assert.equal(still.refunded, 0);
      nts.setOptions({ errorRate: 0 });
      recovered = true;
      const done = await waitForJob(srv.url, apiKey, res.body.job_id, 30_000, '?preview=0');
      assert.equal(done.body.status, 'done', JSON.stringify(done.body));
      assert.equal(done.body.upstream_wait, null);
      assert.equal(done.body.counts.biz_status.unknown, undefined, JSON.stringify(done.body.counts));
      assert.equal(done.body.refunded, 0);
      assert.equal(done.body.charged, 50);
    } finally {
      if (!recovered) nts.setOptions({ errorRate: 0 });
    }
  });
});

describeEachStore('batch jobs stop waiting after BATCH_UPSTREAM_WAIT_SECONDS', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ seed: 6, errorRate: 1 });
    srv = await startTestServer(kind, {
      NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '300', BATCH_CHUNK_ROWS: '10', BATCH_UPSTREAM_RETRY_SECONDS: '1', BATCH_UPSTREAM_WAIT_SECONDS: '2',
    });
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('then the unanswered rows are unknown and refunded', async () => {
    const { apiKey } = await srv.account('business');
    const rows = Array.from({ length: 15 }, (_, i) => valid(300 + i));
    const res = await upload(srv.url, apiKey, { name: 'down.csv', body: `b_no\n${rows.join('\n')}\n` });
    // it waits first (the job says so), and only then settles
    const waiting = await jobUntil(srv, apiKey, res.body.job_id, 'waiting', (b) => b.upstream_wait !== null || b.status === 'done');
    assert.notEqual(waiting.upstream_wait, null, 'it waited first');
    assert.equal(waiting.refunded, 0);
    const done = await waitForJob(srv.url, apiKey, res.body.job_id, 30_000, '?preview=0');
    assert.equal(done.body.status, 'done');
    assert.deepEqual(done.body.counts.biz_status, { unknown: 15 });
    assert.equal(done.body.refunded, 15);
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, 0);
  });
});

describeEachStore('the daily NTS allowance', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let offsetMs = 0;
  before(async () => {
    nts = await startFakeNts({ seed: 8 });
    srv = await startTestServer(
      kind,
      { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_MAX_NUMBERS_PER_DAY: '30', BATCH_CHUNK_ROWS: '10', BATCH_UPSTREAM_RETRY_SECONDS: '1' },
      { now: () => new Date(Date.now() + offsetMs) },
    );
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('once spent, lookups answer from the cache or 503 until midnight KST, and a batch job waits for the next day', async () => {
    const { apiKey } = await srv.account('business');
    const first = Array.from({ length: 25 }, (_, i) => valid(600 + i));
    for (const b_no of first) assert.equal((await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no } })).status, 200);
    const callsBefore = nts.calls;

    const rows = Array.from({ length: 20 }, (_, i) => valid(700 + i));
    const res = await upload(srv.url, apiKey, { name: 'tomorrow.csv', body: `b_no\n${rows.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const waiting = await jobUntil(srv, apiKey, res.body.job_id, 'waiting for the day', (b) => b.upstream_wait !== null);
    assert.match(waiting.upstream_wait.reason, /^daily_limit: /);
    assert.equal(waiting.upstream_wait.gives_up_at, null, 'a spent day ends by itself');
    assert.equal(nts.calls, callsBefore, 'nothing was sent past the allowance');

    const used = (await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used as number;
    const fresh = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: valid(800) } });
    assert.equal(fresh.status, 503, JSON.stringify(fresh.body));
    assert.equal(fresh.body.code, 'upstream_daily_limit');
    const retryAfter = Number(fresh.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
    const kstNow = new Date(Date.now() + offsetMs + 9 * 3600_000);
    const secondsToMidnight = 86_400 - (kstNow.getUTCHours() * 3600 + kstNow.getUTCMinutes() * 60 + kstNow.getUTCSeconds());
    assert.ok(Math.abs(retryAfter - secondsToMidnight) <= 2, `${retryAfter} vs ${secondsToMidnight}`);
    const cachedOne = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: first[0] } });
    assert.equal(cachedOne.status, 200, 'a cached number is still answered');
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, used + 1, 'the refused lookup was not charged');

    // the next Korean day
    offsetMs = 86_400_000;
    const done = await waitForJob(srv.url, apiKey, res.body.job_id, 30_000, '?preview=0');
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    assert.equal(done.body.counts.biz_status.unknown, undefined);
    assert.equal(done.body.refunded, 0);
    assert.equal(done.body.upstream_wait, null);
  });
});

describeEachStore('the gateway says the key\'s allowance is spent', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ seed: 9, dailyLimit: 5 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url });
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('-10 spends our day too: no more calls until the next one, and lookups say so', async () => {
    const { apiKey } = await srv.account('business');
    for (let i = 0; i < 5; i++) assert.equal((await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: valid(900 + i) } })).status, 200);
    const refused = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: valid(950) } });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'upstream_daily_limit');
    const calls = nts.calls;
    const again = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: valid(951) } });
    assert.equal(again.body.code, 'upstream_daily_limit');
    assert.equal(nts.calls, calls, 'not asked again today');
  });
});
