// The bizcheck client: the API's own types (schema.d.ts, generated from /openapi.json) through
// openapi-fetch, plus what a customer would otherwise write around it — problems as typed errors,
// a batch upload that reports progress and streams its results, bulk outcomes, the watch list,
// and webhook verification with the Standard Webhooks reference library.
import createClient, { type Client } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { components, paths } from './schema.d.ts';

export type { components, paths } from './schema.d.ts';

type JsonOf<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer J } }
      ? J
      : never
    : never
  : never;
type BodyOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type VerifyRequest = BodyOf<'/verify', 'post'>;
export type VerifyResult = JsonOf<'/verify', 'post', 200>;
export type ValidateRequest = BodyOf<'/validate', 'post'>;
export type ValidateResult = JsonOf<'/validate', 'post', 200>;
export type Me = JsonOf<'/me', 'get', 200>;
export type BatchAccepted = JsonOf<'/batch', 'post', 202>;
export type BatchStatus = JsonOf<'/batch/{job_id}', 'get', 200>;
export type LabelRequest = BodyOf<'/batch/{job_id}/label', 'post'>;
export type LabelRecorded = JsonOf<'/batch/{job_id}/label', 'post', 200>;
export type LabelsRequest = BodyOf<'/batch/{job_id}/labels', 'post'>;
export type LabelsRecorded = JsonOf<'/batch/{job_id}/labels', 'post', 200>;
export type WatchRequest = Exclude<BodyOf<'/watch', 'post'>, unknown[]>;
export type WatchEntry = JsonOf<'/watch/{watch_id}', 'get', 200>;
export type WatchList = JsonOf<'/watch', 'get', 200>;
export type WatchHistory = JsonOf<'/watch/{watch_id}/history', 'get', 200>;
export type Problem = components['schemas']['Problem'];
/** One row of a results download (JSON): the input columns prefixed `input:`, then the results. */
export type ResultRow = Record<string, unknown>;

/** An answer other than success, with the problem+json the API sent. */
export class BizcheckError extends Error {
  override name = 'BizcheckError';
  readonly status: number;
  readonly code: Problem['code'] | 'network';
  readonly problem: Problem | null;
  /** seconds the API asked to wait (429, 503), or null */
  readonly retryAfter: number | null;
  readonly requestId: string | null;

  constructor(status: number, problem: Problem | null, headers: Headers | null, message?: string) {
    super(message ?? (problem ? `${problem.status} ${problem.code}: ${problem.detail}` : `HTTP ${status}`));
    this.status = status;
    this.problem = problem;
    this.code = problem?.code ?? 'network';
    const retry = headers?.get('retry-after');
    this.retryAfter = retry && /^\d+$/.test(retry) ? Number(retry) : null;
    this.requestId = headers?.get('x-request-id') ?? problem?.request_id ?? null;
  }
}

export interface ClientOptions {
  apiKey: string;
  /** default http://127.0.0.1:8080 */
  baseUrl?: string;
  fetch?: typeof fetch;
}

export interface UploadOptions {
  /** file name the job shows (defaults to the Blob's name, or "list.csv") */
  filename?: string;
  offline?: boolean;
  paid?: boolean;
  /** XLSX worksheet by name or 1-based position */
  sheet?: string | number;
  bnoColumn?: string | number;
  nameColumn?: string | number;
  addressColumn?: string | number;
  representativeColumn?: string | number;
  openingDateColumn?: string | number;
  /** the same key and file return the first job instead of a second one */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** default 1000 (the API's advice) */
  pollMs?: number;
  /** rows in the status's preview (default 0) */
  preview?: number;
  signal?: AbortSignal;
  /** give up after this long (default: never) */
  timeoutMs?: number;
}

type Fetched = { data?: unknown; error?: unknown; response: Response };

function unwrap<T>(r: Fetched): T {
  if (r.response.ok) return r.data as T;
  throw new BizcheckError(r.response.status, (r.error as Problem | undefined) ?? null, r.response.headers);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }, { once: true });
  });

/** A batch job: its status as it goes, and its results once done. */
export class BatchJob {
  readonly id: string;
  /** what POST /batch answered, for a job this client uploaded; null for one opened by id */
  readonly accepted: BatchAccepted | null;
  readonly #api: Bizcheck;

  constructor(api: Bizcheck, id: string, accepted: BatchAccepted | null = null) {
    this.#api = api;
    this.id = id;
    this.accepted = accepted;
  }

  status(preview = 0): Promise<BatchStatus> {
    return this.#api.batch.status(this.id, preview);
  }

