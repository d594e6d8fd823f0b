// The administration CLI as an operator uses it: a real process on the embedded store, its JSON
// read back, and the keys it issues tried against a running server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/start/server.ts';
import { call } from './helpers/server.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../bin/bizcheck.js');

describe('bizcheck CLI', () => {
  let dataDir: string;
  let srv: RunningServer;
  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, timeout: 20_000 });
      return { code: 0, stdout, stderr, json: stdout ? JSON.parse(stdout) : null };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr, json: null };
    }
  };

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-cli-'));
    // the server shares the database file with the CLI processes, as in production; no key cache
    // so that changes made by the CLI are visible on the next request
    srv = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', AUTH_CACHE_TTL_MS: '0' }));
  });
  after(async () => {
    await srv.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('accounts create prints the account id and a key that works at once', async () => {
    const r = await cli('accounts', 'create', '--email', 'Ops@Example.com', '--plan', 'business');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.json.account_id, /^acc_/);
    assert.match(r.json.api_key, /^bzk_[0-9A-Za-z]{8}_[0-9A-Za-z]{40}$/);
    assert.equal(r.json.email, 'ops@example.com');
    const me = await call(srv.url, 'GET', '/me', { key: r.json.api_key });
    assert.equal(me.status, 200);
    assert.equal(me.body.account_id, r.json.account_id);
  });

  test('keys are stored only as hashes: the database file never contains a key', async () => {
    const r = await cli('accounts', 'create', '--email', 'hash@example.com', '--plan', 'business');
    const secret = r.json.api_key.split('_')[2];
    // searched from another process: opening and closing the database file in this one would drop
    // the server connection's POSIX locks (an SQLite rule)
    const found = await run('grep', ['-rlF', secret, dataDir]).then((x) => x.stdout, (e: { code: number; stdout: string }) => (e.code === 1 ? '' : e.stdout));
    assert.equal(found, '', 'no file holds the secret');
  });

  test('a second key, a listing by prefix, and revocation', async () => {
    const acc = (await cli('accounts', 'create', '--email', 'keys@example.com', '--plan', 'enterprise')).json;
    const second = await cli('keys', 'create', '--account', acc.account_id);
    assert.equal(second.code, 0, second.stderr);
    assert.notEqual(second.json.api_key, acc.api_key);
    const list = await cli('keys', 'list', '--account', acc.account_id);
    assert.equal(list.json.length, 2);
    assert.ok(!list.stdout.includes(acc.api_key) && !list.stdout.includes(second.json.api_key), 'listing shows prefixes only');
    const revoked = await cli('keys', 'revoke', '--key-prefix', second.json.prefix);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await call(srv.url, 'GET', '/me', { key: second.json.api_key })).status, 401);
    assert.equal((await call(srv.url, 'GET', '/me', { key: acc.api_key })).status, 200);
    const again = await cli('keys', 'revoke', '--key-prefix', second.json.prefix);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no active key/);
  });

  test('set-plan and set-quota change what the API allows', async () => {
    const acc = (await cli('accounts', 'create', '--email', 'plan@example.com', '--plan', 'pro')).json;
    assert.equal((await call(srv.url, 'GET', '/me', { key: acc.api_key })).status, 403);
    assert.equal((await cli('accounts', 'set-plan', '--account', acc.account_id, '--plan', 'business')).code, 0);
    assert.equal((await cli('accounts', 'set-quota', '--account', acc.account_id, '--limit', '7')).json.quota_limit, 7);
    const me = await call(srv.url, 'GET', '/me', { key: acc.api_key });
    assert.equal(me.status, 200);
    assert.equal(me.body.quota.limit, 7);
    assert.equal((await cli('accounts', 'set-quota', '--account', acc.account_id, '--limit', 'plan')).json.quota_limit, null);
    assert.equal((await call(srv.url, 'GET', '/me', { key: acc.api_key })).body.quota.limit, 50_000);
  });

  test('set-retention gives an account its own retention of batch jobs, and back', async () => {
    const acc = (await cli('accounts', 'create', '--email', 'retention@example.com', '--plan', 'business')).json;
    const set = await cli('accounts', 'set-retention', '--account', acc.account_id, '--days', '30');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(set.json, { account_id: acc.account_id, batch_retention_days: 30 });
    assert.equal((await srv.store.accounts.get(acc.account_id))!.batchRetentionDays, 30);
    assert.equal((await cli('accounts', 'set-retention', '--account', acc.account_id, '--days', 'default')).json.batch_retention_days, null);
    for (const bad of ['0', '4000', 'soon']) {
      const r = await cli('accounts', 'set-retention', '--account', acc.account_id, '--days', bad);
      assert.notEqual(r.code, 0, bad);
      assert.match(r.stderr, /days/);
    }
  });

  test('mistakes get a clear message and a non-zero exit', async () => {
    const dup = await cli('accounts', 'create', '--email', 'ops@example.com', '--plan', 'business');
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /exists/);
    const plan = await cli('accounts', 'create', '--email', 'x@example.com', '--plan', 'gold');
    assert.equal(plan.code, 1);
    assert.match(plan.stderr, /unknown plan "gold"/);
    const email = await cli('accounts', 'create', '--email', 'not-an-email', '--plan', 'business');
    assert.match(email.stderr, /not an email/);
    const missing = await cli('accounts', 'create', '--plan', 'business');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing --email/);
    const unknown = await cli('accounts', 'explode');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command/);
    assert.match((await cli('accounts', 'set-plan', '--account', 'acc_nope', '--plan', 'pro')).stderr, /no account acc_nope/);
    assert.match((await cli('accounts', 'set-quota', '--account', 'acc_nope', '--limit=-3')).stderr, /whole number/);
    assert.equal((await cli('--help')).code, 0);
  });
});
