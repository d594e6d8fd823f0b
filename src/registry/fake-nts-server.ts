// A local server speaking the NTS status protocol, answering from the sandbox world, with
// switches for the failures the real one shows. For tests and `npm run fake-nts`.

import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { NTS_MAX_PER_CALL, NTS_STATUS_PATH, NTS_VALIDATE_PATH } from './nts-wire.ts';
import { recordWithStatus, sandboxRecord, sandboxValidation, unregisteredRecord } from './sandbox.ts';
import type { NtsRecord } from '../domain/status.ts';
import { VALIDATE_FIELDS, type ValidateQuery } from '../domain/validation.ts';
import { seededRandom } from '../domain/seeded-random.ts';

export interface FakeNtsOptions {
  /** 0 (default) = any free port */
  port?: number;
  host?: string;
  latencyMs?: number;
  /** fraction of calls answered HTTP 500 {"status_code":"INTERNAL_ERROR"} */
  errorRate?: number;
  /** fraction of calls answered with a body that is not JSON */
  malformedRate?: number;
  /** fraction of calls never answered (until the client gives up or close()) */
  timeoutRate?: number;
  /** fraction of calls answered after `slowMs` more (drawn from a stream of its own: other draws keep their sequence) */
  slowRate?: number;
  slowMs?: number;
  /** when set, a missing or different serviceKey gets the gateway's -4 error */
  serviceKey?: string;
  maxPerCall?: number;
  /** seeds the failure draws so a run is reproducible */
  seed?: number;
  /** answers that replace the sandbox's for given numbers (e.g. make a business close) */
  overrides?: ReadonlyMap<string, NtsRecord>;
  /**
   * the overrides are the whole registry: any other number is unregistered, as NTS answers a
   * number it does not know (without: the sandbox world's answer, where most valid numbers operate)
   */
  closedWorld?: boolean;
  /**
   * numbers the key may ask about per day (both endpoints); past it the gateway answers
   * 429 {"code": -10}. Days are counted from start or the last `resetDay()`.
   */
  dailyLimit?: number;
}

export interface FakeNts {
  url: string;
  port: number;
  /** requests that reached the status endpoint, whatever their outcome */
  readonly calls: number;
  /** b_no lists of well-formed requests, in arrival order */
  received: string[][];
  /** Date.now() of every request to the status endpoint, in arrival order */
  arrivals: number[];
  /** well-formed validate requests' businesses, in arrival order */
  validated: ValidateQuery[][];
  /** numbers asked about since the day began (see dailyLimit) */
  readonly usedToday: number;
  resetDay(): void;
  setOptions(partial: Partial<FakeNtsOptions>): void;
  close(): Promise<void>;
}


function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function numbersOf(body: unknown): string[] | null {
  const bnos: unknown = typeof body === 'object' && body !== null && 'b_no' in body ? body.b_no : undefined;
  if (!Array.isArray(bnos) || bnos.length === 0 || !bnos.every((b) => typeof b === 'string')) return null;
  return bnos;
}

/** The validate API's body: b_no, start_dt and p_nm are required in each business. */
function businessesOf(body: unknown): ValidateQuery[] | null {
  const list: unknown = typeof body === 'object' && body !== null && 'businesses' in body ? body.businesses : undefined;
  if (!Array.isArray(list) || list.length === 0) return null;
  const out: ValidateQuery[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) return null;
    const q = Object.fromEntries(VALIDATE_FIELDS.map((f) => {
      const v: unknown = (item as Record<string, unknown>)[f];
      return [f, typeof v === 'string' ? v : ''];
    })) as ValidateQuery;
    if (!q.b_no || !q.start_dt || !q.p_nm) return null;
    out.push(q);
  }
  return out;
}

