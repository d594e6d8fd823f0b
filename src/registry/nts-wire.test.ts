import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  NTS_UNREGISTERED_TEXT, encodeServiceKey, parseStatusResponse, parseValidateResponse, serialiseStatusRequest,
  serialiseValidateRequest, statusUrl, validateUrl,
} from './nts-wire.ts';
import { type UpstreamFault, UpstreamError } from '../domain/status.ts';
import { validateKey, validateQuery } from '../domain/validation.ts';

const A = '1248100998';
const B = '1111111119';
const C = '3333333336';

function rec(b_no: string | undefined, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...(b_no === undefined ? {} : { b_no }), b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자',
    tax_type_cd: '01', end_dt: '', utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '',
    rbf_tax_type: '해당없음', rbf_tax_type_cd: '99', ...over,
  };
}
const ok = (data: unknown[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ request_cnt: data.length, match_cnt: data.length, status_code: 'OK', data, ...extra });

function fails(fn: () => unknown, fault: UpstreamFault, retryable: boolean): UpstreamError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof UpstreamError, `expected UpstreamError, got ${String(caught)}`);
  assert.equal(caught.fault, fault, caught.message);
  assert.equal(caught.retryable, retryable);
  return caught;
}

describe('request', () => {
  test('url carries the key URL-encoded once', () => {
    assert.equal(statusUrl('https://api.odcloud.kr/', 'a+b/c=='), 'https://api.odcloud.kr/api/nts-businessman/v1/status?serviceKey=a%2Bb%2Fc%3D%3D');
    assert.equal(encodeServiceKey('a%2Bb%2Fc%3D%3D'), 'a%2Bb%2Fc%3D%3D', 'the portal "Encoding" key is not encoded again');
  });
  test('body is {"b_no": [...]} with 1..100 numbers', () => {
    assert.deepEqual(JSON.parse(serialiseStatusRequest([A, B])), { b_no: [A, B] });
    assert.throws(() => serialiseStatusRequest([]), RangeError);
    assert.throws(() => serialiseStatusRequest(Array.from({ length: 101 }, () => A)), RangeError);
  });
});

describe('success answers', () => {
  test('records are matched by b_no, not position', () => {
    const out = parseStatusResponse(200, ok([rec(B), rec(A, { b_stt: '폐업자', b_stt_cd: '03', end_dt: '20240301' })]), [A, B]);
    assert.equal(out.size, 2);
    assert.equal(out.get(A)?.b_stt_cd, '03');
    assert.equal(out.get(A)?.end_dt, '20240301');
    assert.equal(out.get(B)?.b_stt_cd, '01');
  });
  test('missing b_no falls back to position when counts match', () => {
    const out = parseStatusResponse(200, ok([rec(undefined), rec(undefined, { b_stt_cd: '02', b_stt: '휴업자' })]), [A, B]);
    assert.equal(out.get(A)?.b_no, A);
    assert.equal(out.get(B)?.b_stt_cd, '02');
  });
  test('missing b_no with counts that differ leaves the number unanswered', () => {
    const out = parseStatusResponse(200, ok([rec(undefined)]), [A, B]);
    assert.equal(out.size, 0);
  });
  test('numbers absent from the answer are simply not answered; unasked ones are dropped', () => {
    const out = parseStatusResponse(200, ok([rec(A), rec('9999999999')]), [A, B, C]);
    assert.deepEqual([...out.keys()], [A]);
  });
  test('hyphenated b_no still matches', () => {
    assert.equal(parseStatusResponse(200, ok([rec('124-81-00998')]), [A]).get(A)?.b_no, A);
  });
  test('unregistered number: empty status, explanatory tax_type', () => {
    const body = JSON.stringify({
      request_cnt: 1, status_code: 'OK',
      data: [{ b_no: C, b_stt: '', b_stt_cd: '', tax_type: NTS_UNREGISTERED_TEXT, tax_type_cd: '', end_dt: '', utcc_yn: '', tax_type_change_dt: '', invoice_apply_dt: '' }],
    });
    const r = parseStatusResponse(200, body, [C]).get(C);
    assert.equal(r?.b_stt_cd, '');
    assert.equal(r?.tax_type, NTS_UNREGISTERED_TEXT);
    assert.equal(r?.rbf_tax_type, '', 'fields missing from the answer default to ""');
  });
  test('match_cnt absent is fine; null fields default to ""', () => {
    const body = JSON.stringify({ request_cnt: 1, status_code: 'OK', data: [rec(A, { end_dt: null, utcc_yn: null, rbf_tax_type: undefined })] });
    const r = parseStatusResponse(200, body, [A]).get(A);
    assert.equal(r?.end_dt, '');
    assert.equal(r?.utcc_yn, '');
    assert.equal(r?.rbf_tax_type, '');
  });
  test('all three status codes parse', () => {
    const out = parseStatusResponse(200, ok([
      rec(A), rec(B, { b_stt: '휴업자', b_stt_cd: '02' }), rec(C, { b_stt: '폐업자', b_stt_cd: '03', end_dt: '20191231' }),
    ]), [A, B, C]);
    assert.deepEqual([...out.values()].map((r) => r.b_stt_cd), ['01', '02', '03']);
  });
  test('only the wire fields are kept', () => {
    const r = parseStatusResponse(200, ok([rec(A, { extra: 'x' })]), [A]).get(A);
    assert.equal(Object.keys(r ?? {}).length, 11);
  });
});

