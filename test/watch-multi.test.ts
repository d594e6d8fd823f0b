// Two service instances on one PostgreSQL, each with its own scheduler and deliverer (as two
// processes would be): every due entry is checked once per interval and every closure is
// notified once, however the two race.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { sandboxRecord } from '../src/registry/sandbox.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { PG_URL } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(700000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
const DAY = 86_400_000;
const N = 60;

describe('two schedulers on one PostgreSQL', () => {
  if (!PG_URL) {
    // a skipped test (not a skipped suite) so the runner's summary counts it as skipped
    test('on PostgreSQL', { skip: 'TEST_DATABASE_URL not set' }, () => {});
    return;
  }
  let nts: FakeNts;
  let a: TestServer;
  let b: TestServer;
  let receiver: Receiver;
  let clock = Date.now();
  const overrides = new Map<string, ReturnType<typeof sandboxRecord>>();

  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k' });
    receiver = await startReceiver();
    const env = { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, WATCH_POLL_SECONDS: '3600', WATCH_CLAIM_SIZE: '7', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_POLL_SECONDS: '1' };
    a = await startTestServer('postgres', env, { now: () => new Date(clock) });
    b = await startTestServer('postgres', env, { now: () => new Date(clock), shareWith: a });
  });
  after(async () => {
    await b.stop();
    await a.close();
    await nts.close();
    await receiver.close();
  });

  test('each due entry is checked once per interval and each closure notified once', async () => {
    const key = (await a.account('business')).apiKey;
    await call(a.url, 'PUT', '/webhook', { key, body: { url: receiver.url } });
    /** Waits (bounded) until the account has `n` deliveries and every one is delivered. */
    const delivered = async (n: number): Promise<void> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const page = (await call(a.url, 'GET', '/webhook/deliveries?limit=100', { key })).body.data as { state: string }[];
        if (page.length >= n && page.every((d) => d.state === 'delivered')) return;
        if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(page.map((d) => d.state))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const ids: string[] = [];
    const closing: string[] = [];
    let closures = 0;
    for (let i = 0; i < N; i++) {
      const res = await call(i % 2 ? a.url : b.url, 'POST', '/watch', { key, body: { biz_no: valid(i) } });
      assert.equal(res.status, 201);
      ids.push(res.body.watch_id);
      // the sandbox world has closed businesses of its own: those cannot close again
      // (and a new closure date for one would be a correction, told as such)
      if (i % 3 === 0 && res.body.biz_status !== 'closed') {
        closures++;
        closing.push(valid(i));
      }
    }
    assert.ok(closures > 10);
    // every third business closes
    for (const bno of closing) overrides.set(bno, { ...sandboxRecord(bno), b_no: bno, b_stt: '폐업자', b_stt_cd: '03', end_dt: '20261121' });
    nts.setOptions({ overrides });
    const callsBefore = nts.calls;
    for (let interval = 0; interval < 2; interval++) {
      clock += DAY + 1000;
      // both race for the same due entries, several rounds each, until none is left
      const rounds = await Promise.all([a, b, a, b].map(async (s) => {
        let checked = 0;
        for (let r = 0; r < 20; r++) {
          const out = await s.scheduler.runOnce();
          checked += out.checked;
          if (out.claimed === 0) break;
        }
        return checked;
      }));
      assert.equal(rounds.reduce((x, y) => x + y, 0), N, `interval ${interval}: every entry checked exactly once`);
      // the first interval's events delivered before the clock jumps a day: a delivery still in
      // flight would see its lease (minutes, on this clock) long expired, and the other
      // deliverer would rightly send it again — at-least-once, but not what this test counts
      if (interval === 0) await delivered(2 * closures);
    }
    await receiver.waitFor(2 * closures, 20_000);
    // give a double delivery the chance to show up
    await new Promise((r) => setTimeout(r, 1500));
    const events = receiver.received.map((r) => ({ id: String(r.headers['webhook-id']), ...(JSON.parse(r.body) as { type: string; data: { watch_id: string } }) }));
    const closed = events.filter((e) => e.type === 'watch.closed');
    assert.equal(closed.length, closures, 'one watch.closed per closure');
    assert.equal(new Set(closed.map((e) => e.data.watch_id)).size, closures);
    assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'no event delivered twice');
    assert.equal(events.length, 2 * closures, 'watch.changed + watch.closed per closure, nothing for the second interval');
    for (const id of ids.slice(0, 3)) {
      const h = (await call(a.url, 'GET', `/watch/${id}/history`, { key })).body.history;
      assert.ok(h.length <= 2, 'no duplicated history rows');
    }
    // checks shared upstream calls: far fewer calls than entries checked
    assert.ok(nts.calls - callsBefore < 2 * N, `${nts.calls - callsBefore} upstream calls for ${2 * N} checks`);
  });
});
