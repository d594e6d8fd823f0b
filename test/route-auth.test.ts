// The common checks, on every route that needs a credential, as the server registered them: no
// key (or session) is 401, a plan without API access is 403, another account's id is 404, and
// each is a problem+json. A route the table below does not know fails the first test, so a new
// route cannot be left out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { ConsoleClient } from './helpers/console.ts';
import { call, startTestServer, type Call, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const active = SANDBOX_FIXED.find((f) => f.status === 'active')!.bno;

/** What a route needs to be called: a body, and which of an account's ids its path names. */
interface Entry {
  body?: unknown;
  /** a multipart upload */
  upload?: boolean;
  id?: 'job' | 'watch' | 'delivery' | 'key' | 'verification';
}

const API: Record<string, Entry> = {
  'POST /verify': { body: { b_no: active } },
  'POST /validate': { body: { b_no: active, start_dt: '19960214', p_nm: '홍길동' } },
  'GET /me': {},
  'POST /batch': { upload: true },
  'POST /batch/inspect': { upload: true },
  'GET /batch': {},
  'GET /batch/:job_id': { id: 'job' },
  'GET /batch/:job_id/results': { id: 'job' },
  'DELETE /batch/:job_id': { id: 'job' },
  'GET /verifications/:verification_id': { id: 'verification' },
  'POST /batch/:job_id/label': { id: 'job', body: { row_id: 1, bounced: true } },
  'POST /batch/:job_id/labels': { id: 'job', body: [{ row_id: 1, bounced: true }] },
  'POST /watch': { body: { biz_no: active } },
  'POST /batch/:job_id/watch': { id: 'job' },
  'GET /watch': {},
  'GET /watch/:watch_id': { id: 'watch' },
  'DELETE /watch/:watch_id': { id: 'watch' },
  'GET /watch/:watch_id/history': { id: 'watch' },
  'POST /watch/:watch_id/check': { id: 'watch' },
  'PUT /webhook': { body: { url: 'http://127.0.0.1:9/hook' } },
  'PATCH /webhook': { body: { enabled_events: ['watch.closed'] } },
  'GET /webhook': {},
  'DELETE /webhook': {},
  'POST /webhook/test': {},
  'GET /webhook/deliveries': {},
  'GET /webhook/deliveries/:delivery_id': { id: 'delivery' },
};

/** The console serves the API's account-data routes under /console/api too, plus its own. */
const CONSOLE: Record<string, Entry> = {
  ...Object.fromEntries(Object.entries(API).filter(([k]) => !['POST /verify', 'GET /me'].includes(k)).map(([k, v]) => [k.replace(' /', ' /console/api/'), v])),
  'GET /console/api/session': {},
  'DELETE /console/api/session': {},
  'GET /console/api/account': {},
  'GET /console/api/account/usage': {},
  'POST /console/api/account/close': { body: { password: 'not the password' } },
  'GET /console/api/keys': {},
  'POST /console/api/keys': {},
  'DELETE /console/api/keys/:prefix': { id: 'key' },
};

function problem(res: Call, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
}

describeEachStore('the common checks on every authenticated route', (kind) => {
  let srv: TestServer;
  const ids: Record<NonNullable<Entry['id']>, string> = { job: '', watch: '', delivery: '', key: '', verification: '' };
  let owner: string;
  let stranger: string;

  before(async () => {
    srv = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
    ({ apiKey: owner } = await srv.account('business'));
    ({ apiKey: stranger } = await srv.account('business'));
    // one of each thing an id can name, all the owner's
    const job = await upload(srv.url, owner, { name: 'one.csv', body: `b_no\n${active}\n` });
    ids.job = job.body.job_id;
    await waitForJob(srv.url, owner, ids.job);
    ids.watch = (await call(srv.url, 'POST', '/watch', { key: owner, body: { biz_no: active } })).body.watch_id;
    await call(srv.url, 'PUT', '/webhook', { key: owner, body: { url: 'http://127.0.0.1:9/hook' } });
    ids.delivery = (await call(srv.url, 'POST', '/webhook/test', { key: owner })).body.delivery_id;
    ids.key = owner.split('_').slice(0, 2).join('_');
    ids.verification = (await call(srv.url, 'POST', '/verify', { key: owner, body: { b_no: active } })).body.verification_id;
    for (const [what, id] of Object.entries(ids)) assert.ok(id, `the owner's ${what} exists`);
  });
  after(async () => srv.close());

  const path = (url: string, e: Entry, id = 'zzz_doesnotexist') => url.replace(/:[a-z_]+/, e.id ? ids[e.id] || id : id);
  const send = (method: string, url: string, e: Entry, key?: string, headers: Record<string, string> = {}) =>
    e.upload
      ? upload(srv.url, key ?? '', { name: 'one.csv', body: `b_no\n${active}\n` }, url.replace(/^\/batch/, ''), headers)
      : call(srv.url, method, url, { ...(key === undefined ? {} : { key }), ...(e.body === undefined ? {} : { body: e.body }), headers });

  test('every route that needs a key or a session has an entry here', () => {
    const routes = srv.routes.list();
    assert.ok(routes.length > 20, `${routes.length} routes collected`);
    const missing = routes.map((r) => `${r.method} ${r.url}`).filter((k) => !(k in API) && !(k in CONSOLE));
    assert.deepEqual(missing, [], 'routes without an entry in test/route-auth.test.ts');
    const gone = [...Object.keys(API), ...Object.keys(CONSOLE)].filter((k) => !routes.some((r) => `${r.method} ${r.url}` === k));
    assert.deepEqual(gone, [], 'entries for routes that no longer exist');
  });

  test('no key, or a key that is not one, is 401 on every API route', async () => {
    for (const r of srv.routes.list().filter((x) => x.auth === 'api-key')) {
      const e = API[`${r.method} ${r.url}`]!;
      if (e.upload) {
        problem(await fetch(`${srv.url}${r.url}`, { method: 'POST' }).then(async (res) => ({ status: res.status, headers: res.headers, body: await res.text() })), 401, `${r.method} ${r.url} without a key`);
        continue;
      }
      problem(await send(r.method, path(r.url, e), e), 401, `${r.method} ${r.url} without a key`);
      problem(await send(r.method, path(r.url, e), e, 'bzk_notakey_0000000000000000'), 401, `${r.method} ${r.url} with a wrong key`);
    }
  });

  test('a plan without API access is 403 on every API route', async () => {
    const { apiKey: pro } = await srv.account('pro');
    for (const r of srv.routes.list().filter((x) => x.auth === 'api-key')) {
      const e = API[`${r.method} ${r.url}`]!;
      problem(await send(r.method, path(r.url, e), e, pro), 403, `${r.method} ${r.url} on pro`);
    }
  });

  test("another account's id is 404 on every API route that names one, and changes nothing", async () => {
    for (const r of srv.routes.list().filter((x) => x.auth === 'api-key')) {
      const e = API[`${r.method} ${r.url}`]!;
      if (!e.id) continue;
      problem(await send(r.method, path(r.url, e), e, stranger), 404, `${r.method} ${r.url} with the owner's ${e.id}`);
    }
    assert.equal((await call(srv.url, 'GET', `/watch/${ids.watch}`, { key: owner })).status, 200, "the owner's watch is still there");
    assert.equal((await call(srv.url, 'GET', `/batch/${ids.job}`, { key: owner })).body.labels ?? 0, 0, 'no label was recorded');
  });

  test("no session is 401 on every console route; another account's id is 404", async () => {
    const session = srv.routes.list().filter((x) => x.auth === 'session');
    for (const r of session) {
      const e = CONSOLE[`${r.method} ${r.url}`]!;
      // the console checks the origin first: a browser always sends it
      const res = e.upload
        ? await fetch(`${srv.url}${r.url}`, { method: 'POST', headers: { origin: srv.url } }).then(async (x) => ({ status: x.status, headers: x.headers, body: await x.text() }))
        : await send(r.method, path(r.url, e), e, undefined, { origin: srv.url });
      problem(res, 401, `${r.method} ${r.url} without a session`);
    }
    // a business account in the console, so no plan gate stands before the ownership check
    const email = `other-${kind}@example.com`;
    const other = new ConsoleClient(srv.url);
    await other.signUp(email);
    await srv.store.accounts.setPlan((await srv.store.console.findLogin(email))!.account.id, 'business');
    for (const r of session) {
      const e = CONSOLE[`${r.method} ${r.url}`]!;
      if (!e.id) continue;
      const res = await other.request(r.method, path(r.url, e).replace('/console/api', ''), e.body === undefined ? {} : { body: e.body });
      problem(res, 404, `console ${r.method} ${r.url} with the owner's ${e.id}`);
    }
    assert.equal((await call(srv.url, 'GET', '/me', { key: owner })).status, 200, "the owner's key still works");
  });
});
