// The NTS "사업자등록정보 진위확인 및 상태조회" status API wire format, as pure functions so every
// quirk can be unit-tested without a server. No I/O here.

import { type NtsRecord, type NtsStatusCode, UpstreamError } from '../domain/status.ts';
import { queryOfKey, type ValidateAnswer, type ValidateQuery, VALIDATE_FIELDS } from '../domain/validation.ts';

export const NTS_DEFAULT_BASE_URL = 'https://api.odcloud.kr';
export const NTS_STATUS_PATH = '/api/nts-businessman/v1/status';
export const NTS_VALIDATE_PATH = '/api/nts-businessman/v1/validate';
/** The API refuses more than 100 numbers in one call (TOO_LARGE_REQUEST). */
export const NTS_MAX_PER_CALL = 100;
/** The text NTS puts in `tax_type` for a number it has never registered. */
export const NTS_UNREGISTERED_TEXT = '국세청에 등록되지 않은 사업자등록번호입니다.';

export const NTS_STATUS_TEXT: Readonly<Record<Exclude<NtsStatusCode, ''>, string>> = {
  '01': '계속사업자',
  '02': '휴업자',
  '03': '폐업자',
};

const RECORD_FIELDS = [
  'b_no', 'b_stt', 'b_stt_cd', 'tax_type', 'tax_type_cd', 'end_dt', 'utcc_yn',
  'tax_type_change_dt', 'invoice_apply_dt', 'rbf_tax_type', 'rbf_tax_type_cd',
] as const satisfies readonly (keyof NtsRecord)[];

/**
 * data.go.kr hands out the key in two forms, "Encoding" (already percent-encoded) and "Decoding".
 * Operators paste either; encoding the encoded form again makes the gateway answer -4, so a key
 * that already contains percent escapes is used as is.
 */
export function encodeServiceKey(serviceKey: string): string {
  return /%[0-9A-Fa-f]{2}/.test(serviceKey) ? serviceKey : encodeURIComponent(serviceKey);
}

export function statusUrl(baseUrl: string, serviceKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${NTS_STATUS_PATH}?serviceKey=${encodeServiceKey(serviceKey)}`;
}

export function validateUrl(baseUrl: string, serviceKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${NTS_VALIDATE_PATH}?serviceKey=${encodeServiceKey(serviceKey)}`;
}

/** Request body. Callers batch; more than 100 or an empty list is a programming error. */
export function serialiseStatusRequest(bnos: readonly string[]): string {
  if (bnos.length === 0 || bnos.length > NTS_MAX_PER_CALL) {
    throw new RangeError(`NTS status call takes 1..${NTS_MAX_PER_CALL} numbers, got ${bnos.length}`);
  }
  return JSON.stringify({ b_no: bnos });
}

/** Request body of the validate API: every field present, '' where the customer gave none. */
export function serialiseValidateRequest(queries: readonly ValidateQuery[]): string {
  if (queries.length === 0 || queries.length > NTS_MAX_PER_CALL) {
    throw new RangeError(`NTS validate call takes 1..${NTS_MAX_PER_CALL} businesses, got ${queries.length}`);
  }
  return JSON.stringify({ businesses: queries.map((q) => Object.fromEntries(VALIDATE_FIELDS.map((f) => [f, q[f]]))) });
}

