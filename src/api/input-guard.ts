// One rule at the edge, for every route (the API and the console alike, and any added later):
// text coming in holds no control characters or lone surrogates (domain/safe-text.ts). Checked
// before schema validation and before any handler, so neither store ever sees such a string:
// - a path parameter that holds one names nothing that can exist: 404, as for an unknown id;
// - a query value, a JSON string or object key at any depth, or a header we keep: 400, naming it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasUnsafeChars } from '../domain/safe-text.ts';
import { AppError } from '../errors.ts';

/** Request headers whose values are stored or echoed. */
const KEPT_HEADERS = ['idempotency-key'] as const;

/** The path (e.g. `items.3.name`, `{key}` for a key) of the first unsafe string in a JSON value, or null. */
export function unsafeTextPath(value: unknown): string | null {
  // iterative: a 64 KB body can nest thousands of levels deep
  const stack: [unknown, string][] = [[value, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, path] = next;
    if (typeof v === 'string') {
      if (hasUnsafeChars(v)) return path || '(body)';
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (hasUnsafeChars(k)) return `${path ? `${path}.` : ''}{key}`;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

function refuse(where: string): never {
  throw new AppError('bad_request', `${where}: control characters (such as NUL, tab or line breaks) and unpaired surrogates are not accepted`);
}

function check(request: FastifyRequest): void {
  for (const [name, v] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string' && hasUnsafeChars(v)) throw new AppError('not_found', `no such ${name.replace(/_id$/, '')}`);
  }
  const query = unsafeTextPath(request.query);
  if (query) refuse(`query ${query}`);
  const body = unsafeTextPath(request.body);
  if (body) refuse(body);
  for (const h of KEPT_HEADERS) {
    const v = request.headers[h];
    if (typeof v === 'string' && hasUnsafeChars(v)) refuse(`header ${h}`);
  }
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => check(request));
}
