// /openapi.json as a generated client needs it. The routes' TypeBox schemas give the bodies; what
// Fastify cannot know is added here, in one place: errors as application/problem+json with every
// `code`, the statuses any route can send (413 and 415 on bodies, 500, 503), the response headers
// (X-Request-Id, RateLimit, Retry-After, Location, Idempotent-Replayed), POST /batch's multipart
// body and Idempotency-Key, and the results download's media types.
import { ERRORS, type ErrorCode } from '../errors.ts';

type Json = Record<string, unknown>;
type Operation = { requestBody?: Json; responses?: Record<string, Json>; parameters?: Json[] };

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PROBLEM = { $ref: '#/components/schemas/Problem' };

export const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'RFC 9457 problem details; `code` is stable for clients to branch on',
  required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERRORS) },
    request_id: { type: 'string' },
  },
  additionalProperties: true,
} as const;

const text = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });
const HEADERS = {
  'X-Request-Id': text("this request's id, as in our logs; a sane X-Request-Id sent by the caller is kept"),
  RateLimit: text('the monthly quota now (IETF RateLimit fields): `"monthly";r=<lookups left>;t=<seconds to the reset>`'),
  'RateLimit-Policy': text('`"monthly";q=<the monthly limit>;w=<seconds in the month>`'),
  'Retry-After': text('seconds to wait before trying again', { type: 'integer', minimum: 0 }),
  Location: text('the path of the created resource'),
  'Idempotent-Replayed': text('`true` when this is the job first created with the same Idempotency-Key', { type: 'string', enum: ['true'] }),
} as const;
type HeaderName = keyof typeof HEADERS;

/** What each status means, from the error table: every code that maps to it. */
function describeStatus(status: number): string {
  const codes = (Object.keys(ERRORS) as ErrorCode[]).filter((c) => ERRORS[c].status === status);
  return codes.length > 0 ? codes.map((c) => `\`${c}\`: ${ERRORS[c].title}`).join('; ') : 'error';
}

// statuses by what a route does; every route can also send 500 and 503 (closing, not ready)
const QUOTA_ROUTES = new Set(['post /verify', 'post /validate', 'post /batch', 'post /watch', 'post /watch/{watch_id}/check']);
const RATE_HEADERS_ON_SUCCESS = new Set(['post /verify', 'post /validate', 'get /me']);

const multipartFile = (description: string) => ({
  'multipart/form-data': {
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary', description } },
    },
    encoding: { file: { contentType: `text/csv, text/tab-separated-values, ${XLSX}, application/json, application/x-ndjson, application/octet-stream` } },
  },
});

const EXTRA: Record<string, (op: Operation) => void> = {
  'post /batch': (op) => {
    op.requestBody = {
      required: true,
      content: multipartFile('the customer list: CSV (UTF-8 or CP949; comma, tab or semicolon), XLSX, a JSON array of objects or NDJSON'),
    };
    op.parameters = [
      ...(op.parameters ?? []),
      {
        in: 'header',
        name: 'Idempotency-Key',
        required: false,
        schema: { type: 'string', maxLength: 200 },
        description: 'the same key and file return the first job (Idempotent-Replayed: true); the same key with another file, or while the first upload streams in, is 409',
      },
    ];
    addHeaders(op, '202', ['Location', 'Idempotent-Replayed']);
    addStatuses(op, [409, 415]);
  },
  'post /batch/inspect': (op) => {
    op.requestBody = { required: true, content: multipartFile('the file an upload would send') };
    addStatuses(op, [415]);
  },
  'post /watch': (op) => addHeaders(op, '201', ['Location']),
  'post /batch/{job_id}/labels': (op) => {
    const content = (op.requestBody?.content ?? {}) as Json;
    op.requestBody = { ...op.requestBody, content: { ...content, ...multipartFile('a returned-mail list: CSV, XLSX or JSON with a number or row_id column') } };
  },
  'get /batch/{job_id}/results': (op) => {
    op.responses ??= {};
    op.responses['200'] = {
      description: 'every row: the input columns (prefixed `input:`), then the result columns; streamed',
      content: {
        'text/csv': { schema: { type: 'string' } },
        [XLSX]: { schema: { type: 'string', format: 'binary' } },
        'application/json': { schema: { type: 'array', items: { type: 'object', additionalProperties: true } } },
      },
    };
  },
};

function addHeaders(op: Operation, status: string, names: readonly HeaderName[]): void {
  const r = op.responses?.[status];
  if (!r) return;
  r.headers = { ...(r.headers as Json | undefined), ...Object.fromEntries(names.map((n) => [n, HEADERS[n]])) };
}

function addStatuses(op: Operation, statuses: readonly number[]): void {
  op.responses ??= {};
  for (const s of statuses) op.responses[String(s)] ??= { description: describeStatus(s) };
}

/** Completes the document @fastify/swagger built from the routes (see the top of this file). */
export function completeOpenApi(doc: Json): Json {
  const components = (doc.components ??= {}) as Json;
  components.schemas = { ...(components.schemas as Json | undefined), Problem: PROBLEM_SCHEMA };
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      const key = `${method} ${path}`;
      if (op.requestBody) addStatuses(op, [413, 415]);
      if (QUOTA_ROUTES.has(key)) addStatuses(op, [429]);
      addStatuses(op, [500, 503]);
      EXTRA[key]?.(op);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const code = Number(status);
        if (code >= 400) {
          response.description = describeStatus(code);
          response.content = { 'application/problem+json': { schema: PROBLEM } };
        }
        const names: HeaderName[] = ['X-Request-Id'];
        if (code === 429) names.push('Retry-After', 'RateLimit', 'RateLimit-Policy');
        if (code === 503) names.push('Retry-After');
        if (code < 300 && RATE_HEADERS_ON_SUCCESS.has(key)) names.push('RateLimit', 'RateLimit-Policy');
        addHeaders(op, status, names);
      }
    }
  }
  return doc;
}