export async function startFakeNts(initial: FakeNtsOptions = {}): Promise<FakeNts> {
  let opts: FakeNtsOptions = { ...initial };
  let random = seededRandom(opts.seed ?? 1);
  let slowRandom = seededRandom((opts.seed ?? 1) + 1);
  let calls = 0;
  const received: string[][] = [];
  const arrivals: number[] = [];
  const validated: ValidateQuery[][] = [];
  let usedToday = 0;
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number, fn: () => void): void => {
    if (ms <= 0) return fn();
    const t = setTimeout(() => { timers.delete(t); fn(); }, ms);
    timers.add(t);
  };

  // numbers whose status was changed through the admin path while running
  const changed = new Map<string, NtsRecord>();

  /**
   * The development loop's control: PUT /_admin/status/{b_no} {"status": "closed", "end_dt":
   * "20261120"} makes NTS answer so from now on (a watched business closes in minutes);
   * DELETE /_admin/status/{b_no} restores the sandbox's answer; GET /_admin/status lists changes.
   * With a service key set, the admin path wants it too.
   */
  async function admin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (opts.serviceKey !== undefined && url.searchParams.get('serviceKey') !== opts.serviceKey) return sendJson(res, 401, { code: -4, msg: '등록되지 않은 인증키 입니다.' });
    const bno = /^\/_admin\/status\/([0-9-]{10,12})$/.exec(url.pathname)?.[1]?.replace(/-/g, '');
    if (url.pathname === '/_admin/status' && req.method === 'GET') return sendJson(res, 200, { changed: [...changed.values()] });
    if (!bno || bno.length !== 10) return sendJson(res, 404, { error: 'use /_admin/status/{b_no}' });
    if (req.method === 'DELETE') {
      changed.delete(bno);
      return sendJson(res, 200, sandboxRecord(bno));
    }
    if (req.method !== 'PUT') return sendJson(res, 405, { error: 'PUT, DELETE or GET' });
    let body: { status?: unknown; end_dt?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return sendJson(res, 400, { error: 'a JSON body: {"status": "active|suspended|closed|unregistered", "end_dt": "YYYYMMDD"}' });
    }
    const status = body.status;
    if (status !== 'active' && status !== 'suspended' && status !== 'closed' && status !== 'unregistered') return sendJson(res, 400, { error: 'status must be active, suspended, closed or unregistered' });
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
    const endDt = typeof body.end_dt === 'string' && /^[0-9]{8}$/.test(body.end_dt) ? body.end_dt : today;
    const record = recordWithStatus(bno, status, endDt);
    changed.set(bno, record);
    return sendJson(res, 200, record);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/_admin/')) return admin(req, res, url);
    const validate = url.pathname === NTS_VALIDATE_PATH;
    if (url.pathname !== NTS_STATUS_PATH && !validate) return sendJson(res, 404, { status_code: 'NOT_FOUND' });
    if (req.method !== 'POST') return sendJson(res, 405, { status_code: 'METHOD_NOT_ALLOWED' });
    calls++;
    arrivals.push(Date.now());
    const text = await readBody(req);
    // One draw per switch per call, always, so a seed gives the same sequence whatever the rates.
    const [rTimeout, rError, rMalformed] = [random(), random(), random()];

    if (!url.searchParams.get('serviceKey') && opts.serviceKey !== undefined) {
      return sendJson(res, 401, { code: -401, msg: '인증키는 필수 항목 입니다.' });
    }
    if (opts.serviceKey !== undefined && url.searchParams.get('serviceKey') !== opts.serviceKey) {
      return sendJson(res, 401, { code: -4, msg: '등록되지 않은 인증키 입니다.' });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return sendJson(res, 400, { status_code: 'BAD_JSON_REQUEST' });
    }
    const items = validate ? businessesOf(body) : numbersOf(body);
    if (items === null) return sendJson(res, 400, { status_code: 'REQUEST_DATA_MALFORMED' });
    if (items.length > (opts.maxPerCall ?? NTS_MAX_PER_CALL)) {
      return sendJson(res, 413, { status_code: 'TOO_LARGE_REQUEST' });
    }
    if (opts.dailyLimit !== undefined && usedToday + items.length > opts.dailyLimit) {
      return sendJson(res, 429, { code: -10, msg: '일일 트래픽 한도를 초과하였습니다.' });
    }
    usedToday += items.length;
    if (validate) validated.push(items as ValidateQuery[]);
    else received.push([...(items as string[])]);

    if (rTimeout < (opts.timeoutRate ?? 0)) return; // hold the socket open; close() destroys it
    const slow = slowRandom() < (opts.slowRate ?? 0) ? (opts.slowMs ?? 0) : 0;
    later((opts.latencyMs ?? 0) + slow, () => {
      if (res.destroyed) return;
      if (rError < (opts.errorRate ?? 0)) return sendJson(res, 500, { status_code: 'INTERNAL_ERROR' });
      if (rMalformed < (opts.malformedRate ?? 0)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"request_cnt": 1, "status_code": "OK", "data": [');
      }
      const recordOf = (b: string): NtsRecord => {
        const bno = b.replace(/-/g, '');
        return changed.get(bno) ?? opts.overrides?.get(bno) ?? (opts.closedWorld ? unregisteredRecord(bno) : sandboxRecord(bno));
      };
      if (validate) {
        const data = (items as ValidateQuery[]).map((q) => {
          const answer = sandboxValidation({ ...q, b_no: q.b_no.replace(/-/g, '') });
          return answer.valid === '01'
            ? { b_no: q.b_no, valid: '01', request_param: q, status: { ...recordOf(q.b_no), b_no: q.b_no } }
            : { b_no: q.b_no, valid: '02', valid_msg: answer.valid_msg, request_param: q };
        });
        const valid = data.filter((d) => d.valid === '01').length;
        // valid_cnt, like match_cnt, is left out when nothing matched
        return sendJson(res, 200, { status_code: 'OK', request_cnt: items.length, ...(valid > 0 ? { valid_cnt: valid } : {}), data });
      }
      // Answers in request order, echoing each b_no as given (hyphens stripped for the lookup).
      const data = (items as string[]).map((b) => ({ ...recordOf(b), b_no: b }));
      const matched = data.filter((r) => r.b_stt_cd !== '').length;
      // The real API leaves match_cnt out entirely when nothing matched.
      sendJson(res, 200, { request_cnt: items.length, ...(matched > 0 ? { match_cnt: matched } : {}), status_code: 'OK', data });
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { status_code: 'INTERNAL_ERROR' });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake NTS: no TCP address');
  const { port } = address;
  const host = opts.host ?? '127.0.0.1';

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    get calls() { return calls; },
    received,
    arrivals,
    validated,
    get usedToday() { return usedToday; },
    resetDay() { usedToday = 0; },
    setOptions(partial) {
      opts = { ...opts, ...partial };
      if (partial.seed !== undefined) {
        random = seededRandom(partial.seed);
        slowRandom = seededRandom(partial.seed + 1);
      }
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Held-open "timeout" requests and keep-alive sockets would otherwise block close forever.
      server.closeAllConnections();
      await closed;
    },
  };
}
