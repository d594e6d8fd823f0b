// Property-based fuzzing (fast-check) of every endpoint's body, query and headers, and of
// uploaded files, against a real server process: never a 5xx, every error problem+json, and an
// account never sees another's jobs or data. Bounded runs; a failure prints fast-check's seed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createAccount } from '../../src/accounts/accounts.ts';
import { SANDBOX_FIXED } from '../../src/registry/sandbox.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { openTestDb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 180_000 };
const MARK_A = 'SECRET-OF-A-7Q';

interface Req {
  method: string;
  path: string;
  key: 'a' | 'b' | 'garbage' | 'none';
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
}

const ascii = (max: number) => fc.string({ unit: 'grapheme-ascii', maxLength: max });
const anyText = (max: number) => fc.string({ unit: 'binary', maxLength: max });
const bno = fc.oneof(fc.constantFrom(...SANDBOX_FIXED.map((f) => f.bno)), fc.stringMatching(/^\d{10}$/), fc.stringMatching(/^[\d-]{0,14}$/), anyText(12));
const jsonish = fc.oneof(
  fc.record({ b_no: fc.oneof(bno, fc.integer(), fc.constant(null)), name: fc.option(anyText(60)), address: fc.option(anyText(120)) }, { requiredKeys: [] }),
  fc.dictionary(anyText(10), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 4 }),
).map((v) => JSON.stringify(v) ?? 'null');
const rawBody = fc.oneof(jsonish, anyText(300), fc.uint8Array({ maxLength: 400 }));
const contentType = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/problem+json', 'application/json; charset=latin1');
const headerValue = ascii(40);
const commonHeaders = fc.record(
  {
    'accept-language': fc.oneof(fc.constantFrom('en', 'ko', 'en-US,en;q=0.5', '*'), headerValue),
    'x-request-id': headerValue,
    accept: fc.oneof(fc.constantFrom('application/json', 'text/csv', '*/*'), headerValue),
    'idempotency-key': headerValue,
    'x-forwarded-for': headerValue,
  },
  { requiredKeys: [] },
);
const query = fc.dictionary(fc.oneof(fc.constantFrom('preview', 'format', 'offline', 'paid', 'sheet', 'bno_column', 'name_column', 'address_column'), ascii(8)), fc.oneof(ascii(12), fc.integer().map(String), fc.constantFrom('true', 'false', 'csv', 'xlsx', 'json', '-1', '1e9')), { maxKeys: 4 })
  .map((q) => (Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : ''));
const who = fc.constantFrom<Req['key']>('a', 'a', 'b', 'b', 'garbage', 'none');

/** A file as an uploader might send it: random bytes, or CSV-ish text with numbers in it. */
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.tuple(fc.constantFrom('사업자등록번호,상호,주소', 'b_no', 'b_no;name', '', 'x,y,z'), fc.array(fc.tuple(bno, anyText(20), anyText(30)), { maxLength: 30 }))
    .map(([head, rows]) => new TextEncoder().encode(`${head}\n${rows.map((r) => r.join(',')).join('\n')}`)),
  fc.array(fc.record({ b_no: bno, name: anyText(10) }, { requiredKeys: [] }), { maxLength: 10 }).map((a) => new TextEncoder().encode(JSON.stringify(a))),
);

function multipart(bytes: Uint8Array, filename: string, field: string): FormData {
  const form = new FormData();
  form.append(field, new Blob([bytes]), filename);
  return form;
}

