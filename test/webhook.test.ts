// Webhooks over HTTP with a real local receiver: the endpoint API, signed events for closures,
// retries with the same webhook-id, Retry-After, 410, the delivery log, and the documented
// receiver example verifying real deliveries.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createReceiver, verifySignature, type ReceivedEvent } from '../examples/webhook-receiver.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { verifyWebhook } from '../src/domain/webhook.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { sandboxRecord } from '../src/registry/sandbox.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(500000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
const DAY = 86_400_000;

describeEachStore('webhooks', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let clock = Date.now();
  const overrides = new Map<string, ReturnType<typeof sandboxRecord>>();
  const setStatus = (bno: string, code: '01' | '03') => {
    overrides.set(bno, { ...sandboxRecord(bno), b_no: bno, b_stt: code === '01' ? '계속사업자' : '폐업자', b_stt_cd: code, end_dt: code === '03' ? '20261121' : '' });
    nts.setOptions({ overrides });
  };
  const deliveries = async (key: string) => (await call(srv.url, 'GET', '/webhook/deliveries?limit=100', { key })).body.data as any[];
  /** polls the delivery log (bounded) until `pred` holds */
  const until = async (key: string, pred: (d: any[]) => boolean, what: string) => {
    for (let i = 0; i < 200; i++) {
      const d = await deliveries(key);
      if (pred(d)) return d;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** an account with an endpoint at a fresh receiver */
  const setup = async () => {
    const key = (await srv.account('business')).apiKey;
    const receiver = await startReceiver();
    const put = await call(srv.url, 'PUT', '/webhook', { key, body: { url: receiver.url } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    return { key, receiver, secret: put.body.secret as string };
  };
  const receivers: Receiver[] = [];

  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k' });
    srv = await startTestServer(
      kind,
      { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, WATCH_POLL_SECONDS: '3600', WEBHOOK_POLL_SECONDS: '3600', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_TIMEOUT_MS: '2000' },
      { now: () => new Date(clock) },
    );
  });
  after(async () => {
    await srv.close();
    await nts.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  test('PUT /webhook returns the signing secret once; GET shows only a hint; DELETE removes it', async () => {
    const key = (await srv.account('business')).apiKey;
    assert.equal((await call(srv.url, 'GET', '/webhook', { key })).status, 404);
    const put = await call(srv.url, 'PUT', '/webhook', { key, body: { url: 'http://127.0.0.1:9/hooks' } });
    assert.equal(put.status, 200);
    assert.match(put.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(put.body.enabled, true);
    assert.ok(put.body.events.includes('watch.closed'));
    const got = await call(srv.url, 'GET', '/webhook', { key });
    assert.equal(got.body.secret, undefined);
    assert.equal(got.body.secret_hint, `${put.body.secret.slice(0, 10)}…`);
    const rotated = await call(srv.url, 'PUT', '/webhook', { key, body: { url: 'http://127.0.0.1:9/other' } });
    assert.notEqual(rotated.body.secret, put.body.secret, 'every PUT issues a new secret');
    assert.equal(rotated.body.created_at, put.body.created_at);
    for (const url of ['not a url', 'ftp://example.com/x', 'http://user:pw@127.0.0.1/x', 'http://127.0.0.1/x#frag']) {
      const bad = await call(srv.url, 'PUT', '/webhook', { key, body: { url } });
      assert.equal(bad.status, 400, url);
      assert.equal(bad.body.code, 'bad_request');
    }
    assert.equal((await call(srv.url, 'PUT', '/webhook', { key, body: { url: 'http://127.0.0.1/x', secret: 'mine' } })).status, 400);
    assert.deepEqual((await call(srv.url, 'DELETE', '/webhook', { key })).body, { deleted: true });
    assert.equal((await call(srv.url, 'GET', '/webhook', { key })).status, 404);
    assert.equal((await call(srv.url, 'DELETE', '/webhook', { key })).status, 404);
  });

  test('a business that closes produces exactly one signed watch.closed delivery', async () => {
    const { key, receiver, secret } = await setup();
    receivers.push(receiver);
    const bno = valid(1);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno, name: '한빛상사' } })).body;
    assert.equal(receiver.received.length, 0, 'registering raises no event');
    setStatus(bno, '03');
    clock += DAY + 1000;
    await srv.scheduler.runOnce();
    await receiver.waitFor(2);
    // later rounds and re-checks that see the same closure send nothing more
    clock += DAY + 1000;
    await srv.scheduler.runOnce();
    await srv.deliverer.runOnce();
    await new Promise((r) => setTimeout(r, 100));
    const events = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: any });
    assert.deepEqual(events.map((e) => e.type).toSorted(), ['watch.changed', 'watch.closed']);
    const closed = receiver.received.find((r) => JSON.parse(r.body).type === 'watch.closed')!;
    const h = closed.headers;
    assert.match(String(h['webhook-id']), /^msg_/);
    assert.match(String(h['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    const sig = { id: String(h['webhook-id']), timestamp: String(h['webhook-timestamp']), signature: String(h['webhook-signature']) };
    const sentAt = new Date(Number(sig.timestamp) * 1000);
    assert.ok(Math.abs(sentAt.getTime() - (clock - DAY - 1000)) < 2000, 'stamped when sent');
    assert.ok(verifyWebhook(secret, sig, closed.body, { now: sentAt }));
    assert.ok(verifySignature(secret, sig.id, sig.timestamp, closed.body, sig.signature, Number(sig.timestamp)), 'the documented example agrees');
    assert.ok(!verifyWebhook(secret, sig, closed.body.replace('closed', 'active'), { now: sentAt }), 'a changed body fails');
    assert.ok(!verifyWebhook(secret, sig, closed.body, { now: new Date(clock) }), 'a day-old timestamp is a replay');
    const e = JSON.parse(closed.body);
    assert.equal(e.data.watch_id, w.watch_id);
    assert.equal(e.data.biz_no, bno);
    assert.equal(e.data.biz_status, 'closed');
    assert.equal(e.data.closed_on, '2026-11-21');
    assert.deepEqual(e.data.previous_attributes.biz_status, 'active');
    const log = await until(key, (d) => d.length === 2 && d.every((x) => x.state === 'delivered'), 'two delivered events');
    assert.ok(log.every((d) => d.attempts === 1 && d.log.length === 1 && d.log[0].status === 200));
    // the entry removed, the log keeps what was told and forgets whom it was about
    assert.match(JSON.stringify(await call(srv.url, 'GET', '/webhook/deliveries', { key })), /한빛상사/);
    assert.equal((await call(srv.url, 'DELETE', `/watch/${w.watch_id}`, { key })).status, 200);
    const logAfter = JSON.stringify((await call(srv.url, 'GET', '/webhook/deliveries', { key })).body);
    assert.doesNotMatch(logAfter, /한빛상사/);
    assert.match(logAfter, new RegExp(bno), 'the number and the events stay');
  });

  test('a receiver that fails and recovers gets the event later with the same webhook-id', async () => {
    const { key, receiver } = await setup();
    receivers.push(receiver);
    receiver.script({ status: 500 }, { status: 503 });
    const sent = await call(srv.url, 'POST', '/webhook/test', { key });
    assert.equal(sent.status, 202);
    await receiver.waitFor(1);
    let log = await until(key, (d) => d[0]?.attempts === 1, 'first attempt recorded');
    assert.equal(log[0].state, 'pending');
    const wait = Date.parse(log[0].next_attempt_at) - clock;
    assert.ok(wait >= 4500 && wait <= 5500, `second attempt ${wait} ms later (5 s ± jitter)`);
    assert.equal(await srv.deliverer.runOnce(), 0, 'not due yet');
    clock += 6000;
    await srv.deliverer.runOnce();
    log = await until(key, (d) => d[0]?.attempts === 2, 'second attempt');
    const third = Date.parse(log[0].next_attempt_at) - clock;
    assert.ok(third >= 270_000 && third <= 330_000, `third attempt ${third} ms later (5 min ± jitter)`);
    clock += 330_000;
    await srv.deliverer.runOnce();
    log = await until(key, (d) => d[0]?.state === 'delivered', 'delivered');
    assert.deepEqual(log[0].log.map((a: { status: number }) => a.status), [500, 503, 200]);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 1, 'one event, one id');
    assert.equal(sent.body.delivery_id, [...ids][0]);
    assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1, 'the same body every time');
  });

  test("a receiver's Retry-After is honoured", async () => {
    const { key, receiver } = await setup();
    receivers.push(receiver);
    receiver.script({ status: 429, headers: { 'retry-after': '7200' } });
    await call(srv.url, 'POST', '/webhook/test', { key });
    const log = await until(key, (d) => d[0]?.attempts === 1, 'first attempt');
    assert.ok(Date.parse(log[0].next_attempt_at) - clock >= 7200_000);
  });

  test('410 Gone disables the endpoint and abandons what waits for it', async () => {
    const { key, receiver } = await setup();
    receivers.push(receiver);
    receiver.script({ status: 410 });
    await call(srv.url, 'POST', '/webhook/test', { key });
    await until(key, (d) => d[0]?.state === 'failed', 'failed delivery');
    const endpoint = (await call(srv.url, 'GET', '/webhook', { key })).body;
    assert.equal(endpoint.enabled, false);
    assert.match(endpoint.disabled_reason, /410/);
    const again = await call(srv.url, 'POST', '/webhook/test', { key });
    assert.equal(again.status, 409);
    // PUT re-enables
    await call(srv.url, 'PUT', '/webhook', { key, body: { url: receiver.url } });
    assert.equal((await call(srv.url, 'GET', '/webhook', { key })).body.enabled, true);
  });

  test('the documented receiver example verifies and deduplicates real deliveries', async () => {
    const key = (await srv.account('business')).apiKey;
    const got: ReceivedEvent[] = [];
    let secret = '';
    const server = createReceiver(() => secret, (e) => got.push(e), () => Math.floor(clock / 1000));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bizcheck`;
      secret = (await call(srv.url, 'PUT', '/webhook', { key, body: { url } })).body.secret;
      await call(srv.url, 'POST', '/webhook/test', { key });
      const log = await until(key, (d) => d[0]?.state === 'delivered', 'accepted by the example');
      assert.equal(got.length, 1);
      assert.equal(got[0]!.type, 'webhook.test');
      assert.equal(got[0]!.id, log[0].id);
      // a wrong secret is refused (401) and retried later
      secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
      clock += 1;
      await call(srv.url, 'POST', '/webhook/test', { key });
      const refused = await until(key, (d) => d[0]?.attempts === 1 && d[0]?.state === 'pending', 'refused attempt');
      assert.equal(refused[0].last_status, 401);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  test('a finished batch job sends one batch.done event with its counts', async () => {
    const { key, receiver } = await setup();
    receivers.push(receiver);
    const rows = [valid(40), valid(41), valid(40), '1248100999'];
    for (const b of rows.slice(0, 2)) setStatus(b, '01');
    const res = await upload(srv.url, key, { name: 'list.csv', body: `사업자등록번호\n${rows.join('\n')}\n` });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.equal(done.body.status, 'done');
    await srv.deliverer.runOnce();
    const log = await until(key, (d) => d.some((x) => x.type === 'batch.done' && x.state === 'delivered'), 'batch.done delivered');
    const events = log.filter((x) => x.type === 'batch.done');
    assert.equal(events.length, 1);
    const data = events[0].payload.data;
    assert.equal(data.job_id, res.body.job_id);
    assert.equal(data.status, 'done');
    assert.equal(data.total, 4);
    assert.equal(data.processed, 4);
    assert.equal(data.distinct_numbers, 2);
    assert.deepEqual(data.counts.biz_status, { active: 3, invalid: 1 });
    assert.equal(data.results, `/batch/${res.body.job_id}/results`);
    assert.equal(data.finished_at, done.body.finished_at);
  });

  test("deliveries are listed newest first in pages, and another account's are 404", async () => {
    const { key, receiver } = await setup();
    receivers.push(receiver);
    for (let i = 0; i < 5; i++) {
      await call(srv.url, 'POST', '/webhook/test', { key });
      clock += 1;
    }
    await until(key, (d) => d.length === 5 && d.every((x) => x.state === 'delivered'), 'five delivered');
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: { body: { data: { id: string; created_at: string }[]; next_cursor: string | null } } = await call(srv.url, 'GET', `/webhook/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key });
      seen.push(...res.body.data.map((d) => d.id));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    assert.equal(seen.length, 5);
    assert.equal(new Set(seen).size, 5);
    const all = await deliveries(key);
    assert.deepEqual(seen, all.map((d) => d.id));
    const other = (await srv.account('business')).apiKey;
    assert.equal((await deliveries(other)).length, 0);
    assert.equal((await call(srv.url, 'GET', `/webhook/deliveries/${seen[0]}`, { key: other })).status, 404);
    assert.equal((await call(srv.url, 'GET', `/webhook/deliveries/${seen[0]}`, { key })).status, 200);
  });
});

describeEachStore('webhook targets', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => {
    await srv.close();
  });

  test('by default only public https URLs are accepted', async () => {
    const key = (await srv.account('business')).apiKey;
    for (const url of ['http://example.com/h', 'https://127.0.0.1/h', 'https://localhost/h', 'https://10.1.2.3/h', 'https://169.254.169.254/latest', 'https://[::1]/h', 'https://[fd00:ec2::254]/h', 'https://192.168.0.10/h', 'https://metadata.google.internal/h']) {
      const res = await call(srv.url, 'PUT', '/webhook', { key, body: { url } });
      assert.equal(res.status, 400, url);
    }
    assert.equal((await call(srv.url, 'PUT', '/webhook', { key, body: { url: 'https://hooks.example.com/bizcheck' } })).status, 200);
  });
});
