// X-API-Key authentication and plan gating for every API route: 401 before anything else is
// looked at (body included), then 403 for plans without API access.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashApiKey, looksLikeApiKey } from '../accounts/api-key.ts';
import { PLANS } from '../domain/plans.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Account, ApiKeyRecord } from '../domain/account.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** key is null when the console session (src/console/) authenticated the request */
    auth: { account: Account; key: ApiKeyRecord | null } | null;
  }
}

/** last_used_at is informative; a minute's resolution keeps authentication free of writes */
const TOUCH_INTERVAL_MS = 60_000;

export function requireAccount(request: FastifyRequest): Account {
  if (!request.auth) throw new AppError('unauthorized', 'no API key was checked for this route');
  return request.auth.account;
}

export function installApiKeyAuth(app: FastifyInstance, store: Store): void {
  const lastTouched = new Map<string, number>();
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-api-key'];
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) throw new AppError('unauthorized', 'send your API key in the X-API-Key header');
    const found = looksLikeApiKey(value.trim()) ? await store.keys.findByHash(hashApiKey(value.trim())) : null;
    if (!found) throw new AppError('unauthorized', 'the API key is not valid (unknown or revoked)');
    const plan = PLANS[found.account.plan];
    if (!plan.api) {
      throw new AppError('plan_forbidden', `the API is available from the business plan upward; this account is on ${plan.name}`, {
        extra: { plan: plan.name, required_plan: 'business' },
      });
    }
    request.auth = found;
    const now = Date.now();
    if ((lastTouched.get(found.key.id) ?? 0) < now - TOUCH_INTERVAL_MS) {
      lastTouched.set(found.key.id, now);
      if (lastTouched.size > 10_000) lastTouched.clear();
      await store.keys.touch(found.key.id, new Date(now).toISOString(), TOUCH_INTERVAL_MS);
    }
  });
}