reliabilitySuite('fuzzed requests and uploads', {}, () => {
  let db: TestDb;
  const procs = new Processes();
  let server: ServerProcess;
  const keys: Record<'a' | 'b', string> = { a: '', b: '' };
  let accountA = '';
  let jobA = '';
  let jobB = '';
  let sent = 0;

  before(async () => {
    db = await openTestDb('sqlite');
    server = await procs.start('fuzz', 'all', { ...db.env, BATCH_MAX_FILE_BYTES: String(64 * 1024) });
    const a = await createAccount(db.store, 'fuzz-a@example.com', 'business');
    const b = await createAccount(db.store, 'fuzz-b@example.com', 'business');
    keys.a = a.apiKey;
    keys.b = b.apiKey;
    accountA = a.account.id;
    const fixed = SANDBOX_FIXED[0]!.bno;
    const upA = await upload(server.url, keys.a, { name: `${MARK_A}.csv`, body: `b_no,name,address\n${fixed},${MARK_A} 상사,서울 ${MARK_A}\n` }, '', { 'idempotency-key': 'shared-key' });
    const upB = await upload(server.url, keys.b, { name: 'b.csv', body: `b_no\n${fixed}\n` });
    jobA = upA.body.job_id;
    jobB = upB.body.job_id;
    await waitForJob(server.url, keys.a, jobA);
    await waitForJob(server.url, keys.b, jobB);
  });
  after(async () => {
    await procs.stopAll();
    await db?.cleanup();
  });

  async function send(r: Req): Promise<{ status: number; type: string; text: string }> {
    const headers: Record<string, string> = { ...r.headers };
    if (r.key === 'a' || r.key === 'b') headers['x-api-key'] = keys[r.key];
    if (r.key === 'garbage') headers['x-api-key'] = 'bzk_AAAAAAAA_' + 'x'.repeat(40);
    const res = await fetch(`${server.url}${r.path}`, { method: r.method, headers, body: r.body as RequestInit['body'], signal: AbortSignal.timeout(30_000) });
    sent++;
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  }

  /** The rules every answer keeps, whatever was asked. */
  function check(r: Req, res: { status: number; type: string; text: string }): void {
    const where = `${r.method} ${r.path} (key ${r.key}) → ${res.status} ${res.text.slice(0, 300)}`;
    assert.ok(res.status < 500, where);
    if (res.status >= 400) assert.match(res.type, /^application\/problem\+json/, where);
    if (r.key !== 'a') {
      // what the caller sent may be echoed back (a 404 names the path); anything else of A's may not
      for (const secret of [jobA, accountA, MARK_A]) {
        if (!r.path.includes(secret)) assert.ok(!res.text.includes(secret), `leaked ${secret}: ${where}`);
      }
      if (r.path.includes(jobA)) assert.ok(res.status >= 400, where);
    }
  }

  test('JSON routes: any body, query and headers (POST /verify, GET /me, labels)', T, async () => {
    const route = fc.oneof(
      fc.constant({ method: 'POST', path: '/verify' }),
      fc.constant({ method: 'GET', path: '/me' }),
      fc.constantFrom(jobA, jobB, 'job_x').map((id) => ({ method: 'POST', path: `/batch/${id}/label` })),
      fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH').map((method) => ({ method, path: '/verify' })),
    );
    await fc.assert(
      fc.asyncProperty(route, query, who, commonHeaders, contentType, rawBody, async (rt, q, key, headers, ct, body) => {
        const withBody = rt.method !== 'GET' && rt.method !== 'DELETE';
        const r: Req = { ...rt, path: rt.path + q, key, headers: { ...headers, ...(ct ? { 'content-type': ct } : {}) }, ...(withBody ? { body } : {}) };
        check(r, await send(r));
      }),
      { numRuns: 300 },
    );
  });

  test('job routes: any id, query and headers (GET /batch/{id}, results)', T, async () => {
    const id = fc.oneof(fc.constantFrom(jobA, jobB), anyText(30).map((s) => encodeURIComponent(s)), fc.constant('..%2F..%2Fetc'));
    const suffix = fc.constantFrom('', '/results', '/label', '/');
    await fc.assert(
      fc.asyncProperty(id, suffix, query, who, commonHeaders, async (jobId, sfx, q, key, headers) => {
        const r: Req = { method: 'GET', path: `/batch/${jobId}${sfx}${q}`, key, headers };
        check(r, await send(r));
      }),
      { numRuns: 250 },
    );
  });

  test('uploads: random files, names, fields, queries and Idempotency-Keys (POST /batch)', T, async () => {
    const field = fc.constantFrom('file', 'file', 'upload', '');
    await fc.assert(
      fc.asyncProperty(fileBytes, anyText(40), field, query, who, commonHeaders, fc.boolean(), fc.boolean(), async (bytes, name, f, q, key, headers, raw, reuseKey) => {
        // sometimes the bytes go raw under a multipart content type with a made-up boundary
        const body = raw ? bytes : multipart(bytes, name, f);
        const h: Record<string, string> = { ...headers, ...(raw ? { 'content-type': 'multipart/form-data; boundary=----fuzz' } : {}) };
        if (reuseKey) h['idempotency-key'] = 'shared-key';
        const r: Req = { method: 'POST', path: `/batch${q}`, key, headers: h, body };
        check(r, await send(r));
      }),
      { numRuns: 200 },
    );
    // B reusing A's Idempotency-Key gets a job of its own, never A's
    const mine = await upload(server.url, keys.b, { name: 'again.csv', body: `b_no\n${SANDBOX_FIXED[1]!.bno}\n` }, '', { 'idempotency-key': 'shared-key' });
    assert.ok(mine.status === 202 || mine.status === 409, JSON.stringify(mine.body));
    assert.notEqual(mine.body.job_id, jobA);
  });

  test('the server process survived it all', async () => {
    assert.ok(server.alive(), server.errors());
    assert.ok(sent >= 700, `${sent} requests sent`);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    assert.doesNotMatch(server.output(), /unhandled error|"level":50/);
  });
});
