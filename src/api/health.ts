// Liveness and readiness for orchestrators; no API key, no account data.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StatusService } from '../registry/types.ts';
import type { Store } from '../store/store.ts';
import { sendProblem } from './problem.ts';

export function healthRoutes(store: Store, status: StatusService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
      const upstream = status.health().upstream;
      try {
        await store.ping();
      } catch (err) {
        request.log.warn({ err }, 'readiness: database unreachable');
        return sendProblem(request, reply, 'not_ready', 'the database is unreachable', { extra: { database: 'down', upstream } });
      }
      // an open breaker is reported, not failed: cached answers still serve, and a restart cannot fix NTS
      return { status: 'ready', database: 'up', store: store.kind, upstream };
    });
  };
}
