// Carries an upstream's Retry-After hint from the HTTP client to the retry policy without
// widening UpstreamError (types.ts) for everyone.

import type { UpstreamError } from '../domain/status.ts';

const hints = new WeakMap<object, number>();

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

export function withRetryAfter(error: UpstreamError, ms: number | undefined): UpstreamError {
  if (ms !== undefined) hints.set(error, ms);
  return error;
}

export function retryAfterOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? hints.get(error) : undefined;
}
