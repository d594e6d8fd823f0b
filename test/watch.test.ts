// The watch list over HTTP against the fake NTS, with the clock moved by hand: registration and
// its first check, re-checks at the plan interval, history, outages, plan gating and access.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { sandboxRecord } from '../src/registry/sandbox.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';
import { clockStart } from './helpers/clock.ts';

const valid = (i: number) => {
  const nine = String(300000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
const HOUR = 3600_000;

describeEachStore('watch list', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let key: string;
  // the suite moves its clock ~4 days on and compares usage across that (re-checks are not charged)
  let clock = clockStart(7 * 24 * HOUR);
  const overrides = new Map<string, ReturnType<typeof sandboxRecord>>();
  const setStatus = (bno: string, code: '01' | '02' | '03') => {
    const text = { '01': '계속사업자', '02': '휴업자', '03': '폐업자' }[code];
    overrides.set(bno, { ...sandboxRecord(bno), b_no: bno, b_stt: text, b_stt_cd: code, end_dt: code === '03' ? '20261120' : '' });
    nts.setOptions({ overrides });
  };
  const used = async (k = key) => (await call(srv.url, 'GET', '/me', { key: k })).body.quota.used as number;
  const advance = (ms: number) => {
    clock += ms;
  };
  /** the outage is over: errors off, and the breaker (real time) past its open period */
  const recover = async () => {
    nts.setOptions({ errorRate: 0 });
    await new Promise((r) => setTimeout(r, 1100));
  };

  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k' });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_TIMEOUT_MS: '300', NTS_BREAKER_HALF_OPEN_SECONDS: '1', NTS_CACHE_TTL_SECONDS: '43200', WATCH_POLL_SECONDS: '3600' }, { now: () => new Date(clock) });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('POST /watch registers, checks at once and charges that one lookup; posting again returns the entry', async () => {
    const bno = valid(1);
    setStatus(bno, '01');
    const usedAtStart = await used();
    const res = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno, name: '주식회사 한빛상사', address: '서울특별시 강남구 테헤란로 152' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.watch_id, /^wch_/);
    assert.equal(res.headers.get('location'), `/watch/${res.body.watch_id}`);
    assert.equal(res.body.biz_no, bno);
    assert.equal(res.body.biz_status, 'active');
    assert.match(res.body.grade, /^[A-E]$/);
    assert.ok(res.body.bounce_prob > 0 && res.body.bounce_prob < 1);
    assert.equal(res.body.last_checked_at, new Date(clock).toISOString());
    assert.equal(Date.parse(res.body.next_check_at) - clock, 24 * HOUR, 'business plan: every 24 h');
    assert.equal(await used(), usedAtStart + 1);

    const again = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } });
    assert.equal(again.status, 200);
    assert.equal(again.body.watch_id, res.body.watch_id);
    assert.equal(again.body.name, '주식회사 한빛상사', 'the existing entry, untouched');
    assert.equal(await used(), usedAtStart + 1, "re-posting is free");

    const one = await call(srv.url, 'GET', `/watch/${res.body.watch_id}`, { key });
    assert.deepEqual(one.body, res.body);
  });

  test('bad bodies are 400 problems and create nothing', async () => {
    const count = async () => (await call(srv.url, 'GET', '/watch?limit=1000', { key })).body.data.length as number;
    const n = await count();
    for (const body of [{ biz_no: '124-81-00998' }, { biz_no: 1248100998 }, {}, { biz_no: valid(2), extra: 1 }, { biz_no: valid(2), name: 'x'.repeat(201) }, '[1,2]']) {
      const res = await call(srv.url, 'POST', '/watch', { key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
    const badDigit = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: '1248100999' } });
    assert.equal(badDigit.status, 400);
    assert.equal(badDigit.body.code, 'invalid_b_no');
    assert.equal(await count(), n);
  });

  test('a re-check that changes nothing adds no history and moves the next check one interval on', async () => {
    const bno = valid(3);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } })).body;
    advance(24 * HOUR + 1000);
    const round = await srv.scheduler.runOnce();
    assert.ok(round.checked >= 1);
    const now = await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key });
    assert.equal(now.body.last_checked_at, new Date(clock).toISOString());
    assert.equal(Date.parse(now.body.next_check_at), clock + 24 * HOUR);
    const h = await call(srv.url, 'GET', `/watch/${w.watch_id}/history`, { key });
    assert.equal(h.status, 200);
    assert.equal(h.body.history.length, 1, 'only the first check');
    assert.equal(h.body.history[0].previous_attributes, null);
    // not yet due again: nothing is checked
    assert.equal((await srv.scheduler.runOnce()).claimed, 0);
  });

  test('history lists the changes oldest first with what each changed from', async () => {
    const bno = valid(4);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } })).body;
    const usedBefore = await used();
    setStatus(bno, '02');
    advance(24 * HOUR);
    await srv.scheduler.runOnce();
    setStatus(bno, '03');
    advance(24 * HOUR);
    await srv.scheduler.runOnce();
    const h = await call(srv.url, 'GET', `/watch/${w.watch_id}/history`, { key });
    assert.deepEqual(
      h.body.history.map((e: { biz_status: string; previous_attributes: unknown }) => [e.biz_status, e.previous_attributes]),
      [['active', null], ['suspended', { biz_status: 'active' }], ['closed', { biz_status: 'suspended' }]],
    );
    const times = h.body.history.map((e: { checked_at: string }) => Date.parse(e.checked_at));
    assert.deepEqual(times, times.toSorted((a: number, b: number) => a - b));
    assert.equal(h.body.history[2].closed_on, '2026-11-20');
    assert.equal(await used(), usedBefore, 're-checks are not charged');
    const now = await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key });
    assert.equal(now.body.biz_status, 'closed');
  });

  test('an upstream outage postpones checks with backoff and records no change', async () => {
    const bno = valid(5);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } })).body;
    setStatus(bno, '03');
    nts.setOptions({ errorRate: 1 });
    try {
      advance(24 * HOUR + 1000);
      const round = await srv.scheduler.runOnce();
      assert.ok(round.postponed >= 1);
      const now = (await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key })).body;
      assert.equal(now.biz_status, 'active', 'no answer is not a change');
      assert.equal(now.check_failures, 1);
      const wait = Date.parse(now.next_check_at) - clock;
      assert.ok(wait > 0 && wait <= 2 * 60_000, `retry in ${wait} ms`);
      advance(5 * 60_000);
      await srv.scheduler.runOnce();
      const later = (await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key })).body;
      assert.equal(later.check_failures, 2);
      assert.ok(Date.parse(later.next_check_at) - clock > wait, 'the wait grows');
    } finally {
      await recover();
    }
    advance(60 * 60_000);
    await srv.scheduler.runOnce();
    const recovered = (await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key })).body;
    assert.equal(recovered.biz_status, 'closed');
    assert.equal(recovered.check_failures, 0);
    const h = (await call(srv.url, 'GET', `/watch/${w.watch_id}/history`, { key })).body.history;
    assert.equal(h.length, 2);
  });

  test('registering while NTS is down still registers, charges nothing, and checks when it is back', async () => {
    const bno = valid(6);
    setStatus(bno, '01');
    const usedBefore = await used();
    nts.setOptions({ errorRate: 1 });
    let w;
    try {
      const res = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } });
      assert.equal(res.status, 201);
      w = res.body;
      assert.equal(w.biz_status, 'unknown');
      assert.equal(w.last_checked_at, null);
      assert.equal(await used(), usedBefore);
    } finally {
      await recover();
    }
    advance(10 * 60_000);
    await srv.scheduler.runOnce();
    const now = (await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key })).body;
    assert.equal(now.biz_status, 'active');
    const h = (await call(srv.url, 'GET', `/watch/${w.watch_id}/history`, { key })).body.history;
    assert.deepEqual(h.map((e: { previous_attributes: unknown }) => e.previous_attributes), [null]);
  });

  test('enterprise entries are re-checked every hour', async () => {
    const ent = (await srv.account('enterprise')).apiKey;
    const bno = valid(7);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key: ent, body: { biz_no: bno } })).body;
    assert.equal(Date.parse(w.next_check_at) - clock, HOUR);
  });

  test('GET /watch pages through the complete list with a cursor', async () => {
    const k = (await srv.account('business')).apiKey;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const bno = valid(100 + i);
      setStatus(bno, '01');
      made.push((await call(srv.url, 'POST', '/watch', { key: k, body: { biz_no: bno } })).body.watch_id);
      advance(1);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: { status: number; body: { data: { watch_id: string }[]; next_cursor: string | null } } = await call(srv.url, 'GET', `/watch?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { key: k });
      assert.equal(res.status, 200);
      assert.ok(res.body.data.length <= 3);
      seen.push(...res.body.data.map((w) => w.watch_id));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, made, 'every entry once, in creation order');
    for (const q of ['?cursor=nonsense', '?limit=0', '?limit=1001', '?limit=x', '?other=1']) {
      assert.equal((await call(srv.url, 'GET', `/watch${q}`, { key: k })).status, 400, q);
    }
  });

  test('DELETE removes the entry with a confirmation; afterwards it is 404', async () => {
    const bno = valid(8);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } })).body;
    const del = await call(srv.url, 'DELETE', `/watch/${w.watch_id}`, { key });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { watch_id: w.watch_id, biz_no: bno, deleted: true });
    assert.equal((await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key })).status, 404);
    assert.equal((await call(srv.url, 'GET', `/watch/${w.watch_id}/history`, { key })).status, 404);
    assert.equal((await call(srv.url, 'DELETE', `/watch/${w.watch_id}`, { key })).status, 404);
    // and the number can be watched again, as a new entry
    const again = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } });
    assert.equal(again.status, 201);
    assert.notEqual(again.body.watch_id, w.watch_id);
  });

  test('the development loop: the fake NTS closes a business while running, POST /watch/{id}/check sees it now, records it and charges one lookup', async () => {
    const bno = valid(31);
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno, name: '한빛상사' } })).body;
    assert.equal(w.biz_status === 'closed', false, JSON.stringify(w));
    // what a developer runs against `npm run fake-nts`, over HTTP
    const admin = await fetch(`${nts.url}/_admin/status/${bno}?serviceKey=k`, { method: 'PUT', body: JSON.stringify({ status: 'closed', end_dt: '20261120' }) });
    assert.equal(admin.status, 200);
    assert.equal(((await admin.json()) as { b_stt_cd: string }).b_stt_cd, '03');
    assert.equal((await fetch(`${nts.url}/_admin/status/${bno}`, { method: 'PUT', body: '{"status":"closed"}' })).status, 401, 'the admin path wants the service key too');
    const listed = (await (await fetch(`${nts.url}/_admin/status?serviceKey=k`)).json()) as { changed: { b_no: string }[] };
    assert.ok(listed.changed.some((r) => r.b_no === bno));

    const usedBefore = await used();
    advance(1000);
    const checked = await call(srv.url, 'POST', `/watch/${w.watch_id}/check`, { key });
    assert.equal(checked.status, 200, JSON.stringify(checked.body));
    assert.equal(checked.body.biz_status, 'closed', 'a fresh answer, not the cached one');
    assert.equal(checked.body.closed_on, '2026-11-20');
    assert.equal(await used(), usedBefore + 1, 'charged like a lookup');
    const h = await call(srv.url, 'GET', `/watch/${w.watch_id}/history`, { key });
    assert.equal(h.body.history.at(-1).biz_status, 'closed', 'recorded as a scheduled check would');

    // NTS down: 503, not charged, the entry as it was
    nts.setOptions({ errorRate: 1 });
    advance(1000);
    const down = await call(srv.url, 'POST', `/watch/${w.watch_id}/check`, { key });
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assert.match(down.headers.get('content-type') ?? '', /problem\+json/);
    assert.equal(await used(), usedBefore + 1);
    await recover();
    assert.equal((await fetch(`${nts.url}/_admin/status/${bno}?serviceKey=k`, { method: 'DELETE' })).status, 200);
  });

  test("another account's entry is 404 everywhere, like an unknown id", async () => {
    const bno = valid(9);
    setStatus(bno, '01');
    const w = (await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } })).body;
    const other = (await srv.account('business')).apiKey;
    for (const [method, path] of [['GET', `/watch/${w.watch_id}`], ['GET', `/watch/${w.watch_id}/history`], ['POST', `/watch/${w.watch_id}/check`], ['DELETE', `/watch/${w.watch_id}`], ['GET', '/watch/wch_unknown'], ['GET', '/watch/wch_unknown/history'], ['POST', '/watch/wch_unknown/check'], ['DELETE', '/watch/wch_unknown']] as const) {
      const res = await call(srv.url, method, path, { key: other });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 'not_found');
    }
    assert.equal((await call(srv.url, 'GET', '/watch', { key: other })).body.data.length, 0);
    // the owner still has it
    assert.equal((await call(srv.url, 'GET', `/watch/${w.watch_id}`, { key })).status, 200);
  });

  test('a full watch list refuses another entry with 403 watch_limit and charges nothing', { skip: kind === 'postgres' ? 'filling 10,000 entries is the same on both stores; once is enough' : false }, async () => {
    const { accountId, apiKey } = await srv.account('business');
    const at = new Date(clock).toISOString();
    for (let i = 0; i < 10_000; i++) {
      const bno = String(200_000_000 + i);
      await srv.store.watches.create({ id: `wch_fill${i}`, accountId, bno: bno + checkDigitOf(bno), name: null, address: null, state: null, lastCheckedAt: null, nextCheckAt: at, failures: 0, createdAt: at }, false, Infinity);
    }
    const usedBefore = await used(apiKey);
    const res = await call(srv.url, 'POST', '/watch', { key: apiKey, body: { biz_no: valid(500) } });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'watch_limit');
    assert.equal(res.body.limit, 10_000);
    assert.equal(await used(apiKey), usedBefore);
    // an entry already on the list is still returned
    const first = String(200_000_000);
    assert.equal((await call(srv.url, 'POST', '/watch', { key: apiKey, body: { biz_no: first + checkDigitOf(first) } })).status, 200);
    await srv.store.watches.remove(accountId, 'wch_fill0');
    assert.equal((await call(srv.url, 'POST', '/watch', { key: apiKey, body: { biz_no: valid(500) } })).status, 201);
  });

  test('plans below business get 403 and no key gets 401 on every watch and webhook route', async () => {
    const pro = (await srv.account('pro')).apiKey;
    const routes = [['POST', '/watch'], ['GET', '/watch'], ['GET', '/watch/wch_x'], ['DELETE', '/watch/wch_x'], ['GET', '/watch/wch_x/history'], ['POST', '/watch/wch_x/check'], ['PUT', '/webhook'], ['GET', '/webhook'], ['DELETE', '/webhook'], ['POST', '/webhook/test'], ['GET', '/webhook/deliveries']] as const;
    for (const [method, path] of routes) {
      const body = method === 'POST' || method === 'PUT' ? { biz_no: valid(1), url: 'https://example.com/h' } : undefined;
      assert.equal((await call(srv.url, method, path, { key: pro, body })).status, 403, `${method} ${path} pro`);
      assert.equal((await call(srv.url, method, path, { body })).status, 401, `${method} ${path} no key`);
    }
  });
});
