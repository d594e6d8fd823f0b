// The one place errors become HTTP: every failure is application/problem+json (RFC 9457) with
// a stable `code` and the request id, whatever raised it.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERRORS, type ErrorCode } from '../errors.ts';

export const PROBLEM_TYPE_BASE = 'https://bizcheck.dev/problems/';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Friendlier words for the rules people break most. */
const FIELD_HINTS: Record<string, string> = {
  b_no: 'must be exactly 10 digits without hyphens, e.g. "1248100998"',
  biz_no: 'must be exactly 10 digits without hyphens, e.g. "1248100998"',
};

function describeValidation(err: FastifyError): { detail: string; errors: { field: string; message: string }[] } {
  const issues = (err.validation ?? []) as ValidationIssue[];
  const where = err.validationContext ?? 'body';
  const errors: { field: string; message: string }[] = [];
  for (const i of issues.slice(0, 20)) {
    const path = (i.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (i.keyword === 'additionalProperties') {
      const names = (i.params?.additionalProperties as string[] | undefined) ?? [];
      for (const name of names) errors.push({ field: path ? `${path}.${name}` : name, message: 'is not a field of this request' });
      continue;
    }
    // TypeBox also reports each extra property as "schema is false"; the line above already said it
    if (i.message === 'schema is false') continue;
    if (i.keyword === 'required') {
      const names = (i.params?.requiredProperties as string[] | undefined) ?? [];
      for (const name of names) errors.push({ field: path ? `${path}.${name}` : name, message: 'is required' });
      if (names.length) continue;
    }
    const hint = FIELD_HINTS[path];
    const useHint = hint && (i.keyword === 'pattern' || i.keyword === 'type' || i.keyword === 'maxLength');
    errors.push({ field: path || where, message: useHint ? hint : (i.message ?? 'is invalid') });
  }
  const unique = [...new Map(errors.map((e) => [`${e.field}|${e.message}`, e])).values()];
  const detail = unique.length ? unique.map((e) => `${e.field}: ${e.message}`).join('; ') : err.message;
  return { detail, errors: unique };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  detail: string,
  opts: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
): FastifyReply {
  const { status, title } = ERRORS[code];
  for (const [k, v] of Object.entries(opts.headers ?? {})) reply.header(k, v);
  return reply
    .code(status)
    .type('application/problem+json; charset=utf-8')
    .send({ type: `${PROBLEM_TYPE_BASE}${code}`, title, status, detail, code, request_id: request.id, ...opts.extra });
}

function codeForFastifyError(err: FastifyError): ErrorCode {
  const status = err.statusCode ?? 500;
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 404) return 'not_found';
  return status >= 400 && status < 500 ? 'bad_request' : 'internal';
}

export function installProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) return sendProblem(request, reply, err.code, err.detail, { headers: err.headers, extra: err.extra });
    if (err.validation) {
      const { detail, errors } = describeValidation(err);
      return sendProblem(request, reply, 'bad_request', detail, { extra: { errors } });
    }
    const code = codeForFastifyError(err);
    if (code === 'internal') {
      request.log.error({ err }, 'unhandled error');
      return sendProblem(request, reply, 'internal', 'something went wrong on our side; the request id identifies it in our logs');
    }
    return sendProblem(request, reply, code, err.message);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`),
  );
}
