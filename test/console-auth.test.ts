// The console's sign-up, sign-in and sessions over HTTP, on both stores: cookies, session
// fixation, CSRF (token and Origin), rate-limited sign-in attempts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConsoleClient, PASSWORD } from './helpers/console.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

let n = 0;
const email = () => `console${++n}-${Date.now()}@example.com`;

describeEachStore('console sign-in', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind, { CONSOLE_SIGNUPS_PER_IP_HOUR: '1000' });
  });
  after(async () => srv.close());

  test('sign-up creates a free account; signing in with it gives an httpOnly SameSite=Strict cookie (no Secure over http)', async () => {
    const c = new ConsoleClient(srv.url);
    const res = await c.signUp(email());
    assert.equal(res.status, 200);
    assert.equal(res.body.account.plan, 'free');
    assert.match(res.body.csrf_token, /^[\w-]{43}$/);
    const [cookie] = c.setCookies;
    assert.match(cookie ?? '', /^bizcheck_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const me = await c.request('GET', '/session');
    assert.equal(me.status, 200);
    assert.equal(me.body.account.id, res.body.account.id);
    assert.equal(me.body.csrf_token, res.body.csrf_token);
    assert.equal((await srv.store.accounts.get(res.body.account.id))?.plan, 'free');
  });

  test('sign-up refuses a short password, a malformed email and a taken email', async () => {
    const c = new ConsoleClient(srv.url);
    const short = await c.signUp(email(), 'short');
    assert.equal(short.status, 400);
    assert.match(short.body.detail, /at least 10 characters/);
    assert.equal((await c.signUp('not-an-email')).status, 400);
    const taken = email();
    assert.equal((await c.signUp(taken)).status, 200);
    // a taken email gets the answer a free one gets, changes nothing, and starts no session
    const fresh = await new ConsoleClient(srv.url).request('POST', '/signup', { body: { email: email(), password: PASSWORD } });
    const attacker = new ConsoleClient(srv.url);
    const again = await attacker.request('POST', '/signup', { body: { email: taken.toUpperCase(), password: 'another password 123' } });
    assert.equal(again.status, fresh.status);
    assert.deepEqual(again.body, fresh.body);
    assert.equal(again.status, 202);
    assert.equal(attacker.cookie, null);
    assert.equal((await attacker.signIn(taken, 'another password 123')).status, 401, 'the attacker\'s password was not set');
    assert.equal((await new ConsoleClient(srv.url).signIn(taken)).status, 200, 'the owner\'s still works');
  });

  test('sign-in with the right password starts a session; a wrong one is 401 invalid_credentials, like an unknown email', async () => {
    const who = email();
    await new ConsoleClient(srv.url).signUp(who);
    const c = new ConsoleClient(srv.url);
    const wrong = await c.signIn(who, 'wrong password 123');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_credentials');
    assert.equal(wrong.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(c.cookie, null);
    const unknown = await c.signIn(`nobody-${who}`);
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.detail, wrong.body.detail, 'the answer does not say which part was wrong');
    const ok = await c.signIn(who);
    assert.equal(ok.status, 200);
    assert.equal((await c.request('GET', '/session')).status, 200);
  });

  test('an account created by the CLI cannot be claimed by signing up or in with its email', async () => {
    const cli = email();
    await srv.account('business', cli);
    const c = new ConsoleClient(srv.url);
    assert.equal((await c.request('POST', '/signup', { body: { email: cli, password: PASSWORD } })).status, 202);
    assert.equal((await c.signIn(cli)).status, 401);
  });

  test('session fixation: an id planted before sign-in is never the session after it', async () => {
    const who = email();
    await new ConsoleClient(srv.url).signUp(who);
    const c = new ConsoleClient(srv.url);
    const planted = 'A'.repeat(43);
    c.cookie = `bizcheck_session=${planted}`;
    assert.equal((await c.request('GET', '/session')).status, 401, 'an id the server never issued opens nothing');
    assert.equal((await c.signIn(who)).status, 200);
    assert.notEqual(c.sessionId, planted);
    assert.equal((await c.request('GET', '/session')).status, 200);
    c.cookie = `bizcheck_session=${planted}`;
    assert.equal((await c.request('GET', '/session')).status, 401);
  });

  test('signing in again replaces the session the browser came with; the old id stops working', async () => {
    const who = email();
    const c = new ConsoleClient(srv.url);
    await c.signUp(who);
    const first = c.cookie;
    assert.equal((await c.signIn(who)).status, 200);
    assert.notEqual(c.cookie, first);
    const old = new ConsoleClient(srv.url);
    old.cookie = first;
    assert.equal((await old.request('GET', '/session')).status, 401);
  });

  test('sign-out ends the session on the server, not only in the browser', async () => {
    const c = new ConsoleClient(srv.url);
    await c.signUp(email());
    const cookie = c.cookie;
    const out = await c.request('DELETE', '/session');
    assert.equal(out.status, 204);
    assert.match(c.setCookies[0] ?? '', /bizcheck_session=;.*Expires=Thu, 01 Jan 1970/);
    const replay = new ConsoleClient(srv.url);
    replay.cookie = cookie;
    const res = await replay.request('GET', '/account');
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'not_signed_in');
  });

  test('CSRF: a state-changing request needs the session token and this origin', async () => {
    const c = new ConsoleClient(srv.url);
    await c.signUp(email());
    const other = new ConsoleClient(srv.url);
    await other.signUp(email());
    const noToken = await c.request('POST', '/keys', { csrf: null });
    assert.equal(noToken.status, 403);
    assert.equal(noToken.body.code, 'csrf_rejected');
    assert.equal((await c.request('POST', '/keys', { csrf: 'x'.repeat(43) })).status, 403, 'a made-up token');
    assert.equal((await c.request('POST', '/keys', { csrf: other.csrf })).status, 403, "another session's token");
    assert.equal((await c.request('POST', '/keys', { origin: 'https://evil.example' })).status, 403, 'a foreign Origin, even with the token');
    assert.equal((await c.request('POST', '/keys', { origin: 'null' })).status, 403);
    assert.equal((await c.request('POST', '/keys', { origin: null, headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);
    assert.equal((await c.request('DELETE', '/session', { csrf: null })).status, 403, 'sign-out too');
    assert.equal((await srv.store.keys.list(c.sessionId ? (await c.request('GET', '/session')).body.account.id : '')).length, 0, 'no key was issued');
    const ok = await c.request('POST', '/keys');
    assert.equal(ok.status, 201);
  });

  test('CSRF: sign-in and sign-up from another origin are refused (login CSRF)', async () => {
    const who = email();
    const c = new ConsoleClient(srv.url);
    const res = await c.request('POST', '/signup', { body: { email: who, password: PASSWORD }, origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'csrf_rejected');
    assert.equal(c.cookie, null);
    await new ConsoleClient(srv.url).signUp(who);
    assert.equal((await c.request('POST', '/session', { body: { email: who, password: PASSWORD }, origin: 'https://evil.example' })).status, 403);
    // a form post cannot send JSON: the body type alone stops a cross-site form
    const form = await fetch(`${srv.url}/console/api/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${who}&password=${PASSWORD}` });
    assert.equal(form.status, 415);
  });

  test('session cookies are Secure with the __Host- prefix when CONSOLE_COOKIE_SECURE=true', async () => {
    const secure = await startTestServer(kind, { CONSOLE_COOKIE_SECURE: 'true' });
    try {
      const c = new ConsoleClient(secure.url);
      assert.equal((await c.signUp(email())).status, 200);
      assert.match(c.setCookies[0] ?? '', /^__Host-bizcheck_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
      assert.equal((await c.request('GET', '/session')).status, 200);
      const plain = new ConsoleClient(secure.url);
      plain.cookie = c.cookie!.replace('__Host-', '');
      assert.equal((await plain.request('GET', '/session')).status, 401, 'the unprefixed name is not read in this mode');
    } finally {
      await secure.close();
    }
  });
});

describeEachStore('console sign-in rate limits', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind, { CONSOLE_SIGNUPS_PER_IP_HOUR: '3' });
  });
  after(async () => srv.close());

  test('five failed sign-ins for an email make the sixth a 429 with Retry-After, even with the right password', async () => {
    const who = email();
    await new ConsoleClient(srv.url).signUp(who);
    const c = new ConsoleClient(srv.url);
    for (let i = 0; i < 5; i++) assert.equal((await c.signIn(who, `wrong password ${i}`)).status, 401, `attempt ${i + 1}`);
    const blocked = await c.signIn(who);
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.code, 'too_many_attempts');
    const retry = Number(blocked.headers.get('retry-after'));
    assert.ok(retry > 800 && retry <= 900, `Retry-After ${retry}`);
    assert.equal(c.cookie, null);
  });

  test('a successful sign-in clears the failures counted for that email', async () => {
    const who = email();
    await new ConsoleClient(srv.url).signUp(who);
    const c = new ConsoleClient(srv.url);
    for (let i = 0; i < 4; i++) assert.equal((await c.signIn(who, `wrong password ${i}`)).status, 401);
    assert.equal((await c.signIn(who)).status, 200);
    for (let i = 0; i < 4; i++) assert.equal((await c.signIn(who, `wrong again ${i}`)).status, 401);
    assert.equal((await c.signIn(who)).status, 200);
  });

  test('sign-ups per client address are limited (CONSOLE_SIGNUPS_PER_IP_HOUR)', async () => {
    // two of this server's three were used by the tests above
    assert.equal((await new ConsoleClient(srv.url).signUp(email())).status, 200);
    const refused = await new ConsoleClient(srv.url).signUp(email());
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 3000);
  });
});

describeEachStore('console sign-in rate limits per address', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind, { CONSOLE_SIGNIN_MAX_FAILURES_PER_IP: '3', CONSOLE_SIGNUPS_PER_IP_HOUR: '1000' });
  });
  after(async () => srv.close());

  test('failures across many emails from one address hit the per-address limit', async () => {
    const c = new ConsoleClient(srv.url);
    for (let i = 0; i < 3; i++) assert.equal((await c.signIn(email(), 'some password')).status, 401);
    const blocked = await c.signIn(email(), 'some password');
    assert.equal(blocked.status, 429);
  });
});
