// The console store contract, run against both engines: accounts with passwords, sessions that
// expire, and sign-in attempts counted exactly under concurrency.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { StoreConflict, type Store } from '../src/store/store.ts';
import type { Account } from '../src/domain/account.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';

const T0 = new Date('2026-11-21T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
let seq = 0;
const account = (): Account => ({ id: `acc_c${++seq}`, email: `c${seq}@example.com`, plan: 'free', quotaLimit: null, batchRetentionDays: null, createdAt: T0.toISOString() });

describeEachStore('console store', (kind) => {
  const opened = useFreshStore(kind);
  let store: Store;
  before(() => {
    store = opened.store;
  });

  test('an account and its password are created together; a taken email creates neither', async () => {
    const a = account();
    await store.console.createAccountWithLogin(a, 'scrypt$hash-a');
    assert.deepEqual(await store.console.findLogin(a.email), { account: a, passwordHash: 'scrypt$hash-a' });
    const twin = { ...account(), email: a.email };
    await assert.rejects(store.console.createAccountWithLogin(twin, 'scrypt$hash-b'), StoreConflict);
    assert.equal(await store.accounts.get(twin.id), null);
    assert.equal(await store.console.findLogin('nobody@example.com'), null);
  });

  test('an account made by the CLI has no console password', async () => {
    const a = account();
    await store.accounts.create(a);
    assert.equal(await store.console.findLogin(a.email), null);
  });

  test('a session is found by its hash until it expires or is deleted', async () => {
    const a = account();
    await store.console.createAccountWithLogin(a, 'h');
    const s = { idHash: `h${seq}`, accountId: a.id, createdAt: T0.toISOString(), expiresAt: at(3600_000).toISOString() };
    await store.console.createSession(s);
    assert.deepEqual(await store.console.findSession(s.idHash, at(1000).toISOString()), { session: s, account: a });
    assert.equal(await store.console.findSession(s.idHash, at(3600_000).toISOString()), null, 'expired at expires_at');
    assert.equal(await store.console.findSession('unknown', at(1000).toISOString()), null);
    await store.console.deleteSession(s.idHash);
    assert.equal(await store.console.findSession(s.idHash, at(1000).toISOString()), null);
  });

  test('expired sessions are cleared when a new one starts', async () => {
    const a = account();
    await store.console.createAccountWithLogin(a, 'h');
    const old = { idHash: `old${seq}`, accountId: a.id, createdAt: T0.toISOString(), expiresAt: at(1000).toISOString() };
    await store.console.createSession(old);
    await store.console.createSession({ idHash: `new${seq}`, accountId: a.id, createdAt: at(5000).toISOString(), expiresAt: at(9000).toISOString() });
    assert.equal(await store.console.findSession(old.idHash, T0.toISOString()), null, 'deleted, not merely expired');
  });

  test('attempts beyond the limit in the window are refused and not recorded; the window frees them', async () => {
    const subjects = [{ kind: 'signin-email', subject: `w${++seq}@example.com`, limit: 3 }];
    const window = { windowMs: 60_000 };
    for (let i = 0; i < 3; i++) assert.deepEqual(await store.console.beginAttempt(`a${seq}-${i}`, subjects, { now: at(i * 1000), ...window }), { allowed: true });
    const refused = await store.console.beginAttempt(`a${seq}-x`, subjects, { now: at(10_000), ...window });
    assert.deepEqual(refused, { allowed: false, kind: 'signin-email', retryAt: at(60_000).toISOString() }, 'the oldest attempt leaves the window at 60 s');
    assert.equal((await store.console.beginAttempt(`a${seq}-y`, subjects, { now: at(59_999), ...window })).allowed, false);
    assert.equal((await store.console.beginAttempt(`a${seq}-z`, subjects, { now: at(60_001), ...window })).allowed, true);
  });

  test('an attempt counts against every subject; the first one at its limit refuses it', async () => {
    const ip = { kind: 'signin-ip', subject: `10.0.0.${++seq}`, limit: 2 };
    for (const email of ['x1@example.com', 'x2@example.com']) {
      assert.equal((await store.console.beginAttempt(`${email}${seq}`, [{ kind: 'signin-email', subject: email, limit: 5 }, ip], { now: T0, windowMs: 60_000 })).allowed, true);
    }
    const third = await store.console.beginAttempt(`x3${seq}`, [{ kind: 'signin-email', subject: 'x3@example.com', limit: 5 }, ip], { now: T0, windowMs: 60_000 });
    assert.equal(third.allowed, false);
    assert.equal(!third.allowed && third.kind, 'signin-ip');
  });

  test('forgetting an attempt takes it back, and can clear a subject', async () => {
    const email = { kind: 'signin-email', subject: `f${++seq}@example.com`, limit: 2 };
    const ip = { kind: 'signin-ip', subject: `10.1.0.${seq}`, limit: 2 };
    const opts = { now: T0, windowMs: 60_000 };
    await store.console.beginAttempt(`f${seq}-1`, [email, ip], opts);
    await store.console.beginAttempt(`f${seq}-2`, [email, ip], opts);
    assert.equal((await store.console.beginAttempt(`f${seq}-3`, [email], opts)).allowed, false);
    await store.console.forgetAttempt(`f${seq}-2`, { kind: email.kind, subject: email.subject });
    // the email is clear, the address keeps its other attempt
    assert.equal((await store.console.beginAttempt(`f${seq}-4`, [email], opts)).allowed, true);
    assert.equal((await store.console.beginAttempt(`f${seq}-5`, [ip], opts)).allowed, true);
    assert.equal((await store.console.beginAttempt(`f${seq}-6`, [ip], opts)).allowed, false);
  });

  test('concurrent attempts are counted exactly: 30 at once against a limit of 5 let 5 through', async () => {
    const subjects = [{ kind: 'signin-email', subject: `race${++seq}@example.com`, limit: 5 }];
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => store.console.beginAttempt(`r${seq}-${i}`, subjects, { now: T0, windowMs: 60_000 })));
    assert.equal(outcomes.filter((o) => o.allowed).length, 5);
  });
});
