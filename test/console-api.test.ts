// The console's own endpoints over HTTP, on both stores: API keys (shown once, revocable, only
// one's own), account and usage, bulk jobs through the session (for every plan), and the pages'
// caching and security headers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConsoleClient, PASSWORD } from './helpers/console.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

let n = 0;
const email = () => `capi${++n}-${Date.now()}@example.com`;
const CSV = '사업자등록번호,상호,주소\n124-81-00998,(주)테스트상사,서울특별시 강남구 테헤란로 152\n333-33-33336,폐업상회,서울 강남구 테헤란로 152\n1111111119,한결상점,\n';

function csvForm(body = CSV, name = 'customers.csv'): FormData {
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'text/csv' }), name);
  return form;
}

async function signedUp(srv: TestServer): Promise<{ c: ConsoleClient; accountId: string }> {
  const c = new ConsoleClient(srv.url);
  const res = await c.signUp(email());
  assert.equal(res.status, 200);
  return { c, accountId: res.body.account.id };
}

async function waitDone(c: ConsoleClient, jobId: string): Promise<any> {
  for (let i = 0; i < 120; i++) {
    const res = await c.request('GET', `/batch/${jobId}`);
    if (res.body.status === 'done' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describeEachStore('console API', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind, { CONSOLE_SIGNUPS_PER_IP_HOUR: '1000' });
  });
  after(async () => srv.close());

  test('every console endpoint needs a session', async () => {
    const anon = new ConsoleClient(srv.url);
    for (const [method, path] of [['GET', '/session'], ['GET', '/account'], ['GET', '/keys'], ['POST', '/keys'], ['DELETE', '/keys/bzk_AAAAAAAA'], ['GET', '/batch'], ['POST', '/batch'], ['GET', '/batch/job_x']] as const) {
      const res = await anon.request(method, path);
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.code, 'not_signed_in');
    }
  });

  test('an account closes itself after confirming its password: keys first, then everything, signed out', async () => {
    const who = email();
    const c = new ConsoleClient(srv.url);
    const res = await c.signUp(who);
    assert.equal(res.status, 200);
    const accountId = res.body.account.id as string;
    await srv.store.accounts.setPlan(accountId, 'business');
    const key = (await c.request('POST', '/keys')).body.key as string;
    assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } })).status, 200);
    const wrong = await c.request('POST', '/account/close', { body: { password: 'not it' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_credentials');
    assert.equal((await c.request('GET', '/account')).status, 200, 'a wrong password closes nothing and keeps the session');
    const closed = await c.request('POST', '/account/close', { body: { password: PASSWORD } });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.deepEqual(closed.body, { closed: true });
    assert.equal((await c.request('GET', '/account')).status, 401, 'signed out');
    assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } })).status, 401, 'its keys are gone');
    assert.equal(await srv.store.accounts.get(accountId), null);
    assert.equal((await new ConsoleClient(srv.url).signIn(who, PASSWORD)).status, 401, 'it cannot sign in again');
  });

  test('an API key is shown in full once; the list shows prefixes only; it works on the API on a business plan', async () => {
    const { c, accountId } = await signedUp(srv);
    const issued = await c.request('POST', '/keys');
    assert.equal(issued.status, 201);
    assert.equal(issued.headers.get('cache-control'), 'no-store');
    const key: string = issued.body.key;
    assert.match(key, /^bzk_[0-9A-Za-z]{8}_[0-9A-Za-z]{40}$/);
    assert.equal(issued.body.prefix, key.slice(0, 12));
    const list = await c.request('GET', '/keys');
    assert.deepEqual(list.body.keys.map((k: { prefix: string }) => k.prefix), [issued.body.prefix]);
    assert.ok(!JSON.stringify(list.body).includes(key.slice(13)), 'the secret part is never listed');

    const onFree = await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } });
    assert.equal(onFree.status, 403, 'free accounts have no API access');
    await srv.store.accounts.setPlan(accountId, 'business');
    const verified = await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.biz_status, 'active');
    const usage = await c.request('GET', '/account');
    assert.equal(usage.body.plan, 'business');
    assert.equal(usage.body.quota.used, 1);
    assert.equal(usage.body.quota.limit, 50_000);
    assert.equal(usage.body.features.api, true);
  });

  test('revoking a key stops it at once; another account cannot revoke it (404)', async () => {
    const { c, accountId } = await signedUp(srv);
    await srv.store.accounts.setPlan(accountId, 'business');
    const key: string = (await c.request('POST', '/keys')).body.key;
    const prefix = key.slice(0, 12);
    const { c: stranger } = await signedUp(srv);
    const foreign = await stranger.request('DELETE', `/keys/${prefix}`);
    assert.equal(foreign.status, 404);
    assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } })).status, 200);
    const revoked = await c.request('DELETE', `/keys/${prefix}`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revoked_at);
    assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } })).status, 401);
    assert.equal((await c.request('DELETE', `/keys/${prefix}`)).status, 404, 'already revoked');
    const listed = (await c.request('GET', '/keys')).body.keys;
    assert.equal(listed[0].revoked_at, revoked.body.revoked_at, 'revoked keys stay listed');
  });

  test('account and usage: plan, features and the quota of a new free account', async () => {
    const { c } = await signedUp(srv);
    const res = await c.request('GET', '/account');
    assert.equal(res.status, 200);
    assert.equal(res.body.plan, 'free');
    assert.deepEqual(res.body.features, { api: false, console_batch: true, watch: false, history: false, watch_interval_hours: null, watch_limit: 0 });
    assert.equal(res.body.quota.limit, 100);
    assert.equal(res.body.quota.remaining, 100);
    assert.match(res.body.quota.resets_at, /^\d{4}-\d{2}-01T00:00:00\+09:00$/);
  });

  test('a free account runs bulk jobs in the console, charged to its quota, but no paid overage', async () => {
    const { c } = await signedUp(srv);
    const paid = await c.request('POST', '/batch', { form: csvForm(), query: '?paid=true' });
    assert.equal(paid.status, 403);
    assert.equal(paid.body.code, 'plan_forbidden');
    const up = await c.request('POST', '/batch', { form: csvForm() });
    assert.equal(up.status, 202);
    assert.equal(up.body.total, 3);
    assert.equal(up.body.charged, 3);
    const done = await waitDone(c, up.body.job_id);
    assert.equal(done.status, 'done');
    assert.equal(done.processed, 3);
    assert.equal(done.preview[1].result.biz_status, 'closed');
    assert.ok(['D', 'E'].includes(done.preview[1].result.grade));
    const usage = await c.request('GET', '/account');
    assert.equal(usage.body.quota.used, 3 - done.refunded);
    // the same lookups, by day: the last 30 Seoul days, oldest first, today's holding them
    const daily = await c.request('GET', '/account/usage?days=30');
    assert.equal(daily.status, 200);
    assert.equal(daily.body.days.length, 30);
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    assert.deepEqual(daily.body.days.at(-1), { day: today, lookups: 3 - done.refunded });
    assert.equal(daily.body.days.slice(0, -1).reduce((sum: number, d: { lookups: number }) => sum + d.lookups, 0), 0);
    assert.equal((await c.request('GET', '/account/usage?days=0')).status, 400);
    const csv = await fetch(`${srv.url}/console/api/batch/${up.body.job_id}/results?format=csv`, { headers: { cookie: c.cookie! } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    assert.match(await csv.text(), /폐업상회/);
  });

  test('bulk errors are the API\'s: a file without a number column is 400 with the same words', async () => {
    const { c } = await signedUp(srv);
    const bad = await c.request('POST', '/batch', { form: csvForm('상호,주소\n가게,서울\n') });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'bad_request');
    assert.match(bad.body.detail, /사업자/);
    assert.equal((await c.request('POST', '/batch', { body: { not: 'multipart' } })).status, 415);
  });

  test('past jobs are listed newest first, a page at a time; another account\'s jobs are 404', async () => {
    const { c } = await signedUp(srv);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.request('POST', '/batch', { form: csvForm(CSV, `list${i}.csv`), query: '?offline=true' })).body.job_id);
    const first = await c.request('GET', '/batch', { query: '?limit=2' });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.jobs.map((j: { job_id: string }) => j.job_id), [ids[2], ids[1]]);
    assert.equal(first.body.jobs[0].file_name, 'list2.csv');
    assert.equal(first.body.next_before, ids[1]);
    const second = await c.request('GET', '/batch', { query: `?limit=2&before=${first.body.next_before}` });
    assert.deepEqual(second.body.jobs.map((j: { job_id: string }) => j.job_id), [ids[0]]);
    assert.equal(second.body.next_before, null);
    const { c: stranger } = await signedUp(srv);
    assert.equal((await stranger.request('GET', `/batch/${ids[0]}`)).status, 404);
    assert.equal((await stranger.request('GET', `/batch/${ids[0]}/results`)).status, 404);
    assert.equal((await stranger.request('GET', '/batch', { query: `?before=${ids[0]}` })).status, 404);
    assert.deepEqual((await stranger.request('GET', '/batch')).body.jobs, []);
  });

  test('the API lists jobs too (GET /batch with X-API-Key)', async () => {
    const { apiKey } = await srv.account('business');
    const res = await call(srv.url, 'GET', '/batch', { key: apiKey });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { jobs: [], next_before: null });
  });

  test('pages: index.html is never cached, hashed assets are immutable, both under a strict CSP', async () => {
    const page = await fetch(`${srv.url}/console/`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(assets.length, 2, 'one script, one stylesheet');
    for (const a of assets) {
      assert.match(a, /-[A-Z0-9]{8}\.(js|css)$/, 'named by content hash');
      const res = await fetch(`${srv.url}${a}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    }
    assert.match(html, /integrity="sha384-/);
    const route = await fetch(`${srv.url}/console/keys`);
    assert.equal(route.status, 200, 'console routes are drawn by the page');
    assert.equal(await route.text(), html);
    assert.equal((await fetch(`${srv.url}/console/assets/missing.js`)).status, 404);
    assert.equal((await fetch(`${srv.url}/console/api/missing`)).status, 404);
    const root = await fetch(`${srv.url}/`, { redirect: 'manual' });
    assert.equal(root.headers.get('location'), '/console/');
  });

  test('the console stays out of the public API document', async () => {
    const doc = await call(srv.url, 'GET', '/openapi.json');
    assert.ok(Object.keys(doc.body.paths).every((p) => !p.startsWith('/console')), Object.keys(doc.body.paths).join(' '));
    assert.ok(doc.body.paths['/batch'].get, 'GET /batch is documented');
  });
});
