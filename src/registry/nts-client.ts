// One HTTP call to the NTS status API. No retries, batching or timeouts of its own: those live
// in resilience.ts and coalescer.ts so each can be tested and tuned on its own.

import { NTS_MAX_PER_CALL, parseStatusResponse, serialiseStatusRequest, statusUrl } from './nts-wire.ts';
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
  readonly #fetch: typeof fetch;

  constructor(opts: NtsHttpClientOptions) {
    // The URL holds the service key: keep it private and never put it in an error message.
    this.#url = statusUrl(opts.baseUrl, opts.serviceKey);
    this.#fetch = opts.fetch ?? fetch;
  }

  async callOnce(bnos: readonly string[], signal: AbortSignal): Promise<Map<string, NtsRecord>> {
    if (bnos.length > NTS_MAX_PER_CALL) throw new RangeError(`at most ${NTS_MAX_PER_CALL} numbers per call`);
    if (bnos.length === 0) return new Map();
    const body = serialiseStatusRequest(bnos);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(this.#url, {
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
      return parseStatusResponse(response.status, text, bnos);
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
  const detail = describeFetchError(cause);
  return new UpstreamError('network', `NTS call failed: ${detail}`, { retryable: true, cause });
}

