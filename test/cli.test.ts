// The administration CLI as an operator uses it: a real process on the embedded store, its JSON
// read back, and the keys it issues tried against a running server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/start/server.ts';
import { call } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';

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

  test('operators find an account by email: accounts list and show, --email wherever --account is taken; every command names its database', async () => {
    const made = await cli('accounts', 'create', '--email', 'Finder@Example.com', '--plan', 'free');
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, new RegExp(`embedded database ${path.join(dataDir, 'bizcheck.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const listed = await cli('accounts', 'list', '--email', 'FINDER@');
    assert.deepEqual(listed.json.map((a: { account_id: string }) => a.account_id), [made.json.account_id]);
    assert.ok((await cli('accounts', 'list')).json.length >= 1);
    assert.equal((await cli('accounts', 'list', '--email', '100%_')).json.length, 0, 'LIKE wildcards in the email are literal');
    const shown = await cli('accounts', 'show', '--email', 'finder@example.com');
    assert.equal(shown.json.account_id, made.json.account_id);
    assert.equal(shown.json.keys.length, 1);
    const raised = await cli('accounts', 'set-plan', '--email', 'finder@example.com', '--plan', 'business');
    assert.deepEqual(raised.json, { account_id: made.json.account_id, plan: 'business' });
    assert.equal((await call(srv.url, 'GET', '/me', { key: made.json.api_key })).body.plan, 'business');
    const unknown = await cli('accounts', 'set-plan', '--email', 'nobody@example.com', '--plan', 'pro');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account with the email nobody@example.com/);
    const neither = await cli('keys', 'list');
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /--account \(or --email\)/);
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

  test('export writes everything held about an account as JSON Lines without secrets; delete removes it all, keys first', async () => {
    const acc = (await cli('accounts', 'create', '--email', 'leaving@example.com', '--plan', 'business')).json;
    const key = acc.api_key as string;
    const marker = `탈퇴상회${Date.now().toString(36)}`;
    const job = await upload(srv.url, key, { name: 'list.csv', body: `사업자등록번호,상호,주소\n1248100998,${marker},서울특별시 종로구 ${marker}길 1\n` });
    assert.equal(job.status, 202, JSON.stringify(job.body));
    assert.equal((await waitForJob(srv.url, key, job.body.job_id)).body.status, 'done');
    assert.equal((await call(srv.url, 'POST', '/watch', { key, body: { biz_no: '3333333336', name: `${marker}감시` } })).status, 201);
    assert.equal((await call(srv.url, 'PUT', '/webhook', { key, body: { url: 'https://hooks.example.com/bizcheck' } })).status, 200);
    // a name that reads as JSON is still a name
    assert.equal((await call(srv.url, 'POST', '/watch', { key, body: { biz_no: '1111111119', name: '[1]' } })).status, 201);

    const out = path.join(dataDir, 'export.jsonl');
    const exported = await cli('accounts', 'export', '--account', acc.account_id, '--out', out);
    assert.equal(exported.code, 0, exported.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    const types = new Set(lines.map((l) => l.type));
    for (const t of ['account', 'api_key', 'usage', 'batch_job', 'batch_row', 'watch', 'watch_history', 'webhook_endpoint', 'evidence']) assert.ok(types.has(t), `${t} in ${[...types].join(', ')}`);
    assert.deepEqual(exported.json.lines.batch_row, 1);
    const row = lines.find((l) => l.type === 'batch_row')!;
    assert.equal(row.input['상호'], marker, 'the rows as uploaded');
    assert.equal(row.result.biz_status, 'active');
    assert.ok(lines.some((l) => l.type === 'watch' && l.name === '[1]'), 'text columns stay text');
    assert.ok(lines.some((l) => l.type === 'watch' && l.state?.biz_status === 'active'), 'JSON columns are values');
    const text = readFileSync(out, 'utf8');
    assert.doesNotMatch(text, /"hash"|"secret"|"password_hash"|whsec_/, 'no secret leaves the service');
    assert.ok(lines.some((l) => l.type === 'api_key' && l.prefix === key.split('_').slice(0, 2).join('_')), 'keys by prefix');
    // to stdout when no file is named
    const piped = await run(process.execPath, [BIN, 'accounts', 'export', '--account', acc.account_id], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, timeout: 20_000 });
    assert.equal(piped.stdout.trim().split('\n').length, lines.length);
    assert.match(piped.stderr, /"lines"/);

    const unconfirmed = await cli('accounts', 'delete', '--account', acc.account_id);
    assert.notEqual(unconfirmed.code, 0);
    assert.match(unconfirmed.stderr, /--confirm/);
    assert.equal((await call(srv.url, 'GET', '/me', { key })).status, 200, 'nothing deleted without confirmation');
    const deleted = await cli('accounts', 'delete', '--account', acc.account_id, '--confirm', acc.account_id);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json, { account_id: acc.account_id, deleted: true });
    assert.equal((await call(srv.url, 'GET', '/me', { key })).status, 401, 'the key is gone');
    assert.equal((await cli('accounts', 'export', '--account', acc.account_id, '--out', path.join(dataDir, 'again.jsonl'))).code, 1);
    const files = readdirSync(dataDir).filter((f) => f.startsWith('bizcheck.db')).map((f) => readFileSync(path.join(dataDir, f)).toString('utf8')).join('');
    assert.doesNotMatch(files, new RegExp(marker), 'no trace in the database files');
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