describe('error answers', () => {
  test('NTS status codes', () => {
    fails(() => parseStatusResponse(400, '{"status_code":"BAD_JSON_REQUEST"}', [A]), 'rejected', false);
    fails(() => parseStatusResponse(400, '{"status_code":"REQUEST_DATA_MALFORMED"}', [A]), 'rejected', false);
    fails(() => parseStatusResponse(413, '{"status_code":"TOO_LARGE_REQUEST"}', [A]), 'rejected', false);
    const e = fails(() => parseStatusResponse(500, '{"status_code":"INTERNAL_ERROR"}', [A]), 'http_5xx', true);
    assert.equal(e.httpStatus, 500);
    fails(() => parseStatusResponse(200, '{"status_code":"INTERNAL_ERROR"}', [A]), 'http_5xx', true);
  });
  test('gateway codes', () => {
    fails(() => parseStatusResponse(500, '{"code":-1,"msg":"시스템 에러"}', [A]), 'http_5xx', true);
    for (const code of [-2, -3, -4, -9, -11, -77]) {
      fails(() => parseStatusResponse(401, JSON.stringify({ code, msg: '등록되지 않은 인증키 입니다.' }), [A]), 'rejected', false);
    }
    // a missing key, as the gateway really answers it: refused, never retried as a rate limit
    const missing = fails(() => parseStatusResponse(401, '{"code":-401,"msg":"인증키는 필수 항목 입니다."}', [A]), 'rejected', false);
    assert.match(missing.message, /인증키는 필수 항목/);
    fails(() => parseStatusResponse(429, '{"code":-401,"msg":"인증키는 필수 항목 입니다."}', [A]), 'rejected', false);
    // the key's traffic allowance is spent: nothing more today
    fails(() => parseStatusResponse(429, '{"code":-10,"msg":"트래픽 초과"}', [A]), 'quota_exhausted', false);
    // unknown codes go by the HTTP status
    fails(() => parseStatusResponse(429, '{"code":-429}', [A]), 'rate_limited', true);
    fails(() => parseStatusResponse(503, '{"code":-99}', [A]), 'http_5xx', true);
    fails(() => parseStatusResponse(200, '{"code":-429}', [A]), 'rejected', false);
  });
  test('HTTP status decides when the body says nothing', () => {
    fails(() => parseStatusResponse(502, '<html>Bad Gateway</html>', [A]), 'http_5xx', true);
    fails(() => parseStatusResponse(429, '', [A]), 'rate_limited', true);
    fails(() => parseStatusResponse(404, '{}', [A]), 'rejected', false);
    fails(() => parseStatusResponse(503, '{"status_code":"WHATEVER"}', [A]), 'http_5xx', true);
  });
  test('anything off-format on a 200 is malformed and retryable', () => {
    for (const body of [
      '', 'not json', '[]', 'null', '{"data":[]}', '{"status_code":"OK"}', '{"status_code":"OK","data":{}}',
      '{"status_code":"OK","data":[1]}', '{"status_code":"OK","match_cnt":"1","data":[]}',
      ok([rec(A, { b_stt_cd: '04' })]), ok([rec(A, { b_stt_cd: 1 })]), ok([rec(A, { end_dt: '2024-03-01' })]),
      ok([rec(A, { tax_type: 7 })]), '{"status_code":"OK","data":[{"b_no":"1248100998"',
    ]) {
      fails(() => parseStatusResponse(200, body, [A]), 'malformed', true);
    }
  });
});

