// NTS calls sent from a thread of their own. A named batch keeps the main thread busy in
// stretches of tens of milliseconds (scoring's results, commits, evidence), and a call's answer
// that arrives during one waited for it: NTS's 100 ms calls took ~122 ms on average, and with
// them every place among the calls allowed out. Here a small thread sends the requests, at most
// `maxInFlight` at once, and starts the next waiting one the moment one returns. The main thread
// may hand it more than that (NtsRegistry hands it twice as many), so there is always one ready.
//
// `fetch` has the global fetch's shape for what NtsHttpClient uses (method, headers, a text
// body, a signal; the answer's status, headers and text), so the client, its resilience and the
// coalescer do not change. With `wireTimeoutMs` the thread times each request from when it goes
// on the wire and fails it as fetch fails on AbortSignal.timeout (a TimeoutError): a caller's own
// timeout would also count the wait for a place, up to one call's time when NTS is slow. A
// thread that dies fails the requests it held as a network error would, and the next request
// starts a new one.
import { Worker } from 'node:worker_threads';

export interface LaneSetup {
  maxInFlight: number;
  /** each request's time on the wire, after which it fails as a TimeoutError; none: no limit */
  wireTimeoutMs: number | undefined;
}

export interface LaneRequest {
  id: number;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export type ToLane = { type: 'send'; request: LaneRequest } | { type: 'abort'; id: number };

export type FromLane =
  | { id: number; ok: true; status: number; headers: [string, string][]; text: string }
  | { id: number; ok: false; name: string; message: string; cause: { message: string; code: string | undefined } | undefined };

interface Waiting {
  resolve: (r: Response) => void;
  reject: (e: unknown) => void;
  done: () => void;
}

const THREAD_URL = new URL('./http-lane-thread.js', import.meta.url);
/** statuses whose Response may not have a body */
const NULL_BODY = new Set([101, 204, 205, 304]);

export class HttpLane {
  readonly #maxInFlight: number;
  readonly #wireTimeoutMs: number | undefined;
  readonly #threadUrl: URL;
  #worker: Worker | null = null;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #closed = false;

  /** `threadUrl`: another module for the thread (tests: one that dies) */
  constructor(maxInFlight: number, opts: { wireTimeoutMs?: number | undefined; threadUrl?: URL } = {}) {
    if (!(maxInFlight >= 1)) throw new RangeError('an HTTP lane needs at least one request in flight');
    this.#maxInFlight = maxInFlight;
    this.#wireTimeoutMs = opts.wireTimeoutMs;
    this.#threadUrl = opts.threadUrl ?? THREAD_URL;
  }

  readonly fetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.#closed) return Promise.reject(new TypeError('fetch failed', { cause: new Error('the HTTP lane is closed') }));
    // what NtsHttpClient never sends is refused as fetch refuses a bad request: a rejection
    if (typeof input !== 'string' && !(input instanceof URL)) return Promise.reject(new TypeError('HttpLane.fetch takes a URL, not a Request'));
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') return Promise.reject(new TypeError('HttpLane.fetch sends text bodies only'));
    const id = this.#nextId++;
    const request: LaneRequest = { id, url: String(input), method: init.method ?? 'GET', headers: plainHeaders(init.headers), body: init.body ?? undefined };
    return new Promise<Response>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.#waiting.delete(id)) return;
        this.#worker?.postMessage({ type: 'abort', id } satisfies ToLane);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      this.#waiting.set(id, { resolve, reject, done });
      try {
        this.#thread().postMessage({ type: 'send', request } satisfies ToLane);
      } catch (cause) {
        // the thread could not be started or reached: as a connection that could not be made
        this.#waiting.delete(id);
        done();
        reject(new TypeError('fetch failed', { cause }));
      }
    });
  };

  /** Fails what is waiting and ends the thread. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    this.#failAll(new Error('the HTTP lane is closed'));
    await worker?.terminate();
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#threadUrl, { workerData: { maxInFlight: this.#maxInFlight, wireTimeoutMs: this.#wireTimeoutMs } satisfies LaneSetup, resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 } });
    // idle between calls, it must not keep the process alive
    worker.unref();
    worker.on('message', (m: FromLane) => this.#answer(m));
    const gone = (error: Error): void => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#failAll(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the HTTP lane's thread exited (${code})`)));
    this.#worker = worker;
    return worker;
  }

  #answer(m: FromLane): void {
    const w = this.#waiting.get(m.id);
    if (!w) return; // aborted meanwhile
    this.#waiting.delete(m.id);
    w.done();
    if (m.ok) {
      w.resolve(new Response(NULL_BODY.has(m.status) ? null : m.text, { status: m.status, headers: m.headers }));
      return;
    }
    const cause = m.cause ? Object.assign(new Error(m.cause.message), m.cause.code ? { code: m.cause.code } : {}) : undefined;
    w.reject(Object.assign(new TypeError(m.message, { cause }), { name: m.name }));
  }

  #failAll(cause: Error): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const w of waiting) {
      w.done();
      w.reject(new TypeError('fetch failed', { cause }));
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers));
}
