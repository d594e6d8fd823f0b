// Authentication, plan gating and the error envelope on every route of the API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { revokeKey, setPlan } from '../src/accounts/accounts.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const ROUTES: [string, string, unknown?][] = [
  ['GET', '/me'],
  ['POST', '/verify', { b_no: '1248100998' }],
  ['POST', '/batch', { b_no: '1248100998' }],
  ['GET', '/batch/job_x'],
  ['GET', '/batch/job_x/results?format=csv'],
  ['POST', '/batch/job_x/label', { row_id: 1, bounced: true }],
];
/** what an account with API access gets on each route with these inputs */
const ADMITTED: Record<string, number> = { '/me': 200, '/verify': 200, '/batch': 415, '/batch/job_x': 404, '/batch/job_x/results?format=csv': 404, '/batch/job_x/label': 404 };

function assertProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(res.body.code, code);
  for (const k of ['type', 'title', 'detail', 'request_id']) assert.equal(typeof res.body[k], 'string', k);
}

describeEachStore('API keys and plans', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());

  test('a missing, malformed or unknown key is 401 on every route, before the body is looked at', async () => {
    for (const [method, path, body] of ROUTES) {
      for (const key of [undefined, '', 'not-a-key', `bzk_AAAAAAAA_${'a'.repeat(40)}`]) {
        assertProblem(await call(srv.url, method, path, { key, body }), 401, 'unauthorized');
      }
      assertProblem(await call(srv.url, method, path, { body: method === 'POST' ? '{broken' : undefined }), 401, 'unauthorized');
    }
  });

  test('free and pro plans get 403 on every route; business and enterprise get in', async () => {
    for (const plan of ['free', 'pro'] as const) {
      const { apiKey } = await srv.account(plan);
      for (const [method, path, body] of ROUTES) assertProblem(await call(srv.url, method, path, { key: apiKey, body }), 403, 'plan_forbidden');
    }
    for (const plan of ['business', 'enterprise'] as const) {
      const { apiKey } = await srv.account(plan);
      for (const [method, path, body] of ROUTES) assert.equal((await call(srv.url, method, path, { key: apiKey, body })).status, ADMITTED[path], `${method} ${path}`);
    }
  });

  test('a plan change takes effect on the next request', async () => {
    const { accountId, apiKey } = await srv.account('business');
    assert.equal((await call(srv.url, 'GET', '/me', { key: apiKey })).status, 200);
    await setPlan(srv.store, accountId, 'pro');
    assertProblem(await call(srv.url, 'GET', '/me', { key: apiKey }), 403, 'plan_forbidden');
  });

  test('a revoked key is 401 at once; other keys of the account keep working', async () => {
    const { apiKey } = await srv.account('business');
    const other = await srv.account('business');
    await revokeKey(srv.store, apiKey.split('_').slice(0, 2).join('_'));
    assertProblem(await call(srv.url, 'GET', '/me', { key: apiKey }), 401, 'unauthorized');
    assert.equal((await call(srv.url, 'GET', '/me', { key: other.apiKey })).status, 200);
  });

  test('an unknown route is 404 problem+json, with or without a key', async () => {
    const { apiKey } = await srv.account('business');
    assertProblem(await call(srv.url, 'GET', '/nope'), 404, 'not_found');
    assertProblem(await call(srv.url, 'GET', '/verify', { key: apiKey }), 404, 'not_found');
    assertProblem(await call(srv.url, 'DELETE', '/me', { key: apiKey }), 404, 'not_found');
  });

  test('health, readiness and the OpenAPI document need no key', async () => {
    assert.equal((await call(srv.url, 'GET', '/healthz')).status, 200);
    const ready = await call(srv.url, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.database, 'up');
    const doc = await call(srv.url, 'GET', '/openapi.json');
    assert.equal(doc.body.openapi, '3.1.0');
    assert.ok(doc.body.paths['/verify'].post.requestBody);
    assert.ok(doc.body.paths['/me'].get);
    for (const p of ['/batch', '/batch/{job_id}', '/batch/{job_id}/results', '/batch/{job_id}/label']) assert.ok(doc.body.paths[p], p);
    assert.deepEqual(doc.body.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const docs = await fetch(`${srv.url}/docs`, { signal: AbortSignal.timeout(5000) });
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});
