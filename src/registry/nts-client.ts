// One HTTP call to the NTS status or validate API. No retries, batching or timeouts of its own:
// those live in resilience.ts and coalescer.ts so each can be tested and tuned on its own.

import {
  NTS_MAX_PER_CALL, parseStatusResponse, parseValidateResponse, serialiseStatusRequest, serialiseValidateRequest, statusUrl,
  validateUrl,
} from './nts-wire.ts';
import { queryOfKey, type ValidateAnswer } from '../domain/validation.ts';
import { parseRetryAfter, withRetryAfter } from './retry-after.ts';
import { type NtsRecord, UpstreamError } from '../domain/status.ts';
import { describeFetchError } from './fetch-error.ts';

export interface NtsHttpClientOptions {
  serviceKey: string;
  /** e.g. https://api.odcloud.kr, or a fake server's URL */
  baseUrl: string;
  /** injectable for tests; defaults to the global (undici) fetch */
  fetch?: typeof fetch;
}

export class NtsHttpClient {
  readonly #url: string;
  readonly #validateUrl: string;
  readonly #fetch: typeof fetch;

  constructor(opts: NtsHttpClientOptions) {
    // The URLs hold the service key: keep them private and never put them in an error message.
    this.#url = statusUrl(opts.baseUrl, opts.serviceKey);
    this.#validateUrl = validateUrl(opts.baseUrl, opts.serviceKey);
    this.#fetch = opts.fetch ?? fetch;
  }

  async callOnce(bnos: readonly string[], signal: AbortSignal): Promise<Map<string, NtsRecord>> {
    if (bnos.length > NTS_MAX_PER_CALL) throw new RangeError(`at most ${NTS_MAX_PER_CALL} numbers per call`);
    if (bnos.length === 0) return new Map();
    return this.#post(this.#url, serialiseStatusRequest(bnos), signal, (status, text) => parseStatusResponse(status, text, bnos));
  }

  /** One validate call; questions and answers keyed by validateKey. */
  async validateOnce(keys: readonly string[], signal: AbortSignal): Promise<Map<string, ValidateAnswer>> {
    if (keys.length > NTS_MAX_PER_CALL) throw new RangeError(`at most ${NTS_MAX_PER_CALL} businesses per call`);
    if (keys.length === 0) return new Map();
    const body = serialiseValidateRequest(keys.map((k) => queryOfKey(k)));
    return this.#post(this.#validateUrl, body, signal, (status, text) => parseValidateResponse(status, text, keys));
  }

  async #post<R>(url: string, body: string, signal: AbortSignal, parse: (status: number, text: string) => R): Promise<R> {
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal,
      });
      // Reading the body is part of the call: a server that stalls mid-body is a timeout too.
      text = await response.text();
    } catch (cause) {
      throw transportError(cause, signal);
    }
    try {
      return parse(response.status, text);
    } catch (error) {
      if (error instanceof UpstreamError && (error.fault === 'rate_limited' || error.fault === 'http_5xx')) {
        throw withRetryAfter(error, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
      }
      throw error;
    }
  }
}

function transportError(cause: unknown, signal: AbortSignal): UpstreamError {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
    return new UpstreamError('timeout', timedOut ? 'NTS call timed out' : 'NTS call aborted', { retryable: true, cause });
  }
  // a fetch that times its own calls (HttpLane's, from when each goes on the wire)
  if (cause instanceof Error && cause.name === 'TimeoutError') return new UpstreamError('timeout', cause.message, { retryable: true, cause });
  const detail = describeFetchError(cause);
  return new UpstreamError('network', `NTS call failed: ${detail}`, { retryable: true, cause });
}

