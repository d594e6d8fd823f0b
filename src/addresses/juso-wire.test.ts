import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParsedAddress } from '../domain/address/types.ts';
import { UpstreamError } from '../domain/status.ts';
import { JUSO_NO_CANDIDATE_CODES, jusoKeyword, jusoSearchUrl, parseJusoResponse, sanitiseKeyword } from './juso-wire.ts';

const ROW = {
  roadAddr: '서울특별시 강남구 테헤란로 152 (역삼동)', roadAddrPart1: '서울특별시 강남구 테헤란로 152', roadAddrPart2: ' (역삼동)',
  jibunAddr: '서울특별시 강남구 역삼동 737 강남파이낸스센터', engAddr: '152 Teheran-ro, Gangnam-gu, Seoul', zipNo: '06236',
  admCd: '1168010100', rnMgtSn: '116803122010', bdMgtSn: '1168010100107370000000001', detBdNmList: '', bdNm: '강남파이낸스센터',
  bdKdcd: '0', siNm: '서울특별시', sggNm: '강남구', emdNm: '역삼동', liNm: '', rn: '테헤란로', udrtYn: '0', buldMnnm: '152',
  buldSlno: '0', mtYn: '0', lnbrMnnm: '737', lnbrSlno: '0', emdNo: '01',
};

const body = (common: Record<string, string>, juso: unknown): string => JSON.stringify({ results: { common, juso } });
const ok = (juso: unknown, totalCount = '1'): string =>
  body({ totalCount, currentPage: '1', countPerPage: '10', errorCode: '0', errorMessage: '정상' }, juso);
const err = (code: string, message: string): string =>
  body({ totalCount: '0', currentPage: '1', countPerPage: '10', errorCode: code, errorMessage: message }, null);

