import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeNts, startFakeNts } from './fake-nts-server.ts';
import { NtsHttpClient } from './nts-client.ts';
import { resilient } from './resilience.ts';
import { retryAfterOf } from './retry-after.ts';
import { SANDBOX_FIXED, sandboxRecord } from './sandbox.ts';
import { type NtsRecord, UpstreamError } from '../domain/status.ts';

const KEY = 'test-key+/=';
const fixed = (status: string): string => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const ACTIVE = fixed('active');
const CLOSED = fixed('closed');
const UNREGISTERED = fixed('unregistered');
const T = { timeout: 10_000 };

async function rejectsWith(p: Promise<unknown>, fault: string, retryable: boolean): Promise<UpstreamError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof UpstreamError, `expected UpstreamError, got ${String(caught)}`);
  assert.equal(caught.fault, fault, caught.message);
  assert.equal(caught.retryable, retryable);
  return caught;
}

const throttled: typeof fetch = async () => new Response('', { status: 429, headers: { 'retry-after': '2' } });
const signal = (): AbortSignal => AbortSignal.timeout(5_000);

describe('NtsHttpClient against the fake NTS', () => {
  let fake: FakeNts;
  let client: NtsHttpClient;
  before(async () => {
    fake = await startFakeNts({ serviceKey: KEY, seed: 7 });
    client = new NtsHttpClient({ baseUrl: fake.url, serviceKey: KEY });
  });
  after(() => fake.close());
  const reset = (): void => fake.setOptions({ errorRate: 0, malformedRate: 0, timeoutRate: 0, latencyMs: 0, serviceKey: KEY, overrides: undefined });

  test('success: every number answered, matching the sandbox world', T, async () => {
    reset();
    const out = await client.callOnce([ACTIVE, CLOSED], signal());
    assert.deepEqual(out.get(ACTIVE), sandboxRecord(ACTIVE));
    assert.equal(out.get(CLOSED)?.b_stt_cd, '03');
    assert.match(out.get(CLOSED)?.end_dt ?? '', /^[0-9]{8}$/);
    assert.deepEqual(fake.received.at(-1), [ACTIVE, CLOSED]);
  });

  test('unregistered number, with match_cnt absent from the answer', T, async () => {
    reset();
    const raw = await fetch(`${fake.url}/api/nts-businessman/v1/status?serviceKey=${encodeURIComponent(KEY)}`, {
      method: 'POST', body: JSON.stringify({ b_no: [UNREGISTERED] }),
    });
    const json: unknown = await raw.json();
    assert.equal(typeof json === 'object' && json !== null && 'match_cnt' in json, false);
    const out = await client.callOnce([UNREGISTERED], signal());
    assert.equal(out.get(UNREGISTERED)?.b_stt_cd, '');
    assert.equal(out.get(UNREGISTERED)?.tax_type, '국세청에 등록되지 않은 사업자등록번호입니다.');
  });

  test('overrides let a test close a business', T, async () => {
    reset();
    const closed: NtsRecord = { ...sandboxRecord(ACTIVE), b_stt: '폐업자', b_stt_cd: '03', end_dt: '20261101' };
    fake.setOptions({ overrides: new Map([[ACTIVE, closed]]) });
    assert.equal((await client.callOnce([ACTIVE], signal())).get(ACTIVE)?.end_dt, '20261101');
  });

  test('HTTP 500 is http_5xx and retryable', T, async () => {
    reset();
    fake.setOptions({ errorRate: 1 });
    const e = await rejectsWith(client.callOnce([ACTIVE], signal()), 'http_5xx', true);
    assert.equal(e.httpStatus, 500);
  });

  test('500 is retried by the resilience wrapper, then succeeds', T, async () => {
    reset();
    fake.setOptions({ errorRate: 1 });
    // The first answer flips the fake back to healthy, so exactly one failure precedes success.
    const flipping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      fake.setOptions({ errorRate: 0 });
      return res;
    };
    const c = new NtsHttpClient({ baseUrl: fake.url, serviceKey: KEY, fetch: flipping });
    const call = resilient((b: string[], s) => c.callOnce(b, s), { initialDelayMs: 5, maxDelayMs: 20 });
    const callsBefore = fake.calls;
    const out = await call([ACTIVE]);
    assert.equal(out.get(ACTIVE)?.b_stt_cd, '01');
    assert.equal(fake.calls - callsBefore, 2);
  });

  test('malformed body is malformed and retryable', T, async () => {
    reset();
    fake.setOptions({ malformedRate: 1 });
    await rejectsWith(client.callOnce([ACTIVE], signal()), 'malformed', true);
  });

  test('bad key is rejected and not retried', T, async () => {
    reset();
    const bad = new NtsHttpClient({ baseUrl: fake.url, serviceKey: 'wrong' });
    const call = resilient((b: string[], s) => bad.callOnce(b, s), { initialDelayMs: 5 });
    const callsBefore = fake.calls;
    const e = await rejectsWith(call([ACTIVE]), 'rejected', false);
    assert.equal(e.httpStatus, 401);
    assert.match(e.message, /-4/);
    assert.equal(fake.calls - callsBefore, 1);
  });

  test('a server that never answers times out (caller signal)', T, async () => {
    reset();
    fake.setOptions({ timeoutRate: 1 });
    const e = await rejectsWith(client.callOnce([ACTIVE], AbortSignal.timeout(150)), 'timeout', true);
    assert.match(e.message, /timed out/);
  });

  test('a server that never answers times out (resilience timeout), retried', T, async () => {
    reset();
    fake.setOptions({ timeoutRate: 1 });
    const call = resilient((b: string[], s) => client.callOnce(b, s), { timeoutMs: 100, maxRetries: 1, initialDelayMs: 5 });
    const callsBefore = fake.calls;
    await rejectsWith(call([ACTIVE]), 'timeout', true);
    assert.equal(fake.calls - callsBefore, 2);
  });

  test('429 with Retry-After carries the hint', T, async () => {
    const c = new NtsHttpClient({ baseUrl: 'http://127.0.0.1:1', serviceKey: KEY, fetch: throttled });
    const e = await rejectsWith(c.callOnce([ACTIVE], signal()), 'rate_limited', true);
    assert.equal(retryAfterOf(e), 2_000);
  });

  test('connection refused is a retryable network error', T, async () => {
    const gone = await startFakeNts();
    const url = gone.url;
    await gone.close();
    const c = new NtsHttpClient({ baseUrl: url, serviceKey: KEY });
    const e = await rejectsWith(c.callOnce([ACTIVE], signal()), 'network', true);
    assert.doesNotMatch(e.message, /test-key/, 'the service key never appears in errors');
  });
});