describe('the validate (진위확인) API', () => {
  const q1 = validateQuery({ b_no: A, start_dt: '20000101', p_nm: '홍길동' });
  const q2 = validateQuery({ b_no: B, start_dt: '20101231', p_nm: '김철수', b_nm: '(주)테스트' });
  const keys = [validateKey(q1), validateKey(q2)];
  const param = (q: typeof q1) => ({ ...q });

  test('the request carries every field, empty strings for those not given', () => {
    assert.deepEqual(JSON.parse(serialiseValidateRequest([q2])), {
      businesses: [{ b_no: B, start_dt: '20101231', p_nm: '김철수', p_nm2: '', b_nm: '(주)테스트', corp_no: '', b_sector: '', b_type: '', b_adr: '' }],
    });
    assert.throws(() => serialiseValidateRequest([]), RangeError);
    assert.match(validateUrl('https://api.odcloud.kr/', 'a+b'), /^https:\/\/api\.odcloud\.kr\/api\/nts-businessman\/v1\/validate\?serviceKey=a%2Bb$/);
  });

  test('01 with its nested status and 02 with valid_msg, counted in valid_cnt', () => {
    const body = JSON.stringify({
      status_code: 'OK', request_cnt: 2, valid_cnt: 1,
      data: [
        { b_no: A, valid: '01', request_param: param(q1), status: rec(A, { b_stt: '폐업자', b_stt_cd: '03', end_dt: '20240301' }) },
        { b_no: B, valid: '02', valid_msg: '확인할 수 없습니다.', request_param: param(q2) },
      ],
    });
    const out = parseValidateResponse(200, body, keys);
    assert.equal(out.get(keys[0]!)?.valid, '01');
    assert.equal(out.get(keys[0]!)?.status?.end_dt, '20240301');
    assert.equal(out.get(keys[0]!)?.status?.b_no, A);
    assert.deepEqual(out.get(keys[1]!), { valid: '02', valid_msg: '확인할 수 없습니다.', status: null });
  });

  test('valid_cnt is absent when nothing matched; match_cnt is not what it counts', () => {
    const body = JSON.stringify({ status_code: 'OK', request_cnt: 1, data: [{ b_no: A, valid: '02', valid_msg: '확인할 수 없습니다.' }] });
    assert.equal(parseValidateResponse(200, body, [keys[0]!]).get(keys[0]!)?.valid, '02');
    fails(() => parseValidateResponse(200, JSON.stringify({ status_code: 'OK', valid_cnt: '1', data: [] }), keys), 'malformed', true);
  });

  test('answers are matched by position, or by number when the counts differ; strangers are dropped', () => {
    const swapped = JSON.stringify({ status_code: 'OK', data: [{ b_no: B, valid: '02' }] });
    const out = parseValidateResponse(200, swapped, keys);
    assert.equal(out.size, 1);
    assert.equal(out.get(keys[1]!)?.valid, '02');
    const stranger = JSON.stringify({ status_code: 'OK', data: [{ b_no: C, valid: '01', status: rec(C) }, { b_no: B, valid: '02' }] });
    const out2 = parseValidateResponse(200, stranger, keys);
    assert.equal(out2.has(keys[0]!), false);
    assert.equal(out2.get(keys[1]!)?.valid, '02');
  });

  test('off-format items are malformed; errors share the status API\'s envelope', () => {
    fails(() => parseValidateResponse(200, JSON.stringify({ status_code: 'OK', data: [{ b_no: A, valid: '03' }] }), [keys[0]!]), 'malformed', true);
    fails(() => parseValidateResponse(200, JSON.stringify({ status_code: 'OK', data: [{ b_no: A, valid: '01', status: { b_stt_cd: '9' } }] }), [keys[0]!]), 'malformed', true);
    fails(() => parseValidateResponse(401, '{"code":-401,"msg":"인증키는 필수 항목 입니다."}', keys), 'rejected', false);
    fails(() => parseValidateResponse(400, '{"status_code":"REQUEST_DATA_MALFORMED"}', keys), 'rejected', false);
    fails(() => parseValidateResponse(500, '{"status_code":"INTERNAL_ERROR"}', keys), 'http_5xx', true);
  });
});