function malformed(message: string, httpStatus: number, cause?: unknown): UpstreamError {
  return new UpstreamError('malformed', `NTS answer malformed: ${message}`, { retryable: true, httpStatus, cause });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * data.go.kr gateway errors ({"code": -4, "msg": ...}) come from the portal (odcloud.kr) in front
 * of NTS, not from NTS itself. Their codes, as the gateway sends them:
 *   -1   internal error                         → a 5xx: retry later
 *   -2   malformed parameters                   → refused: our request is wrong
 *   -3   key not subscribed to this API         → refused
 *   -4   key not registered ("등록되지 않은 인증키 입니다.") → refused
 *   -9   service terminated                     → refused
 *   -10  the key's traffic quota is spent       → quota: nothing more today
 *   -401 no key at all ("인증키는 필수 항목 입니다.") → refused: retrying cannot add a key
 * An unknown code goes by its HTTP status (429 and 5xx pass, so retry later); anything else is
 * refused, because retrying something we do not understand only burns quota.
 */
export function gatewayError(code: number, msg: string, httpStatus: number): UpstreamError {
  const text = `data.go.kr gateway error ${code}${msg ? `: ${msg}` : ''}`;
  switch (code) {
    case -1:
      return new UpstreamError('http_5xx', text, { retryable: true, httpStatus });
    case -10:
      return new UpstreamError('quota_exhausted', text, { retryable: false, httpStatus });
    case -2: case -3: case -4: case -9: case -401:
      return new UpstreamError('rejected', text, { retryable: false, httpStatus });
    default:
      if (httpStatus === 429) return new UpstreamError('rate_limited', text, { retryable: true, httpStatus });
      if (httpStatus >= 500) return new UpstreamError('http_5xx', text, { retryable: true, httpStatus });
      return new UpstreamError('rejected', text, { retryable: false, httpStatus });
  }
}

/** NTS's own error envelope ({"status_code": "..."}), with a non-OK code. */
export function ntsStatusCodeError(statusCode: string, httpStatus: number): UpstreamError {
  const text = `NTS status_code ${statusCode}`;
  switch (statusCode) {
    case 'INTERNAL_ERROR':
      return new UpstreamError('http_5xx', text, { retryable: true, httpStatus });
    case 'BAD_JSON_REQUEST':
    case 'REQUEST_DATA_MALFORMED':
    case 'TOO_LARGE_REQUEST':
      return new UpstreamError('rejected', text, { retryable: false, httpStatus });
    default:
      return httpStatusError(httpStatus, text);
  }
}

/** When the body tells us nothing, the HTTP status decides. */
export function httpStatusError(httpStatus: number, detail: string): UpstreamError {
  const text = `NTS HTTP ${httpStatus}: ${detail}`;
  if (httpStatus === 429) return new UpstreamError('rate_limited', text, { retryable: true, httpStatus });
  if (httpStatus === 408) return new UpstreamError('timeout', text, { retryable: true, httpStatus });
  if (httpStatus >= 500) return new UpstreamError('http_5xx', text, { retryable: true, httpStatus });
  if (httpStatus >= 400) return new UpstreamError('rejected', text, { retryable: false, httpStatus });
  // 1xx/3xx reaching us means a proxy or redirect we do not expect: not the API's format.
  return malformed(`unexpected HTTP ${httpStatus}`, httpStatus);
}

function parseRecord(raw: unknown, index: number, httpStatus: number): NtsRecord {
  if (!isObject(raw)) throw malformed(`data[${index}] is not an object`, httpStatus);
  const field = (name: (typeof RECORD_FIELDS)[number]): string => {
    const v = raw[name];
    // Fields are sometimes missing or null in real answers; '' is what NTS uses for "none".
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v.trim();
    throw malformed(`data[${index}].${name} is ${typeof v}, expected string`, httpStatus);
  };
  const code = field('b_stt_cd');
  if (code !== '' && code !== '01' && code !== '02' && code !== '03') {
    throw malformed(`data[${index}].b_stt_cd ${JSON.stringify(code)} is not 01/02/03/''`, httpStatus);
  }
  const endDt = field('end_dt');
  if (!/^(?:[0-9]{8})?$/.test(endDt)) throw malformed(`data[${index}].end_dt ${JSON.stringify(endDt)} is not YYYYMMDD`, httpStatus);
  return {
    b_no: field('b_no'), b_stt: field('b_stt'), b_stt_cd: code, tax_type: field('tax_type'),
    tax_type_cd: field('tax_type_cd'), end_dt: endDt, utcc_yn: field('utcc_yn'),
    tax_type_change_dt: field('tax_type_change_dt'), invoice_apply_dt: field('invoice_apply_dt'),
    rbf_tax_type: field('rbf_tax_type'), rbf_tax_type_cd: field('rbf_tax_type_cd'),
  };
}

/**
 * Matches answers to the requested numbers. By b_no, because that is the only thing that
 * identifies an answer; by position only when b_no is missing and the counts agree (NTS does
 * answer in request order). Answers for numbers we did not ask about are dropped.
 */
function matchRecords(data: readonly unknown[], requested: readonly string[], httpStatus: number): Map<string, NtsRecord> {
  const wanted = new Set(requested);
  const out = new Map<string, NtsRecord>();
  const positional = data.length === requested.length;
  data.forEach((raw, i) => {
    const record = parseRecord(raw, i, httpStatus);
    // Hyphenated echoes ("124-81-00998") still identify the number.
    let bno = record.b_no.replace(/-/g, '');
    if (bno === '' && positional) bno = requested[i] ?? '';
    if (!wanted.has(bno) || out.has(bno)) return;
    out.set(bno, { ...record, b_no: bno });
  });
  return out;
}

/** The envelope both APIs share: errors thrown, the `data` array of an OK answer returned. */
function okData(httpStatus: number, bodyText: string, countField: 'match_cnt' | 'valid_cnt'): unknown[] {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (cause) {
    // A non-JSON error page (proxy, gateway HTML) still carries a meaningful HTTP status.
    if (httpStatus < 200 || httpStatus > 299) throw httpStatusError(httpStatus, 'non-JSON body');
    throw malformed('body is not JSON', httpStatus, cause);
  }
  if (!isObject(body)) {
    if (httpStatus < 200 || httpStatus > 299) throw httpStatusError(httpStatus, 'unexpected body');
    throw malformed('body is not a JSON object', httpStatus);
  }
  if (typeof body['code'] === 'number' && body['code'] < 0) {
    throw gatewayError(body['code'], typeof body['msg'] === 'string' ? body['msg'] : '', httpStatus);
  }
  const statusCode = body['status_code'];
  if (typeof statusCode === 'string' && statusCode !== 'OK') throw ntsStatusCodeError(statusCode, httpStatus);
  if (httpStatus < 200 || httpStatus > 299) throw httpStatusError(httpStatus, 'error without a known error code');
  if (statusCode !== 'OK') throw malformed('status_code missing', httpStatus);
  const data = body['data'];
  if (!Array.isArray(data)) throw malformed('data is not an array', httpStatus);
  // both APIs leave their count out entirely when it is zero
  const count = body[countField];
  if (count !== undefined && count !== null && typeof count !== 'number') throw malformed(`${countField} is not a number`, httpStatus);
  return data;
}

/**
 * Interprets one HTTP answer. Resolves to the records answered (numbers absent from the answer
 * are simply not answered); throws UpstreamError for every kind of failure.
 */
export function parseStatusResponse(httpStatus: number, bodyText: string, requested: readonly string[]): Map<string, NtsRecord> {
  return matchRecords(okData(httpStatus, bodyText, 'match_cnt'), requested, httpStatus);
}

/**
 * Interprets one answer of the validate API, keyed like the questions (validateKey). NTS answers
 * in request order; an item is matched by position when the counts agree and its b_no (if any)
 * is the question's, else by b_no when only one question has that number. Items that match no
 * question are dropped: those questions stay unanswered rather than get someone else's answer.
 */
export function parseValidateResponse(httpStatus: number, bodyText: string, requestedKeys: readonly string[]): Map<string, ValidateAnswer> {
  const data = okData(httpStatus, bodyText, 'valid_cnt');
  const questions = requestedKeys.map((k) => queryOfKey(k));
  const byNumber = new Map<string, string[]>();
  questions.forEach((q, i) => byNumber.set(q.b_no, [...(byNumber.get(q.b_no) ?? []), requestedKeys[i]!]));
  const positional = data.length === requestedKeys.length;
  const out = new Map<string, ValidateAnswer>();
  data.forEach((raw, i) => {
    if (!isObject(raw)) throw malformed(`data[${i}] is not an object`, httpStatus);
    const valid = raw['valid'];
    if (valid !== '01' && valid !== '02') throw malformed(`data[${i}].valid ${JSON.stringify(valid)} is not 01/02`, httpStatus);
    const msg = raw['valid_msg'];
    if (msg !== undefined && msg !== null && typeof msg !== 'string') throw malformed(`data[${i}].valid_msg is not a string`, httpStatus);
    const bnoRaw = raw['b_no'];
    const bno = typeof bnoRaw === 'string' ? bnoRaw.trim().replace(/-/g, '') : '';
    let key: string | undefined;
    if (positional && (bno === '' || questions[i]!.b_no === bno)) key = requestedKeys[i];
    else if (bno !== '' && byNumber.get(bno)?.length === 1) key = byNumber.get(bno)![0];
    if (key === undefined || out.has(key)) return;
    const status = valid === '01' && raw['status'] !== undefined && raw['status'] !== null ? parseRecord(raw['status'], i, httpStatus) : null;
    const number = queryOfKey(key).b_no;
    out.set(key, { valid, valid_msg: typeof msg === 'string' ? msg.trim() : '', status: status && { ...status, b_no: number } });
  });
  return out;
}
