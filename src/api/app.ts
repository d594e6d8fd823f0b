// Assembles the HTTP application from its parts. Nothing here knows SQL or business rules.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { completeOpenApi } from './openapi-document.ts';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomBytes } from 'node:crypto';
import { Quota } from '../accounts/quota.ts';
import type { StatusService } from '../domain/status.ts';
import type { Store } from '../store/store.ts';
import type { AssessService } from '../verification/assess-service.ts';
import { VerifyService } from '../verification/verify-service.ts';
import { installApiKeyAuth } from './auth.ts';
import { healthRoutes } from './health.ts';
import { meRoutes } from './me.ts';
import { installProblemHandlers } from './problem.ts';
import { installInputGuard } from './input-guard.ts';
import { installSlowClientLimits } from './slow-clients.ts';
import type { SlowClientLimits } from '../config.ts';
import { DOCS_CONTENT_SECURITY_POLICY, pageSecurityHeaders } from '../http/security-headers.ts';
import type { RouteInventory } from '../http/route-inventory.ts';
import { verifyRoutes } from './verify.ts';
import { validateRoutes } from './validate.ts';
import { ValidateService } from '../verification/validate-service.ts';
import type { Validator } from '../domain/validation.ts';
import { batchRoutes } from './batch.ts';
import multipart from '@fastify/multipart';
import type { BatchService } from '../batch/batch-service.ts';
import type { WatchService } from '../watch/watch-service.ts';
import type { WebhookService } from '../webhooks/webhook-service.ts';
import { watchRoutes } from './watch.ts';
import { evidenceRoutes, signingKeyRoutes } from './evidence.ts';
import type { EvidenceService } from '../evidence/evidence-service.ts';
import { webhookRoutes } from './webhook.ts';
import { batchListRoutes } from './batch-list.ts';
import { installHttpMetrics } from '../metrics/http.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Role } from '../config.ts';

export interface AppDeps {
  store: Store;
  status: StatusService;
  /** 진위확인 (POST /validate) */
  validator: Validator;
  assess: AssessService;
  batch: BatchService;
  watch: WatchService;
  webhooks: WebhookService;
  /** kept NTS answers and their signed receipts */
  evidence: EvidenceService;
  maxFileBytes: number;
  bodyLimitBytes: number;
  /** how long clients may take to send (none: Node's defaults, for tests that build an app alone) */
  slowClients?: SlowClientLimits;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** X-Forwarded-* are believed (behind a reverse proxy) */
  trustProxy?: boolean;
  /** collects the authenticated routes as they are registered */
  routes?: RouteInventory;
  /** the web console, served under /console; left out when absent */
  console?: FastifyPluginAsync;
  /** request counts and the /metrics page; none = no metrics */
  metrics?: Metrics;
  /** reported by /readyz */
  role?: Role;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
// unique across processes by the random part, within one by the counter; no entropy per request
const ID_PREFIX = `req_${randomBytes(6).toString('base64url')}`;
let idCounter = 0;

/** One line per request, when it completes, instead of Fastify's two. */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      // the route pattern, not the URL: query strings may carry things that do not belong in logs
      route: request.routeOptions.url ?? 'unknown',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      account: request.auth?.account.id,
    };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else request.log.info(line, 'request');
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: deps.bodyLimitBytes,
    // a caller's X-Request-Id is kept when it is sane, so their logs and ours line up
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `${ID_PREFIX}${(idCounter++).toString(36)}`;
    },
    logController: new OneLineRequestLog(),
    return503OnClosing: true,
    trustProxy: deps.trustProxy ?? false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // TypeBox validates bodies as sent (no coercion: "b_no": 1248100998 is an error, not a guess)
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // a JSON route takes JSON: Fastify's built-in text/plain parser would hand it a string, a 400
  // about the schema instead of the 415 docs/api.md promises for any other content type
  app.removeContentTypeParser('text/plain');
  installProblemHandlers(app);
  installInputGuard(app);
  if (deps.slowClients) installSlowClientLimits(app, deps.slowClients);
  if (deps.metrics) installHttpMetrics(app, deps.metrics);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });


  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'bizcheck',
        version: '1',
        description: '국세청 사업자 상태 조회와 우편 반송 위험 평가. Every API route needs the X-API-Key header.',
      },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ apiKey: [] }],
    },
    transformObject: (document) => completeOpenApi(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Record<string, unknown>),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
  });
  // every response under /docs, its pages, scripts and redirects alike
  app.addHook('onSend', async (request, reply) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/')) pageSecurityHeaders(request, reply, DOCS_CONTENT_SECURITY_POLICY);
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const quota = new Quota(deps.store, deps.now);
  const verify = new VerifyService(deps.status, quota, deps.assess, deps.evidence, deps.now);
  await app.register(healthRoutes(deps.store, deps.status, { role: deps.role }));
  await app.register(signingKeyRoutes(deps.evidence));
  // the authenticated API: every route registered inside this scope needs a key and a plan with API access
  await app.register(async (api) => {
    installApiKeyAuth(api, deps.store);
    deps.routes?.watch(api, 'api-key');
    await api.register(verifyRoutes(verify));
    await api.register(validateRoutes(new ValidateService(deps.validator, quota, deps.evidence)));
    await api.register(meRoutes(quota));
    await api.register(multipart, { throwFileSizeLimit: false });
    for (const routes of accountDataRoutes(deps)) await api.register(routes);
  });
  if (deps.console) {
    await app.register(deps.console, { prefix: '/console' });
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/'));
  }
  return app;
}

/**
 * The routes of an account's own data (batch jobs and their list, the watch list, webhooks), for
 * the API under its key and for the console under its session: one set of plugins, so validation,
 * errors and quota are the same. The watch list and webhooks need a plan with them (403 below
 * business) wherever they are served.
 */
export function accountDataRoutes(deps: Pick<AppDeps, 'batch' | 'watch' | 'webhooks' | 'evidence' | 'maxFileBytes'>): FastifyPluginAsync[] {
  return [
    evidenceRoutes(deps.evidence),
    batchRoutes({ service: deps.batch, maxFileBytes: deps.maxFileBytes }),
    batchListRoutes(deps.batch),
    watchRoutes(deps.watch),
    webhookRoutes(deps.webhooks),
  ];
}
