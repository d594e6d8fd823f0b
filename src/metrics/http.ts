// Request metrics for a Fastify app, and the /metrics page. No API key: the page holds counts by
// route pattern, status and fault kind, never ids, keys or business numbers. Where even that
// should stay private, set METRICS_ENABLED=false or keep /metrics from the public proxy.
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // the pattern, not the URL: /batch/{job_id} is one series however many jobs there are
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const text = await metrics.text();
    return reply.type(metrics.contentType).send(text);
  });
}