function fault(fn: () => unknown): UpstreamError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof UpstreamError, `expected UpstreamError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a throw');
}

const parsed = (p: Partial<ParsedAddress>): ParsedAddress => ({
  raw: '', sido: null, sigungu: null, eupmyeondong: null, road: null, roadNameOnly: null, jibun: null, detail: null,
  unit: null, buildingName: null, zipcode: null, form: 'unknown', ...p,
});

describe('parseJusoResponse', () => {
  test('a documented answer becomes a DirectoryEntry; string counts and numbers are read as numbers', () => {
    const page = parseJusoResponse(200, ok([ROW]));
    assert.equal(page.totalCount, 1);
    assert.deepEqual(page.entries, [{
      buildingId: '1168010100107370000000001', zipcode: '06236', sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동',
      ri: '', roadName: '테헤란로', underground: false, buildingMain: 152, buildingSub: 0, jibunMountain: false, jibunMain: 737,
      jibunSub: 0, buildingName: '강남파이낸스센터', roadAddress: '서울특별시 강남구 테헤란로 152',
    }]);
  });

  test("flags are '1'/'0' strings; sub numbers and 리 come through", () => {
    const row = { ...ROW, udrtYn: '1', mtYn: '1', buldSlno: '3', lnbrSlno: '12', liNm: '양근리' };
    const [e] = parseJusoResponse(200, ok([row])).entries;
    assert.equal(e?.underground, true);
    assert.equal(e?.jibunMountain, true);
    assert.equal(e?.buildingSub, 3);
    assert.equal(e?.jibunSub, 12);
    assert.equal(e?.ri, '양근리');
    assert.equal(e?.apartment, undefined, "bdKdcd '0': not a 공동주택");
    assert.equal(parseJusoResponse(200, ok([{ ...ROW, bdKdcd: '1' }])).entries[0]?.apartment, true);
  });

  test('totalCount is the whole match count, not the page size', () => {
    assert.equal(parseJusoResponse(200, ok([ROW], '57')).totalCount, 57);
  });

  test('without roadAddrPart1 the 참고항목 is cut off roadAddr', () => {
    const { roadAddrPart1: _, ...row } = ROW;
    assert.equal(parseJusoResponse(200, ok([row])).entries[0]?.roadAddress, '서울특별시 강남구 테헤란로 152');
  });

  test('numbers sent as JSON numbers are tolerated', () => {
    assert.equal(parseJusoResponse(200, ok([{ ...ROW, buldMnnm: 152 }])).entries[0]?.buildingMain, 152);
  });

  test('a row that cannot be a building is dropped, the rest of the page kept', () => {
    const page = parseJusoResponse(200, ok([{ ...ROW, bdMgtSn: '' }, { ...ROW, buldMnnm: '15a' }, 'junk', ROW], '4'));
    assert.equal(page.entries.length, 1);
    assert.equal(page.totalCount, 4);
  });

  test('no match: errorCode 0 with juso [] or null', () => {
    assert.deepEqual(parseJusoResponse(200, ok([], '0')), { totalCount: 0, entries: [] });
    assert.deepEqual(parseJusoResponse(200, ok(null, '0')), { totalCount: 0, entries: [] });
  });

  test('keyword problems (E0005, E0006, E0008–E0013, E0015) mean no candidates, not a fault', () => {
    for (const code of ['E0005', 'E0006', 'E0008', 'E0009', 'E0010', 'E0011', 'E0012', 'E0013', 'E0015']) {
      assert.ok(JUSO_NO_CANDIDATE_CODES.has(code));
      assert.deepEqual(parseJusoResponse(200, err(code, '…')), { totalCount: 0, entries: [] }, code);
    }
  });

  test('E0001 (unapproved key) is rejected and not retryable; the message says why', () => {
    const e = fault(() => parseJusoResponse(200, err('E0001', '승인되지 않은 KEY 입니다.')));
    assert.equal(e.fault, 'rejected');
    assert.equal(e.retryable, false);
    assert.match(e.message, /E0001: 승인되지 않은 KEY/);
  });

  test('E0014 (expired development key) is a key problem too, not an empty result', () => {
    const e = fault(() => parseJusoResponse(200, err('E0014', '개발승인키 기간이 만료되어 서비스를 이용하실 수 없습니다.')));
    assert.equal(e.fault, 'rejected');
    assert.equal(e.retryable, false);
  });

  test('-999 시스템에러 arrives as HTTP 200 and is retryable', () => {
    const e = fault(() => parseJusoResponse(200, err('-999', '시스템에러')));
    assert.equal(e.fault, 'http_5xx');
    assert.equal(e.retryable, true);
    assert.equal(e.httpStatus, 200);
  });

  test('an unknown errorCode is not retried', () => {
    assert.equal(fault(() => parseJusoResponse(200, err('E0099', '?'))).retryable, false);
  });

  test('non-JSON: malformed on 200, the HTTP status otherwise', () => {
    assert.equal(fault(() => parseJusoResponse(200, '<html>점검중</html>')).fault, 'malformed');
    assert.equal(fault(() => parseJusoResponse(502, '<html>Bad Gateway</html>')).fault, 'http_5xx');
    assert.equal(fault(() => parseJusoResponse(429, '')).fault, 'rate_limited');
    assert.equal(fault(() => parseJusoResponse(404, 'nope')).retryable, false);
  });

  test('JSON without results.common, or juso not a list, is malformed and retryable', () => {
    for (const text of ['{}', '[]', '{"results": {}}', ok({ not: 'a list' })]) {
      const e = fault(() => parseJusoResponse(200, text));
      assert.equal(e.fault, 'malformed', text);
      assert.equal(e.retryable, true);
    }
  });
});

describe('keywords', () => {
  test('the forbidden characters and SQL words are removed', () => {
    assert.equal(sanitiseKeyword('테헤란로 [152] % = <> '), '테헤란로 152');
    assert.equal(sanitiseKeyword('select 강남 OR 역삼 union drop'), '강남 역삼');
    for (const w of ['INSERT', 'DELETE', 'UPDATE', 'CREATE', 'EXEC', 'FETCH', 'DECLARE', 'TRUNCATE']) {
      assert.equal(sanitiseKeyword(`강남구 ${w.toLowerCase()} 1`), '강남구 1', w);
    }
  });

  test('SQL words inside other words survive; next to Hangul they do not', () => {
    assert.equal(sanitiseKeyword('Korea World 타워'), 'Korea World 타워');
    assert.equal(sanitiseKeyword('강남OR타워'), '강남 타워');
  });

  test('road form: 시도 시군구 도로명 본번-부번, 지하 kept', () => {
    const road = { name: '테헤란로', underground: false, main: 152, sub: 0 };
    assert.equal(jusoKeyword(parsed({ sido: '서울특별시', sigungu: '강남구', road })), '서울특별시 강남구 테헤란로 152');
    assert.equal(jusoKeyword(parsed({ sido: '서울특별시', sigungu: '중구', road: { ...road, name: '세종대로', underground: true, main: 2, sub: 7 } })),
      '서울특별시 중구 세종대로 지하 2-7');
  });

  test('jibun form: 시도 시군구 동 (산)본번-부번; 세종 has no 시군구', () => {
    assert.equal(jusoKeyword(parsed({ sido: '서울특별시', sigungu: '강남구', jibun: { dong: '역삼동', mountain: false, main: 737, sub: 0 } })),
      '서울특별시 강남구 역삼동 737');
    assert.equal(jusoKeyword(parsed({ sido: '세종특별자치시', jibun: { dong: '조치원읍', mountain: true, main: 12, sub: 3 } })),
      '세종특별자치시 조치원읍 산12-3');
  });

  test('the road form wins over the jibun form; a road name alone is searched as is', () => {
    const both = parsed({ sigungu: '강남구', road: { name: '테헤란로', underground: false, main: 152, sub: 0 }, jibun: { dong: '역삼동', mountain: false, main: 737, sub: 0 } });
    assert.equal(jusoKeyword(both), '강남구 테헤란로 152');
    assert.equal(jusoKeyword(parsed({ sido: '서울특별시', roadNameOnly: '테헤란로' })), '서울특별시 테헤란로');
  });

  test('a building written by its name alone is searched by its 동 and name', () => {
    assert.equal(jusoKeyword(parsed({ sido: '경기도', sigungu: '성남시 분당구', eupmyeondong: '정자동', buildingName: '한빛타워' })), '경기도 성남시 분당구 정자동 한빛타워');
    assert.equal(jusoKeyword(parsed({ sigungu: '강남구', buildingName: '강남파이낸스센터' })), '강남구 강남파이낸스센터');
    assert.equal(jusoKeyword(parsed({ buildingName: '한빛타워' })), null, 'a name with no place says too little');
  });

  test('nothing searchable, or one character left, gives null (no call)', () => {
    assert.equal(jusoKeyword(parsed({ sido: '서울특별시', eupmyeondong: '역삼동' })), null);
    assert.equal(jusoKeyword(parsed({ roadNameOnly: '=%길' })), null);
  });

  test('the URL carries every parameter encoded; a pre-encoded key is not encoded twice', () => {
    const url = new URL(jusoSearchUrl('http://127.0.0.1:9/', 'k+y=', '강남구 테헤란로 152', 500));
    assert.equal(url.pathname, '/addrlink/addrLinkApi.do');
    assert.equal(url.searchParams.get('confmKey'), 'k+y=');
    assert.equal(url.searchParams.get('keyword'), '강남구 테헤란로 152');
    assert.equal(url.searchParams.get('currentPage'), '1');
    assert.equal(url.searchParams.get('countPerPage'), '100');
    assert.equal(url.searchParams.get('resultType'), 'json');
    assert.equal(url.searchParams.get('hstryYn'), 'Y', 'old addresses (renamed roads) are searched too');
    assert.match(jusoSearchUrl('http://h', 'k%2By', 'ab', 10), /confmKey=k%2By&/);
  });
});