  /** Progress events, polled (once a second by default) until the job is done or failed; the last is the final status. */
  async *progress(opts: WaitOptions = {}): AsyncGenerator<BatchStatus> {
    const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
    for (;;) {
      const s = await this.status(opts.preview ?? 0);
      yield s;
      if (s.status === 'done' || s.status === 'failed') return;
      if (Date.now() > deadline) throw new BizcheckError(0, null, null, `job ${this.id} is still ${s.status} after ${opts.timeoutMs} ms`);
      await sleep(opts.pollMs ?? 1000, opts.signal);
    }
  }

  /** The final status; a failed job is a BizcheckError. */
  async done(opts: WaitOptions & { onProgress?: (s: BatchStatus) => void } = {}): Promise<BatchStatus> {
    let last: BatchStatus | undefined;
    for await (const s of this.progress(opts)) {
      opts.onProgress?.(s);
      last = s;
    }
    if (!last || last.status === 'failed') throw new BizcheckError(0, null, null, `job ${this.id} failed: ${last?.failure_reason ?? 'no reason given'}`);
    return last;
  }

  /** Every row of the results as it streams in (the JSON download, read a row at a time). */
  results(): AsyncGenerator<ResultRow> {
    return this.#api.batch.results(this.id);
  }

  /** The results download as bytes arrive: CSV (UTF-8 with BOM) or XLSX, to pipe into a file. */
  download(format: 'csv' | 'xlsx' | 'json'): Promise<ReadableStream<Uint8Array>> {
    return this.#api.batch.download(this.id, format);
  }
}

/** Splits the results download (a JSON array, one object per line) into rows without holding it whole. */
async function* jsonRows(body: ReadableStream<Uint8Array>): AsyncGenerator<ResultRow> {
  const decoder = new TextDecoder();
  let buf = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buf += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let nl = buf.indexOf('\n');
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim().replace(/,$/, '');
        buf = buf.slice(nl + 1);
        if (line.startsWith('{')) yield JSON.parse(line) as ResultRow;
        nl = buf.indexOf('\n');
      }
      if (done) break;
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

export class Bizcheck {
  /** the generated client, for anything the helpers below do not cover */
  readonly client: Client<paths>;
  readonly #fetch: typeof fetch;
  readonly #baseUrl: string;
  readonly #apiKey: string;

