// Watch events a customer can act on, over HTTP with a real receiver: each transition told once
// (suspended, reopened, tax type changed, closed, closure date corrected, 단위과세 conversion),
// and endpoints that choose the events they receive.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkDigitOf } from '../src/domain/bizno.ts';
import type { NtsRecord } from '../src/domain/status.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { sandboxRecord } from '../src/registry/sandbox.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(610000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
const DAY = 86_400_000;
const STT = { '01': '계속사업자', '02': '휴업자', '03': '폐업자' } as const;
const types = (events: { type: string }[]) => events.map((e) => e.type).toSorted();

describeEachStore('watch events', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let clock = Date.now();
  const overrides = new Map<string, NtsRecord>();
  const set = (bno: string, over: Partial<NtsRecord> & { b_stt_cd: '01' | '02' | '03' }) => {
    overrides.set(bno, { ...sandboxRecord(bno), utcc_yn: 'N', end_dt: '', ...over, b_no: bno, b_stt: STT[over.b_stt_cd] });
    nts.setOptions({ overrides });
  };
  const receivers: Receiver[] = [];
  const setup = async (body: Record<string, unknown> = {}) => {
    const key = (await srv.account('business')).apiKey;
    const receiver = await startReceiver();
    receivers.push(receiver);
    const put = await call(srv.url, 'PUT', '/webhook', { key, body: { url: receiver.url, ...body } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    return { key, receiver, put: put.body };
  };
  /** a day later, one scheduler round and one delivery round: the types received by it */
  const nextDay = async (receiver: Receiver, expect: number): Promise<{ type: string; data: any }[]> => {
    const seen = receiver.received.length;
    clock += DAY + 1000;
    await srv.scheduler.runOnce();
    await srv.deliverer.runOnce();
    if (expect > 0) await receiver.waitFor(seen + expect);
    await new Promise((r) => setTimeout(r, 50));
    return receiver.received.slice(seen).map((r) => JSON.parse(r.body) as { type: string; data: any });
  };
  before(async () => {
    nts = await startFakeNts({ serviceKey: 'k' });
    srv = await startTestServer(
      kind,
      { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, WATCH_POLL_SECONDS: '3600', WEBHOOK_POLL_SECONDS: '3600', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true' },
      { now: () => new Date(clock) },
    );
  });
  after(async () => {
    await srv.close();
    await nts.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  test('each transition raises its own event once, with watch.changed', async () => {
    const { key, receiver } = await setup();
    const bno = valid(1);
    set(bno, { b_stt_cd: '01', tax_type: '부가가치세 간이과세자', tax_type_cd: '02' });
    assert.equal((await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } })).status, 201);

    set(bno, { b_stt_cd: '02', tax_type: '부가가치세 간이과세자', tax_type_cd: '02' });
    assert.deepEqual(types(await nextDay(receiver, 2)), ['watch.changed', 'watch.suspended']);
    assert.deepEqual(types(await nextDay(receiver, 0)), [], 'the same state again raises nothing');

    set(bno, { b_stt_cd: '01', tax_type: '부가가치세 간이과세자', tax_type_cd: '02' });
    const reopened = await nextDay(receiver, 2);
    assert.deepEqual(types(reopened), ['watch.changed', 'watch.reopened']);
    assert.equal(reopened.find((e) => e.type === 'watch.reopened')!.data.previous_attributes.biz_status, 'suspended');

    set(bno, { b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', tax_type_change_dt: '20261101' });
    const changed = await nextDay(receiver, 2);
    assert.deepEqual(types(changed), ['watch.changed', 'watch.tax_type_changed']);
    const tax = changed.find((e) => e.type === 'watch.tax_type_changed')!.data;
    assert.equal(tax.tax_type_cd, '01');
    assert.equal(tax.tax_type_change_dt, '2026-11-01');
    assert.deepEqual(tax.previous_attributes, { tax_type_cd: '02', tax_type: '부가가치세 간이과세자' });

    set(bno, { b_stt_cd: '03', end_dt: '20261120', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', tax_type_change_dt: '20261101' });
    assert.deepEqual(types(await nextDay(receiver, 2)), ['watch.changed', 'watch.closed']);

    set(bno, { b_stt_cd: '03', end_dt: '20261115', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', tax_type_change_dt: '20261101' });
    const corrected = await nextDay(receiver, 2);
    assert.deepEqual(types(corrected), ['watch.changed', 'watch.closed_on_corrected']);
    const c = corrected.find((e) => e.type === 'watch.closed_on_corrected')!.data;
    assert.equal(c.closed_on, '2026-11-15');
    assert.equal(c.previous_attributes.closed_on, '2026-11-20');

    const history = await call(srv.url, 'GET', `/watch/${(await call(srv.url, 'GET', '/watch', { key })).body.data[0].watch_id}/history`, { key });
    assert.equal(history.status, 200);
    assert.deepEqual(history.body.history.map((h: any) => h.biz_status), ['active', 'suspended', 'active', 'active', 'closed', 'closed']);
    // each recorded check names the evidence of what NTS said then, each its own
    const ids = history.body.history.map((h: any) => h.verification_id);
    assert.equal(new Set(ids).size, ids.length, JSON.stringify(ids));
    for (const id of ids) assert.equal((await call(srv.url, 'GET', `/verifications/${id}`, { key })).status, 200, id);
    // the scheduler's checks move the entry between the list's status filters
    assert.equal((await call(srv.url, 'GET', '/watch?status=closed', { key })).body.matching, 1);
    assert.equal((await call(srv.url, 'GET', '/watch?status=active', { key })).body.matching, 0);
  });

  test('a branch number retired on conversion to unit VAT filing is watch.converted, never watch.closed', async () => {
    const { key, receiver } = await setup();
    const bno = valid(2);
    set(bno, { b_stt_cd: '01' });
    await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } });
    set(bno, { b_stt_cd: '03', end_dt: '20261120', utcc_yn: 'Y' });
    const events = await nextDay(receiver, 2);
    assert.deepEqual(types(events), ['watch.changed', 'watch.converted']);
    assert.equal(events[0]!.data.biz_status, 'converted');
    assert.equal(events[0]!.data.closed_on, null);
  });

  test('an endpoint receives only the events it chose; PATCH changes them and keeps the secret', async () => {
    const { key, receiver, put } = await setup({ enabled_events: ['watch.closed', 'watch.closed'] });
    assert.deepEqual(put.enabled_events, ['watch.closed']);
    assert.deepEqual(put.events, ['watch.closed', 'webhook.test']);
    const bno = valid(3);
    set(bno, { b_stt_cd: '01' });
    await call(srv.url, 'POST', '/watch', { key, body: { biz_no: bno } });
    set(bno, { b_stt_cd: '02' });
    assert.deepEqual(types(await nextDay(receiver, 0)), [], 'suspended was not chosen');
    set(bno, { b_stt_cd: '03', end_dt: '20261120' });
    assert.deepEqual(types(await nextDay(receiver, 1)), ['watch.closed']);

    const patched = await call(srv.url, 'PATCH', '/webhook', { key, body: { enabled_events: ['watch.reopened', 'watch.changed'] } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.enabled_events, ['watch.changed', 'watch.reopened']);
    assert.equal(patched.body.secret_hint, `${put.secret.slice(0, 10)}…`);
    set(bno, { b_stt_cd: '01' });
    assert.deepEqual(types(await nextDay(receiver, 2)), ['watch.changed', 'watch.reopened']);

    const all = await call(srv.url, 'PATCH', '/webhook', { key, body: { enabled_events: null } });
    assert.equal(all.body.enabled_events, null);
    assert.ok(all.body.events.includes('watch.tax_type_changed'));
    for (const body of [{ enabled_events: ['watch.exploded'] }, { enabled_events: 'watch.closed' }, {}]) {
      const bad = await call(srv.url, 'PATCH', '/webhook', { key, body });
      assert.equal(bad.status, 400, JSON.stringify(body));
    }
    assert.equal((await call(srv.url, 'PUT', '/webhook', { key, body: { url: receiver.url, enabled_events: ['nope'] } })).status, 400);
  });
});
