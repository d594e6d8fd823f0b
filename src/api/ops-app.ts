// The HTTP side of a worker process: liveness, readiness and metrics only, no API. Orchestrators
// probe it like an API process; Prometheus scrapes it for the worker's counters.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Role } from '../config.ts';
import { installHttpMetrics } from '../metrics/http.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { StatusService } from '../domain/status.ts';
import type { Store } from '../store/store.ts';
import { healthRoutes } from './health.ts';
import { installProblemHandlers } from './problem.ts';

export async function buildOpsApp(deps: { store: Store; status: StatusService; log: FastifyBaseLogger; role: Role; metrics?: Metrics }): Promise<FastifyInstance> {
  // probes arrive every few seconds: logging each would drown the worker's own lines
  const app = Fastify({ loggerInstance: deps.log, disableRequestLogging: true, return503OnClosing: true }).withTypeProvider<TypeBoxTypeProvider>();
  installProblemHandlers(app);
  if (deps.metrics) installHttpMetrics(app, deps.metrics);
  await app.register(healthRoutes(deps.store, deps.status, { role: deps.role }));
  return app;
}
