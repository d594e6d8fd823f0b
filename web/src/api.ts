// The console's only way to the server: same-origin fetch with the session cookie (httpOnly: this
// code never sees it) and the session's CSRF token, kept in memory only. No API key is ever held
// here: the full key of a new one is shown once and dropped.
export const API_BASE = '/console/api';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly retryAfter: number | null;
  /** the plan a refused feature needs (`required_plan` of a plan_forbidden problem) */
  readonly requiredPlan: string | null;
  constructor(status: number, code: string, detail: string, retryAfter: number | null, requiredPlan: string | null = null) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.retryAfter = retryAfter;
    this.requiredPlan = requiredPlan;
  }
}

let csrf: string | null = null;
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrf = token;
}

/** Called when the server says the session is gone (expired, signed out elsewhere). */
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

async function toError(res: Response): Promise<ApiError> {
  let code = 'http_error';
  let detail = res.statusText;
  let requiredPlan: string | null = null;
  try {
    const body = (await res.json()) as { code?: string; detail?: string; required_plan?: string };
    code = body.code ?? code;
    detail = body.detail ?? detail;
    requiredPlan = body.required_plan ?? null;
  } catch {
    /* not problem+json */
  }
  const retry = Number(res.headers.get('retry-after'));
  return new ApiError(res.status, code, detail, Number.isFinite(retry) && retry > 0 ? retry : null, requiredPlan);
}

export async function api<T>(method: string, path: string, body?: unknown, opts: { query?: Record<string, string>; onStatus?: (status: number) => void } = {}): Promise<T> {
  // answers (reasons, and the rows of a job uploaded now) in the interface language
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': document.documentElement.lang === 'en' ? 'en' : 'ko' };
  if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const qs = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}${qs}`, { method, headers, body: payload, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'network error', null);
  }
  if (!res.ok) {
    const err = await toError(res);
    if (err.code === 'not_signed_in') onSignedOut();
    throw err;
  }
  opts.onStatus?.(res.status);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

// ---- the shapes the console reads ----

export interface SessionInfo {
  account: { id: string; email: string; plan: string; created_at: string };
  csrf_token: string;
  expires_at: string;
}

export interface AccountInfo {
  account_id: string;
  email: string;
  plan: string;
  features: { api: boolean; console_batch: boolean; watch: boolean; history: boolean; watch_interval_hours: number | null; watch_limit: number };
  quota: { limit: number; used: number; remaining: number; overage: number; custom_limit: boolean; resets_at: string };
  created_at: string;
}

export interface KeyInfo {
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface VerificationResult {
  b_no?: string;
  biz_status?: string;
  bounce_prob?: number | null;
  grade?: string | null;
  action?: string | null;
  reasons?: string[];
  /** 진위확인 of a row that brought a representative and an opening date */
  validation?: RowValidation | null;
}

export interface RowValidation {
  status: 'confirmed' | 'not_confirmed' | 'unanswered' | 'unreadable_date';
  valid: boolean | null;
  valid_code: '01' | '02' | null;
  valid_msg: string | null;
  p_nm: string;
  start_dt: string;
}

export interface JobStatus {
  job_id: string;
  status: 'queued' | 'processing' | 'done' | 'failed';
  total: number;
  processed: number;
  progress: number;
  failure_reason: string | null;
  charged: number;
  overage: number;
  refunded: number;
  counts: { biz_status: Record<string, number>; grade: Record<string, number> };
  file: {
    name: string | null;
    kind: string;
    number_column: string;
    name_column: string | null;
    address_column: string | null;
    representative_column: string | null;
    opening_date_column: string | null;
    /** rows with a representative and an opening date are checked by 진위확인 */
    validates: boolean;
    /** XLSX: the worksheet read */
    sheet: string | null;
    /** what reading the file decided on its own */
    notices: { code: 'sheet_chosen' | 'no_address_column' | 'no_name_column' | 'total_rows_skipped' | 'numbers_zero_padded'; message: string; count?: number }[];
  };
  created_at: string;
  finished_at: string | null;
  /** its rows and results were deleted at the end of retention; counts remain */
  expired_at: string | null;
  preview: { row_id: number; input: Record<string, string>; result: VerificationResult | null }[];
}

/** POST /batch/inspect: what an upload of a file would read. */
export interface FileInspection {
  kind: string;
  sheet: string | null;
  sheets: string[];
  headers: string[];
  /** null: no header names a number column (the first row is shown as the header) */
  number_column: string | null;
  name_column: string | null;
  address_column: string | null;
  notices: JobStatus['file']['notices'];
  rows: { row_id: number; cells: Record<string, string> }[];
}

export interface JobListItem {
  job_id: string;
  status: JobStatus['status'];
  total: number;
  processed: number;
  progress: number;
  file_name: string | null;
  created_at: string;
  finished_at: string | null;
  expired_at: string | null;
}

/** What a watched business looked like at a check (src/api/watch.ts). */
export interface WatchState {
  biz_status: string;
  grade: string | null;
  bounce_prob: number | null;
  action: string | null;
  closed_on: string | null;
  /** the kept record of the NTS answer the check observed */
  verification_id?: string | null;
}

export interface WatchRecord extends WatchState {
  watch_id: string;
  biz_no: string;
  name: string | null;
  address: string | null;
  last_checked_at: string | null;
  next_check_at: string;
  check_failures: number;
  created_at: string;
}

export interface WatchHistoryEntry extends WatchState {
  checked_at: string;
  previous_attributes: { biz_status?: string; grade?: string | null } | null;
}

export interface WatchHistory {
  watch_id: string;
  biz_no: string;
  history: WatchHistoryEntry[];
}

export interface WebhookEndpoint {
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  events: string[];
  /** the types chosen; null: every type */
  enabled_events: string[] | null;
  created_at: string;
  updated_at: string;
  secret_hint: string;
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  url: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDelivery {
  id: string;
  type: string;
  /** pending | delivered | failed | abandoned */
  state: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
  payload: unknown;
  log: WebhookAttempt[];
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  /** entries on the whole list, where the list says */
  total?: number;
  /** entries that pass the list's filter, when one was given */
  matching?: number;
}
