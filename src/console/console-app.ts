// The web console, served by the service itself under /console: its pages, and under
// /console/api the endpoints they call, authenticated by the session cookie instead of X-API-Key.
// The batch, watch, webhook and 진위확인 routes are the API's own plugins registered a second time (start/
// hands them over), so validation, errors and quota are the same; the API's business-plan gate does not apply here (the console is for every
// plan, pro is "web console only"); feature gates inside the routes still do.
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Quota } from '../accounts/quota.ts';
import type { ConsoleConfig } from '../config.ts';
import { PLANS } from '../domain/plans.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { RouteInventory } from '../http/route-inventory.ts';
import { ConsoleAuth } from './console-auth.ts';
import { checkCsrf, checkOrigin, requireSession } from './guard.ts';
import { accountRoutes } from './routes-account.ts';
import { keyRoutes } from './routes-keys.ts';
import { publicSessionRoutes, sessionRoutes } from './routes-session.ts';
import { consoleStatic, DEFAULT_WEB_DIR } from './static.ts';
import { pageSecurityHeaders } from '../http/security-headers.ts';

export interface ConsoleDeps {
  store: Store;
  quota: Quota;
  /** the API's batch, job list, watch, webhook and validate routes, served here under the session instead of a key */
  apiRoutes: readonly FastifyPluginAsync[];
  /** collects the routes that need a session as they are registered */
  routes?: RouteInventory;
  config: ConsoleConfig;
  now?: () => Date;
  /** the built front end (index.html, assets/); default web/dist */
  webDir?: string;
}

/**
 * Scripts, styles and connections from this origin only; no inline code, no framing, no plugins.
 * Trusted Types: the page never writes HTML from strings, and this makes sure nothing can.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
].join('; ');

async function securityHeaders(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  pageSecurityHeaders(request, reply, CONTENT_SECURITY_POLICY);
}

/** Overage is billed on contracts; free and pro accounts stay within their quota. */
async function noOverageWithoutContract(request: FastifyRequest): Promise<void> {
  if (request.method !== 'POST' || request.routeOptions.url !== '/console/api/batch') return;
  const paid = (request.query as { paid?: string }).paid === 'true';
  const account = request.auth?.account;
  if (paid && account && !PLANS[account.plan].api) {
    throw new AppError('plan_forbidden', `paid overage is available on the business and enterprise plans; this account is on ${account.plan}`, {
      extra: { plan: account.plan, required_plan: 'business' },
    });
  }
}

export function consolePlugin(deps: ConsoleDeps): FastifyPluginAsync {
  const now = deps.now ?? (() => new Date());
  const auth = new ConsoleAuth(deps.store, deps.config, now);
  return async (app) => {
    // the console's endpoints are its own business: they stay out of the public API document
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(cookie);
    app.decorateRequest('consoleSession', null);
    app.addHook('onSend', securityHeaders);

    await app.register(
      async (api) => {
        api.addHook('onRequest', async (request) => checkOrigin(request));
        api.addHook('onSend', async (_request, reply) => {
          reply.header('cache-control', 'no-store');
        });
        await api.register(publicSessionRoutes(auth, deps.config));
        await api.register(async (signed) => {
          signed.decorateRequest('auth', null);
          signed.addHook('onRequest', async (request) => {
            await requireSession(request, auth, deps.config);
            checkCsrf(request);
          });
          signed.addHook('preHandler', noOverageWithoutContract);
          deps.routes?.watch(signed, 'session');
          await signed.register(sessionRoutes(auth, deps.config));
          await signed.register(accountRoutes(deps.quota));
          await signed.register(keyRoutes(deps.store, now));
          await signed.register(multipart, { throwFileSizeLimit: false });
          for (const routes of deps.apiRoutes) await signed.register(routes);
        });
      },
      { prefix: '/api' },
    );
    await app.register(consoleStatic(deps.webDir ?? DEFAULT_WEB_DIR));
  };
}
