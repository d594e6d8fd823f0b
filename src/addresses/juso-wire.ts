// The 도로명주소 검색 API (juso.go.kr addrLinkApi.do) wire format, as pure functions so every quirk
// can be unit-tested without a server. No I/O here.

import type { DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { UpstreamError } from '../domain/status.ts';

export const JUSO_DEFAULT_BASE_URL = 'https://business.juso.go.kr';
export const JUSO_SEARCH_PATH = '/addrlink/addrLinkApi.do';
/** The API pages at most 100 rows per call. */
export const JUSO_MAX_PER_PAGE = 100;

/**
 * Error codes that describe the keyword, not the service: the honest answer is "no candidates".
 * E0006 is a keyword too broad to list (e.g. only a 시도), E0015 one matching over 9,000 rows.
 */
export const JUSO_NO_CANDIDATE_CODES: ReadonlySet<string> = new Set([
  'E0005', 'E0006', 'E0008', 'E0009', 'E0010', 'E0011', 'E0012', 'E0013', 'E0015',
]);

// The API answers E0013 for these rather than searching; the operator's own sample strips them too.
const FORBIDDEN_CHARS = /[%=><[\]]/g;
const SQL_WORDS = /\b(?:OR|SELECT|INSERT|DELETE|UPDATE|CREATE|DROP|EXEC|UNION|FETCH|DECLARE|TRUNCATE)\b/gi;

/**
 * Removes what the API refuses. SQL words go only as whole words: "Korea" or "World" in a
 * building name must survive, and \b treats Hangul as a boundary so "강남OR" still loses "OR".
 */
export function sanitiseKeyword(text: string): string {
  return text.replace(FORBIDDEN_CHARS, ' ').replace(SQL_WORDS, ' ').replace(/\s+/g, ' ').trim();
}

const number = (main: number, sub: number): string => (sub > 0 ? `${main}-${sub}` : String(main));

/**
 * The search keyword for a parsed address, or null when it holds nothing searchable. The road form
 * wins because a 건물번호 names one building while a 지번 may cover several.
 */
export function jusoKeyword(q: ParsedAddress): string | null {
  const area = [q.sido, q.sigungu];
  let parts: (string | null)[];
  if (q.road) {
    parts = [...area, q.road.name, q.road.underground ? '지하' : null, number(q.road.main, q.road.sub)];
  } else if (q.jibun) {
    parts = [...area, q.jibun.dong, `${q.jibun.mountain ? '산' : ''}${number(q.jibun.main, q.jibun.sub)}`];
  } else if (q.roadNameOnly) {
    parts = [...area, q.roadNameOnly];
  } else if (q.buildingName && (q.sigungu !== null || q.eupmyeondong !== null)) {
    // "정자동 한빛타워": juso searches building names too
    parts = [...area, q.eupmyeondong?.split(' ').pop() ?? null, q.buildingName];
  } else {
    return null;
  }
  const keyword = sanitiseKeyword(parts.filter((p): p is string => p !== null && p !== '').join(' '));
  // one character is refused (E0008); asking would only cost a call
  return keyword.length >= 2 ? keyword : null;
}

/** Same rule as the NTS key: a key pasted already percent-encoded is used as is. */
function encodeKey(confmKey: string): string {
  return /%[0-9A-Fa-f]{2}/.test(confmKey) ? confmKey : encodeURIComponent(confmKey);
}

export function jusoSearchUrl(baseUrl: string, confmKey: string, keyword: string, countPerPage: number): string {
  const count = Math.min(Math.max(1, Math.trunc(countPerPage)), JUSO_MAX_PER_PAGE);
  return (
    `${baseUrl.replace(/\/+$/, '')}${JUSO_SEARCH_PATH}?confmKey=${encodeKey(confmKey)}` +
    // hstryYn=Y: addresses changed since (a renamed road, a renumbered building) still find their building
    `&keyword=${encodeURIComponent(keyword)}&currentPage=1&countPerPage=${count}&resultType=json&hstryYn=Y`
  );
}

export interface JusoPage {
  /** rows matching the keyword in all pages (common.totalCount) */
  totalCount: number;
  entries: DirectoryEntry[];
}

function malformed(message: string, httpStatus: number, cause?: unknown): UpstreamError {
  return new UpstreamError('malformed', `juso answer malformed: ${message}`, { retryable: true, httpStatus, cause });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Documented as strings; some answers carry numbers (-999), others null. */
function wireString(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return String(v);
  return '';
}

/** The body told us nothing usable: the HTTP status decides. */
export function jusoHttpError(httpStatus: number, detail: string): UpstreamError {
  const text = `juso HTTP ${httpStatus}: ${detail}`;
  if (httpStatus === 429) return new UpstreamError('rate_limited', text, { retryable: true, httpStatus });
  if (httpStatus === 408) return new UpstreamError('timeout', text, { retryable: true, httpStatus });
  if (httpStatus >= 500) return new UpstreamError('http_5xx', text, { retryable: true, httpStatus });
  if (httpStatus >= 400) return new UpstreamError('rejected', text, { retryable: false, httpStatus });
  return malformed(detail, httpStatus);
}

/** An errorCode other than "0" and the no-candidate codes. */
export function jusoErrorCode(code: string, message: string, httpStatus: number): UpstreamError {
  const text = `juso errorCode ${code}${message ? `: ${message}` : ''}`;
  // -999 시스템에러 is the service failing, so another try may work
  if (code === '-999') return new UpstreamError('http_5xx', text, { retryable: true, httpStatus });
  // E0001 unapproved key, E0014 expired development key, and any code we do not know: asking
  // again only burns the key's traffic
  return new UpstreamError('rejected', text, { retryable: false, httpStatus });
}

const NUMERIC = /^[0-9]+$/;

/** One juso row, or null when it cannot be a building address (the rest of the page still counts). */
export function jusoRowToEntry(raw: unknown): DirectoryEntry | null {
  if (!isObject(raw)) return null;
  const s = (name: string): string => wireString(raw[name]);
  const n = (name: string): number | null => {
    const v = s(name);
    return NUMERIC.test(v) ? Number(v) : null;
  };
  const buildingId = s('bdMgtSn');
  const roadName = s('rn');
  const main = n('buldMnnm');
  const sub = n('buldSlno') ?? 0;
  const jibunMain = n('lnbrMnnm');
  const jibunSub = n('lnbrSlno') ?? 0;
  // roadAddr carries the 참고항목 " (역삼동)" that roadAddrPart1 leaves out
  const roadAddress = s('roadAddrPart1') || s('roadAddr').replace(/\s*\(.*\)\s*$/, '');
  if (!buildingId || !roadName || main === null || jibunMain === null || !roadAddress) return null;
  return {
    buildingId,
    zipcode: s('zipNo'),
    sido: s('siNm'),
    sigungu: s('sggNm'),
    eupmyeondong: s('emdNm'),
    ri: s('liNm'),
    roadName,
    underground: s('udrtYn') === '1',
    buildingMain: main,
    buildingSub: sub,
    jibunMountain: s('mtYn') === '1',
    jibunMain,
    jibunSub,
    buildingName: s('bdNm'),
    roadAddress,
    // 공동주택여부: 1 공동주택, 0 비공동주택
    ...(s('bdKdcd') === '1' ? { apartment: true } : {}),
  };
}

/**
 * Interprets one HTTP answer. Errors arrive as HTTP 200 with common.errorCode ≠ "0" and juso null;
 * keyword problems resolve to an empty page, service and key problems throw UpstreamError.
 */
export function parseJusoResponse(httpStatus: number, bodyText: string): JusoPage {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (cause) {
    // a maintenance page or proxy error is HTML; its HTTP status still means something
    if (httpStatus < 200 || httpStatus > 299) throw jusoHttpError(httpStatus, 'non-JSON body');
    throw malformed('body is not JSON', httpStatus, cause);
  }
  const results = isObject(body) ? body['results'] : undefined;
  const common = isObject(results) ? results['common'] : undefined;
  if (!isObject(results) || !isObject(common)) {
    if (httpStatus < 200 || httpStatus > 299) throw jusoHttpError(httpStatus, 'unexpected body');
    throw malformed('results.common missing', httpStatus);
  }
  const code = wireString(common['errorCode']);
  const message = wireString(common['errorMessage']);
  if (code !== '0') {
    if (code === '') throw malformed('errorCode missing', httpStatus);
    if (JUSO_NO_CANDIDATE_CODES.has(code)) return { totalCount: 0, entries: [] };
    throw jusoErrorCode(code, message, httpStatus);
  }
  if (httpStatus < 200 || httpStatus > 299) throw jusoHttpError(httpStatus, 'error without an errorCode');
  const rows = results['juso'];
  // "no match" is errorCode 0 with totalCount "0" and juso either [] or null
  if (rows === null || rows === undefined) return { totalCount: 0, entries: [] };
  if (!Array.isArray(rows)) throw malformed('juso is not an array', httpStatus);
  const total = wireString(common['totalCount']);
  const entries = rows.map(jusoRowToEntry).filter((e): e is DirectoryEntry => e !== null);
  return { totalCount: NUMERIC.test(total) ? Number(total) : entries.length, entries };
}