  constructor(opts: ClientOptions) {
    this.#baseUrl = (opts.baseUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    this.#apiKey = opts.apiKey;
    this.#fetch = opts.fetch ?? globalThis.fetch;
    this.client = createClient<paths>({ baseUrl: this.#baseUrl, headers: { 'x-api-key': opts.apiKey }, fetch: (r) => this.#fetch(r) });
  }

  async me(): Promise<Me> {
    return unwrap(await this.client.GET('/me'));
  }

  async verify(body: VerifyRequest): Promise<VerifyResult> {
    return unwrap(await this.client.POST('/verify', { body }));
  }

  /** NTS 진위확인: is this the business registered under that opening date and representative? */
  async validate(body: ValidateRequest): Promise<ValidateResult> {
    return unwrap(await this.client.POST('/validate', { body }));
  }

  readonly batch = {
    /** Uploads a customer list (a Blob or File: CSV, XLSX, JSON); the job runs on the server. */
    upload: async (file: Blob, opts: UploadOptions = {}): Promise<BatchJob> => {
      const str = (v: string | number | undefined) => (v === undefined ? undefined : String(v));
      const query = {
        offline: opts.offline === undefined ? undefined : String(opts.offline),
        paid: opts.paid === undefined ? undefined : String(opts.paid),
        sheet: str(opts.sheet), bno_column: str(opts.bnoColumn), name_column: str(opts.nameColumn), address_column: str(opts.addressColumn),
        representative_column: str(opts.representativeColumn), opening_date_column: str(opts.openingDateColumn),
      } as NonNullable<paths['/batch']['post']['parameters']['query']>;
      const name = opts.filename ?? ('name' in file && typeof file.name === 'string' ? file.name : 'list.csv');
      const r = await this.client.POST('/batch', {
        params: { query, header: opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {} },
        body: { file },
        bodySerializer: (b) => {
          const form = new FormData();
          form.append('file', b.file, name);
          return form;
        },
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      const accepted = unwrap<BatchAccepted>(r);
      return new BatchJob(this, accepted.job_id, accepted);
    },
    /** A job uploaded earlier (by this client or another), to follow and read. */
    job: (jobId: string): BatchJob => new BatchJob(this, jobId),
    status: async (jobId: string, preview = 0): Promise<BatchStatus> =>
      unwrap(await this.client.GET('/batch/{job_id}', { params: { path: { job_id: jobId }, query: { preview } } })),
    list: async (limit = 20, before?: string) => unwrap<JsonOf<'/batch', 'get', 200>>(await this.client.GET('/batch', { params: { query: { limit, ...(before ? { before } : {}) } } })),
    remove: async (jobId: string) => unwrap<JsonOf<'/batch/{job_id}', 'delete', 200>>(await this.client.DELETE('/batch/{job_id}', { params: { path: { job_id: jobId } } })),
    download: async (jobId: string, format: 'csv' | 'xlsx' | 'json'): Promise<ReadableStream<Uint8Array>> => {
      const r = await this.client.GET('/batch/{job_id}/results', { params: { path: { job_id: jobId }, query: { format } }, parseAs: 'stream' });
      if (!r.response.ok || !r.data) throw new BizcheckError(r.response.status, (r.error as Problem | undefined) ?? null, r.response.headers);
      return r.data;
    },
    /** Every row of a finished job's results as they stream in. */
    results: (jobId: string): AsyncGenerator<ResultRow> => this.resultsOf(jobId),
  };

  readonly labels = {
    /** One outcome of a row of a job (row_id, bounced, reason). */
    record: async (jobId: string, label: LabelRequest): Promise<LabelRecorded> =>
      unwrap(await this.client.POST('/batch/{job_id}/label', { params: { path: { job_id: jobId } }, body: label })),
    /** Many outcomes at once, by row_id or by number; those that cannot be recorded come back in `rejected`. */
    bulk: async (jobId: string, labels: LabelsRequest): Promise<LabelsRecorded> =>
      unwrap(await this.client.POST('/batch/{job_id}/labels', { params: { path: { job_id: jobId } }, body: labels })),
    /** The mailroom's returned-mail file as it is (CSV, XLSX, JSON); `outcome: 'bounced'` when every row listed bounced. */
    file: async (jobId: string, file: Blob, opts: { outcome?: 'bounced' | 'delivered'; sheet?: string; filename?: string } = {}): Promise<LabelsRecorded> => {
      const name = opts.filename ?? ('name' in file && typeof file.name === 'string' ? file.name : 'returned.csv');
      const r = await this.client.POST('/batch/{job_id}/labels', {
        params: { path: { job_id: jobId }, query: { ...(opts.outcome ? { outcome: opts.outcome } : {}), ...(opts.sheet ? { sheet: opts.sheet } : {}) } },
        body: { file } as unknown as LabelsRequest,
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', file, name);
          return form;
        },
      });
      return unwrap(r);
    },
  };

  readonly watch = {
    add: async (entry: WatchRequest): Promise<WatchEntry> => unwrap(await this.client.POST('/watch', { body: entry })),
    list: async (query: NonNullable<paths['/watch']['get']['parameters']['query']> = {}): Promise<WatchList> => unwrap(await this.client.GET('/watch', { params: { query } })),
    get: async (watchId: string): Promise<WatchEntry> => unwrap(await this.client.GET('/watch/{watch_id}', { params: { path: { watch_id: watchId } } })),
    /** Re-checks now with a fresh NTS answer (one lookup). */
    check: async (watchId: string): Promise<WatchEntry> => unwrap(await this.client.POST('/watch/{watch_id}/check', { params: { path: { watch_id: watchId } } })),
    history: async (watchId: string): Promise<WatchHistory> => unwrap(await this.client.GET('/watch/{watch_id}/history', { params: { path: { watch_id: watchId } } })),
    remove: async (watchId: string) => unwrap<JsonOf<'/watch/{watch_id}', 'delete', 200>>(await this.client.DELETE('/watch/{watch_id}', { params: { path: { watch_id: watchId } } })),
  };

  static readonly webhooks = {
    /**
     * Checks a delivery's signature (Standard Webhooks: webhook-id, webhook-timestamp,
     * webhook-signature; the `whsec_` secret from PUT /webhook) on the raw body as received, and
     * returns the event. Throws when the signature or the timestamp (±5 min) does not hold.
     */
    verify<T = WebhookEvent>(rawBody: string | Buffer, headers: Headers | Record<string, string | string[] | undefined>, secret: string): T {
      const plain: Record<string, string> = {};
      if (headers instanceof Headers) headers.forEach((v, k) => (plain[k] = v));
      else for (const [k, v] of Object.entries(headers)) if (v !== undefined) plain[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      return new Webhook(secret).verify(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'), plain) as T;
    },
  };

  get webhooks() {
    return Bizcheck.webhooks;
  }

  /** internal: the JSON download as rows */
  async *resultsOf(jobId: string): AsyncGenerator<ResultRow> {
    yield* jsonRows(await this.batch.download(jobId, 'json'));
  }

  /** the key this client sends (its prefix identifies it in the console) */
  get keyPrefix(): string {
    return this.#apiKey.split('_').slice(0, 2).join('_');
  }
}

/** A webhook event as delivered (see the README's Webhooks section). */
export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}
