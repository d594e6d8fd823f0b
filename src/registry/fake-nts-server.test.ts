import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeNts } from './fake-nts-server.ts';
import { sandboxRecord } from './sandbox.ts';

const T = { timeout: 10_000 };
const PATH = '/api/nts-businessman/v1/status';

async function post(url: string, body: string, key = ''): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(`${url}${PATH}?serviceKey=${encodeURIComponent(key)}`, { method: 'POST', body, signal: AbortSignal.timeout(5_000) });
  const text = await res.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, json, text };
}

/** 20 calls with 30% errors and 30% malformed, seed 42: 0 ok, 1 malformed, 2 HTTP 500. */
async function seededOutcomes(): Promise<number[]> {
  const fake = await startFakeNts({ errorRate: 0.3, malformedRate: 0.3, seed: 42 });
  try {
    const out: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await post(fake.url, JSON.stringify({ b_no: ['1248100998'] }));
      out.push(r.status === 500 ? 2 : r.json === undefined ? 1 : 0);
    }
    return out;
  } finally {
    await fake.close();
  }
}

describe('fake NTS server protocol', () => {
  test('answers in request order, echoing b_no, with counts', T, async () => {
    const fake = await startFakeNts();
    try {
      const { status, json } = await post(fake.url, JSON.stringify({ b_no: ['3333333336', '1248100998', '4444444444'] }));
      assert.equal(status, 200);
      assert.deepEqual(json, {
        request_cnt: 3, match_cnt: 2, status_code: 'OK',
        data: [sandboxRecord('3333333336'), sandboxRecord('1248100998'), sandboxRecord('4444444444')],
      });
      assert.equal(fake.calls, 1);
      assert.deepEqual(fake.received, [['3333333336', '1248100998', '4444444444']]);
    } finally {
      await fake.close();
    }
  });

  test('request errors: bad JSON, bad b_no, too many, wrong key', T, async () => {
    const fake = await startFakeNts({ serviceKey: 'k', maxPerCall: 3 });
    try {
      assert.deepEqual(await post(fake.url, '{', 'k').then((r) => [r.status, r.json]), [400, { status_code: 'BAD_JSON_REQUEST' }]);
      for (const body of ['{}', '{"b_no":"1248100998"}', '{"b_no":[1248100998]}', '{"b_no":[]}', 'null']) {
        assert.deepEqual(await post(fake.url, body, 'k').then((r) => [r.status, r.json]), [400, { status_code: 'REQUEST_DATA_MALFORMED' }], body);
      }
      const four = JSON.stringify({ b_no: ['1', '2', '3', '4'] });
      assert.deepEqual(await post(fake.url, four, 'k').then((r) => [r.status, r.json]), [413, { status_code: 'TOO_LARGE_REQUEST' }]);
      const ok = JSON.stringify({ b_no: ['1248100998'] });
      // no key at all is -401, as the real gateway answers it; a wrong one -4
      assert.deepEqual(await post(fake.url, ok, '').then((r) => [r.status, r.json]), [401, { code: -401, msg: '인증키는 필수 항목 입니다.' }]);
      assert.deepEqual(await post(fake.url, ok, 'wrong').then((r) => [r.status, r.json]), [401, { code: -4, msg: '등록되지 않은 인증키 입니다.' }]);
      assert.equal((await post(fake.url, ok, 'k')).status, 200);
      assert.equal(fake.received.length, 1, 'only well-formed, authorised requests are recorded');
    } finally {
      await fake.close();
    }
  });

  test('failure switches are seeded and reproducible', T, async () => {
    const a = await seededOutcomes();
    assert.deepEqual(await seededOutcomes(), a);
    assert.ok(a.includes(0) && a.includes(1) && a.includes(2), `all three outcomes seen: ${a.join('')}`);
  });

  test('latency and close() with a request held open', T, async () => {
    const fake = await startFakeNts({ latencyMs: 50 });
    const t0 = Date.now();
    assert.equal((await post(fake.url, JSON.stringify({ b_no: ['1248100998'] }))).status, 200);
    assert.ok(Date.now() - t0 >= 40);
    fake.setOptions({ timeoutRate: 1 });
    const hung = fetch(`${fake.url}${PATH}`, { method: 'POST', body: '{"b_no":["1248100998"]}' }).then(() => 'answered', () => 'socket closed');
    while (fake.calls < 2) await new Promise((r) => setTimeout(r, 5));
    await fake.close();
    assert.equal(await hung, 'socket closed');
  });
});
