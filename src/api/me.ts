// GET /me: who the key belongs to, what the plan allows, and how much of the month is left.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { rateLimitHeaders, type Quota } from '../accounts/quota.ts';
import { PLANS } from '../domain/plans.ts';
import { toSeoulIso } from '../domain/quota-period.ts';
import { requireAccount } from './auth.ts';
import { problemResponses } from './schemas.ts';
import { AppError } from '../errors.ts';

const MeResponse = Type.Object({
  account_id: Type.String(),
  email: Type.String(),
  plan: Type.String({ description: 'free | pro | business | enterprise' }),
  features: Type.Object({
    api: Type.Boolean(),
    batch: Type.Boolean(),
    watch: Type.Boolean(),
    history: Type.Boolean(),
    watch_interval_hours: Type.Union([Type.Integer(), Type.Null()]),
    watch_limit: Type.Integer({ description: 'most businesses watched at once (0: no watch list)' }),
  }),
  quota: Type.Object({
    limit: Type.Integer({ description: 'lookups per Seoul calendar month' }),
    used: Type.Integer(),
    remaining: Type.Integer(),
    overage: Type.Integer({ description: 'lookups run beyond the limit by paid batch jobs this month' }),
    custom_limit: Type.Boolean({ description: 'true when a contract sets the limit instead of the plan' }),
    resets_at: Type.String({ description: 'start of the next month, Asia/Seoul' }),
  }),
  api_key: Type.Object({ prefix: Type.String(), created_at: Type.String() }),
  created_at: Type.String(),
});

export function meRoutes(quota: Quota): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/me', { schema: { summary: 'Account, plan and monthly quota', response: { 200: MeResponse, ...problemResponses } } }, async (request, reply) => {
      const account = requireAccount(request);
      const key = request.auth?.key;
      if (!key) throw new AppError('unauthorized', 'GET /me describes the API key it is called with');
      const q = await quota.current(account);
      const plan = PLANS[account.plan];
      reply.headers(rateLimitHeaders(q, new Date()));
      return {
        account_id: account.id,
        email: account.email,
        plan: plan.name,
        features: {
          api: plan.api,
          batch: plan.api,
          watch: plan.watchLimit > 0,
          history: plan.history,
          watch_interval_hours: plan.watchIntervalHours,
          watch_limit: plan.watchLimit,
        },
        quota: {
          limit: q.limit,
          used: q.used,
          remaining: q.remaining,
          overage: q.overage,
          custom_limit: account.quotaLimit !== null,
          resets_at: toSeoulIso(q.resetsAt),
        },
        api_key: { prefix: key.prefix, created_at: key.createdAt },
        created_at: account.createdAt,
      };
    });
  };
}
