// What a business status is, wherever it comes from (the registry: the real 국세청 (NTS) API, or the
// built-in sandbox when no service key is configured). Everything else sees only these types.

/** NTS status code: 01 계속사업자, 02 휴업자, 03 폐업자, '' not registered with NTS. */
export type NtsStatusCode = '01' | '02' | '03' | '';

/** One business exactly as the NTS status API describes it (the wire fields we keep). */
export interface NtsRecord {
  b_no: string;
  b_stt: string;
  b_stt_cd: NtsStatusCode;
  tax_type: string;
  tax_type_cd: string;
  /** Closure date YYYYMMDD, or '' */
  end_dt: string;
  utcc_yn: string;
  tax_type_change_dt: string;
  invoice_apply_dt: string;
  rbf_tax_type: string;
  rbf_tax_type_cd: string;
}

export type UpstreamFault =
  | 'timeout'
  | 'network'
  | 'http_5xx'
  | 'rate_limited'
  | 'malformed'
  | 'rejected' // a 4xx or gateway error that retrying cannot fix (bad key, bad request)
  | 'quota_exhausted' // the day's allowance of numbers is spent (ours or the gateway's): wait for the next day
  | 'circuit_open';

/** The upstream could not answer. `retryable` says whether asking again later may help. */
export class UpstreamError extends Error {
  readonly fault: UpstreamFault;
  readonly retryable: boolean;
  readonly httpStatus: number | undefined;
  constructor(fault: UpstreamFault, message: string, opts: { retryable: boolean; httpStatus?: number; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.name = 'UpstreamError';
    this.fault = fault;
    this.retryable = opts.retryable;
    this.httpStatus = opts.httpStatus;
  }
}

/** A raw source of records: one implementation per upstream. */
export interface Registry {
  readonly source: 'nts' | 'sandbox';
  /** Any number of distinct ten-digit numbers; resolves with a record for every number answered. */
  lookup(bnos: readonly string[]): Promise<Map<string, NtsRecord>>;
  close(): Promise<void>;
}

/** A status as held by the shared cache (the store implements it). Times are ISO-8601 UTC. */
export interface CachedStatus {
  record: NtsRecord;
  source: 'nts' | 'sandbox';
  checkedAt: string;
  expiresAt: string;
}

export interface StatusCache {
  getCachedStatuses(bnos: readonly string[]): Promise<Map<string, CachedStatus>>;
  putCachedStatuses(entries: readonly CachedStatus[]): Promise<void>;
}

/** How one number was answered by the status service. */
export interface StatusAnswer {
  record: NtsRecord;
  source: 'nts' | 'sandbox';
  checkedAt: string;
  /** true when it came from the shared cache rather than a call made for this request */
  fromCache: boolean;
  /** true when the cache entry is past its TTL and was used only because the upstream failed (or offline) */
  stale: boolean;
}

export interface StatusLookupResult {
  answers: Map<string, StatusAnswer>;
  /** numbers with no answer at all (no fresh call succeeded, nothing usable cached) */
  unanswered: Map<string, UpstreamError>;
}

export interface LookupOptions {
  offline?: boolean;
  maxAgeMs?: number;
  bulk?: boolean;
}

export interface StatusService {
  /**
   * offline: make no upstream call; answer from the cache only (fresh or stale, each flagged).
   * Otherwise: fresh cache hits, then the upstream for the misses; when the upstream fails for a
   * number, a stale cache entry is returned flagged `stale`, else the number is `unanswered`.
   * maxAgeMs: cached answers checked longer ago than this count as expired.
   * bulk: part of a job over many numbers (a batch chunk, a watch round): its answers are not kept
   * in the process's memory for single lookups, however few this call asks for.
   */
  lookup(bnos: readonly string[], opts?: LookupOptions): Promise<StatusLookupResult>;
  /** the registry fresh answers come from (cache entries of another are as good as absent) */
  readonly source: 'nts' | 'sandbox';
  /** circuit breaker state for readiness */
  health(): { upstream: 'closed' | 'open' | 'half_open' | 'sandbox' };
  close(): Promise<void>;
}

/** Two records, each with its b_no, equal in every other field (records are flat objects of text): alike answers share all but their number. */
export function recordsAlikeButNumber(a: NtsRecord, b: NtsRecord): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) if (k !== 'b_no' && (ra[k] !== rb[k] || !Object.hasOwn(rb, k))) return false;
  return true;
}
