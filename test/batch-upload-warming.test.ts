// While a list is still uploading, NTS is asked for its numbers (src/batch/upload-warmer.ts): the
// job then finds them cached. Checked against the fake NTS over HTTP, with a request body that
// arrives in two parts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setQuotaLimit } from '../src/accounts/accounts.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { call, type Call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(300_000_000 + i * 7_919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

/**
 * POST /batch with a CSV whose second part is sent only once `gate` resolves (bounded): a client
 * on a slow line, as far as the server can tell.
 */
async function uploadInTwoParts(base: string, key: string, first: string, second: string, gate: () => Promise<void>): Promise<Call> {
  const boundary = 'warming-test-boundary';
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="list.csv"\r\ncontent-type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(enc.encode(head + first));
      await gate();
      controller.enqueue(enc.encode(second + tail));
      controller.close();
    },
  });
  const res = await fetch(`${base}/batch`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Resolves once `ok()` holds, checking every 20 ms; rejects after `ms`. */
async function until(ok: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeEachStore('numbers asked while a list uploads', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k', latencyMs: 20, seed: 3 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_CACHE_TTL_SECONDS: '3600' });
  });
  after(async () => {
    await srv?.close();
    await nts?.close();
  });
  const asked = () => nts.received.flat();

  test('NTS hears of the first numbers before the upload has ended; the job asks for none of them again, and every row is answered', async () => {
    const { apiKey } = await srv.account('business');
    // the first part well past what the parser reads before it answers any row (its sniffing window)
    const numbers = Array.from({ length: 20_000 }, (_, i) => valid(i));
    const before0 = asked().length;
    const lines = (from: number, to: number) => numbers.slice(from, to).map((b, i) => `${b},상호 ${from + i}\n`).join('');
    // the second half is sent only once NTS has been asked about some of the first: without the
    // warming, nothing is asked before the upload ends and the gate gives up
    const res = await uploadInTwoParts(srv.url, apiKey, `b_no,상호\n${lines(0, 10_000)}`, lines(10_000, 20_000), () => until(() => asked().length > before0, 10_000, 'NTS asked during the upload'));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitForJob(srv.url, apiKey, res.body.job_id as string);
    assert.equal(done.body.status, 'done');
    assert.equal(done.body.processed, 20_000);
    assert.equal(done.body.counts.biz_status.unknown ?? 0, 0, JSON.stringify(done.body.counts));
    const mine = asked().slice(before0);
    assert.equal(new Set(mine).size, mine.length, 'no number was asked twice');
    // (beside the list's numbers, the swapped neighbours of those NTS does not know: named rows look for a mistyped live one)
    const heard = new Set(mine);
    assert.ok(numbers.every((b) => heard.has(b)), 'every number of the list was asked');
    // the rows' answers are NTS's, whichever way they were asked
    const sample = [numbers[0]!, numbers[9_999]!, numbers[19_999]!];
    for (const b of sample) {
      const single = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: b } });
      assert.equal(single.status, 200);
      assert.equal(single.body.source, 'nts');
    }
  });

  test('an API-only process answers an accepted upload once its warm lookups have ended, so a worker elsewhere finds them cached', async () => {
    // the jobs of an API-only process run in other processes, which cannot share its lookups in flight
    const api = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_CACHE_TTL_SECONDS: '3600', BIZCHECK_ROLE: 'api' });
    nts.setOptions({ latencyMs: 600 });
    try {
      const { apiKey } = await api.account('business');
      const numbers = Array.from({ length: 15_000 }, (_, i) => valid(50_000 + i));
      const before0 = asked().length;
      const lines = (from: number, to: number) => numbers.slice(from, to).map((b, i) => `${b},상호 ${from + i}\n`).join('');
      // the first part well past the parser's sniffing window, as above; slow answers, so that lookups are under way when the upload ends
      const res = await uploadInTwoParts(api.url, apiKey, `b_no,상호\n${lines(0, 12_000)}`, lines(12_000, 15_000), () => until(() => asked().length > before0, 10_000, 'NTS asked during the upload'));
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const last = asked().slice(before0).at(-1)!;
      const heard = asked().length;
      const single = await call(api.url, 'POST', '/verify', { key: apiKey, body: { b_no: last } });
      assert.equal(single.status, 200);
      assert.equal(single.body.cached, true, 'the last warm lookup had ended when the upload answered');
      assert.ok(!asked().slice(heard).includes(last), 'and it was not asked again');
    } finally {
      nts.setOptions({ latencyMs: 20 });
      await api.close();
    }
  });

  test('uploads refused for their quota, again and again, ask NTS about no more numbers in a day than the account had left', async () => {
    const { apiKey, accountId } = await srv.account('business');
    await setQuotaLimit(srv.store, accountId, 150);
    const before0 = asked().length;
    for (const round of [0, 1, 2]) {
      const numbers = Array.from({ length: 3_000 }, (_, i) => valid(100_000 + round * 3_000 + i));
      const res = await upload(srv.url, apiKey, { name: 'many.csv', body: ['b_no', ...numbers].join('\n') });
      assert.equal(res.status, 429, JSON.stringify(res.body));
    }
    // the warm-up's calls may still be under way when the refusal is sent: some arrive, then
    // give the rest a moment
    await until(() => asked().length > before0, 10_000, 'the refused uploads were warmed');
    await new Promise((r) => setTimeout(r, 300));
    const spent = asked().length - before0;
    assert.ok(spent > 0 && spent <= 150, `${spent} numbers asked over three refused uploads for an account with 150 lookups left`);
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).body.quota.used, 0, 'nothing charged');
    // the account can still upload what its quota covers
    const small = Array.from({ length: 120 }, (_, i) => valid(140_000 + i));
    const ok = await upload(srv.url, apiKey, { name: 'small.csv', body: ['b_no', ...small].join('\n') });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    await waitForJob(srv.url, apiKey, ok.body.job_id as string);
  });

  test('an offline upload asks NTS nothing', async () => {
    const { apiKey } = await srv.account('business');
    const numbers = Array.from({ length: 500 }, (_, i) => valid(150_000 + i));
    const before0 = asked().length;
    const res = await upload(srv.url, apiKey, { name: 'offline.csv', body: ['b_no', ...numbers].join('\n') }, '?offline=true');
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await waitForJob(srv.url, apiKey, res.body.job_id as string);
    assert.equal(asked().length, before0);
  });
});
