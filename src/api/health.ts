// Liveness and readiness for orchestrators; no API key, no account data.
//
// Readiness answers "should this process get traffic": 503 when its database is unreachable
// (it can answer nothing but errors). An open NTS breaker is reported (`upstream: "open"`,
// `status: "degraded"`, and the breaker gauge in /metrics) but stays 200: cached answers, /me and
// batch results still serve, every process shares the same NTS, so taking them all out of the
// load balancer would turn a partial outage into a full one, and a restart cannot fix NTS.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Role } from '../config.ts';
import type { StatusService } from '../domain/status.ts';
import type { Store } from '../store/store.ts';
import { sendProblem } from './problem.ts';

export function healthRoutes(store: Store, status: StatusService, opts: { role?: Role } = {}): FastifyPluginAsyncTypebox {
  const role = opts.role ?? 'all';
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
      const upstream = status.health().upstream;
      try {
        await store.ping();
      } catch (err) {
        request.log.warn({ err }, 'readiness: database unreachable');
        return sendProblem(request, reply, 'not_ready', 'the database is unreachable', { extra: { database: 'down', upstream, role } });
      }
      return { status: upstream === 'open' ? 'degraded' : 'ready', database: 'up', store: store.kind, upstream, role };
    });
  };
}
