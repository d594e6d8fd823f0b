// A local server speaking the juso.go.kr addrLinkApi.do protocol over a given list of buildings,
// with the error codes the real one answers. For tests and benches; binds 127.0.0.1 only.

import { type ServerResponse, createServer } from 'node:http';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { JUSO_MAX_PER_PAGE, JUSO_SEARCH_PATH } from './juso-wire.ts';

export interface FakeJusoOptions {
  entries: DirectoryEntry[];
  /** when set, any other confmKey gets E0001 */
  confmKey?: string;
  latencyMs?: number;
  /** fraction of calls answered HTTP 200 with errorCode -999 */
  errorRate?: number;
  /** 0 (default) = any free port */
  port?: number;
  /**
   * More addresses that find a building, by its id: a road address it had before a renaming
   * (the real service searches those with hstryYn=Y) or a related lot (관련지번)
   */
  aliases?: Record<string, string[]>;
}

export interface FakeJuso {
  url: string;
  /** requests that reached the search endpoint, whatever their outcome */
  readonly calls: number;
  /** keywords of requests that passed the key check, in arrival order */
  received: string[];
  setOptions(partial: Partial<Omit<FakeJusoOptions, 'port'>>): void;
  close(): Promise<void>;
}

/** The real service refuses keywords this broad; the fake draws the line here. */
const TOO_MANY_MATCHES = 100;

const ERRORS = {
  E0001: '승인되지 않은 KEY 입니다.',
  E0005: '검색어가 입력되지 않았습니다.',
  E0006: '주소를 상세히 입력해 주시기 바랍니다.',
  E0008: '검색어는 두글자 이상 입력되어야 합니다.',
  E0013: 'SQL 예약어 또는 특수문자( %,=,>,<,[,] )는 검색이 불가능 합니다.',
  '-999': '시스템에러',
} as const;

const FORBIDDEN = /[%=><[\]]|\b(?:OR|SELECT|INSERT|DELETE|UPDATE|CREATE|DROP|EXEC|UNION|FETCH|DECLARE|TRUNCATE)\b/i;

const num = (main: number, sub: number): string => (sub > 0 ? `${main}-${sub}` : String(main));

function jibunAddress(e: DirectoryEntry): string {
  return [e.sido, e.sigungu, e.eupmyeondong, e.ri, `${e.jibunMountain ? '산' : ''}${num(e.jibunMain, e.jibunSub)}`, e.buildingName]
    .filter((p) => p !== '')
    .join(' ');
}

/**
 * A keyword token matches when it equals a token of the address, or, holding no digit, appears
 * inside it: "테헤란" finds 테헤란로, but "15" must not find building 152.
 */
function matches(tokens: readonly string[], address: string): boolean {
  const words = new Set(address.split(/\s+/));
  return tokens.every((t) => words.has(t) || (!/[0-9]/.test(t) && address.includes(t)));
}

function toJuso(e: DirectoryEntry): Record<string, string> {
  const part2 = ` (${[e.eupmyeondong, e.buildingName].filter((p) => p !== '').join(', ')})`;
  return {
    roadAddr: `${e.roadAddress}${part2}`,
    roadAddrPart1: e.roadAddress,
    roadAddrPart2: part2,
    jibunAddr: jibunAddress(e),
    engAddr: '',
    zipNo: e.zipcode,
    admCd: e.buildingId.slice(0, 10),
    rnMgtSn: '',
    bdMgtSn: e.buildingId,
    detBdNmList: '',
    bdNm: e.buildingName,
    bdKdcd: e.apartment ? '1' : '0',
    siNm: e.sido,
    sggNm: e.sigungu,
    emdNm: e.eupmyeondong,
    liNm: e.ri,
    rn: e.roadName,
    udrtYn: e.underground ? '1' : '0',
    buldMnnm: String(e.buildingMain),
    buldSlno: String(e.buildingSub),
    mtYn: e.jibunMountain ? '1' : '0',
    lnbrMnnm: String(e.jibunMain),
    lnbrSlno: String(e.jibunSub),
    emdNo: '01',
  };
}

function send(res: ServerResponse, common: Record<string, string>, juso: unknown): void {
  const text = JSON.stringify({ results: { common, juso } });
  // the real service answers errors with 200 too
  res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, code: keyof typeof ERRORS): void {
  send(res, { totalCount: '0', currentPage: '1', countPerPage: '10', errorCode: code, errorMessage: ERRORS[code] }, null);
}

function index(entries: DirectoryEntry[], aliases: Record<string, string[]> = {}): { entry: DirectoryEntry; addresses: string[] }[] {
  return entries.map((entry) => ({ entry, addresses: [entry.roadAddress, jibunAddress(entry), ...(aliases[entry.buildingId] ?? [])] }));
}

export async function startFakeJuso(initial: FakeJusoOptions): Promise<FakeJuso> {
  let opts: FakeJusoOptions = { ...initial };
  let calls = 0;
  const received: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  // addresses are computed once per entries list, not per request
  let indexed = index(opts.entries, opts.aliases);

  function answer(res: ServerResponse, url: URL): void {
    if (opts.confmKey !== undefined && url.searchParams.get('confmKey') !== opts.confmKey) return sendError(res, 'E0001');
    const keyword = (url.searchParams.get('keyword') ?? '').trim();
    received.push(keyword);
    if (Math.random() < (opts.errorRate ?? 0)) return sendError(res, '-999');
    if (keyword === '') return sendError(res, 'E0005');
    if (keyword.length < 2) return sendError(res, 'E0008');
    if (FORBIDDEN.test(keyword)) return sendError(res, 'E0013');
    const tokens = keyword.split(/\s+/);
    const found = indexed.filter((i) => i.addresses.some((a) => matches(tokens, a))).map((i) => i.entry);
    if (found.length > TOO_MANY_MATCHES) return sendError(res, 'E0006');
    const perPage = Math.min(Math.max(Number(url.searchParams.get('countPerPage')) || 10, 1), JUSO_MAX_PER_PAGE);
    const pageNo = Math.max(Number(url.searchParams.get('currentPage')) || 1, 1);
    const page = found.slice((pageNo - 1) * perPage, pageNo * perPage);
    send(
      res,
      { totalCount: String(found.length), currentPage: String(pageNo), countPerPage: String(perPage), errorCode: '0', errorMessage: '정상' },
      page.map(toJuso),
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== JUSO_SEARCH_PATH) {
      res.writeHead(404).end();
      return;
    }
    calls++;
    const delay = opts.latencyMs ?? 0;
    if (delay <= 0) return answer(res, url);
    const t = setTimeout(() => {
      timers.delete(t);
      if (!res.destroyed) answer(res, url);
    }, delay);
    timers.add(t);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake juso: no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    get calls() { return calls; },
    received,
    setOptions(partial) {
      opts = { ...opts, ...partial };
      if (partial.entries || partial.aliases) indexed = index(opts.entries, opts.aliases);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // requests held by latency and idle keep-alive sockets would otherwise keep close() waiting
      server.closeAllConnections();
      await closed;
    },
  };
}
