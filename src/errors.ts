// Every error the service can answer with, in one table: a stable `code` for clients to branch
// on, the HTTP status it maps to, and a title. Rendered as problem+json in src/api/problem.ts.

export const ERRORS = {
  bad_request: { status: 400, title: 'The request is malformed' },
  invalid_b_no: { status: 400, title: 'Not a business registration number' },
  unauthorized: { status: 401, title: 'API key missing or invalid' },
  plan_forbidden: { status: 403, title: 'Not available on the current plan' },
  watch_limit: { status: 403, title: 'Watch list full for the current plan' },
  not_found: { status: 404, title: 'Not found' },
  conflict: { status: 409, title: 'Conflicts with the current state' },
  gone: { status: 410, title: 'No longer kept' },
  payload_too_large: { status: 413, title: 'Request too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  quota_exceeded: { status: 429, title: 'Monthly lookup quota exceeded' },
  internal: { status: 500, title: 'Internal error' },
  upstream_unavailable: { status: 503, title: 'The National Tax Service is not answering' },
  upstream_daily_limit: { status: 503, title: "The day's allowance of NTS lookups is spent" },
  not_ready: { status: 503, title: 'Not ready' },
  // the web console (src/console/)
  not_signed_in: { status: 401, title: 'Not signed in' },
  invalid_credentials: { status: 401, title: 'Email or password is wrong' },
  csrf_rejected: { status: 403, title: 'Cross-site request refused' },
  signup_closed: { status: 403, title: 'Sign-up is closed' },
  too_many_attempts: { status: 429, title: 'Too many attempts' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** An expected failure with a known code; anything else thrown is a 500. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;
  constructor(
    code: ErrorCode,
    detail: string,
    opts: { headers?: Record<string, string>; extra?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(detail, { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.headers = opts.headers ?? {};
    this.extra = opts.extra ?? {};
  }
  get status(): number {
    return ERRORS[this.code].status;
  }
}
