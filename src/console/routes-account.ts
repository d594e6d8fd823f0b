// /console/api/account: plan, what it allows, and the month's quota — GET /me for a person,
// without the API key GET /me describes (a session has none).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Quota } from '../accounts/quota.ts';
import { PLANS } from '../domain/plans.ts';
import { toSeoulIso } from '../domain/quota-period.ts';
import { sessionOf } from './guard.ts';

const AccountBody = Type.Object({
  account_id: Type.String(),
  email: Type.String(),
  plan: Type.String(),
  features: Type.Object({
    api: Type.Boolean({ description: 'X-API-Key access: business and enterprise' }),
    console_batch: Type.Boolean({ description: 'bulk verification in the console: every plan' }),
    watch: Type.Boolean(),
    history: Type.Boolean(),
    watch_interval_hours: Type.Union([Type.Integer(), Type.Null()]),
    watch_limit: Type.Integer({ description: 'most businesses watched at once (0: no watch list)' }),
  }),
  quota: Type.Object({
    limit: Type.Integer(),
    used: Type.Integer(),
    remaining: Type.Integer(),
    overage: Type.Integer(),
    custom_limit: Type.Boolean(),
    resets_at: Type.String(),
  }),
  created_at: Type.String(),
});

export function accountRoutes(quota: Quota): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/account/usage',
      {
        schema: {
          querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 30 })) }, { additionalProperties: false }),
          response: { 200: Type.Object({ days: Type.Array(Type.Object({ day: Type.String({ description: 'Seoul date YYYY-MM-DD' }), lookups: Type.Integer() })) }) },
        },
      },
      async (request) => ({ days: await quota.daily(sessionOf(request).account, request.query.days ?? 30) }),
    );

    app.get('/account', { schema: { response: { 200: AccountBody } } }, async (request) => {
      const { account } = sessionOf(request);
      const q = await quota.current(account);
      const plan = PLANS[account.plan];
      return {
        account_id: account.id,
        email: account.email,
        plan: plan.name,
        features: { api: plan.api, console_batch: true, watch: plan.watchIntervalHours !== null, history: plan.history, watch_interval_hours: plan.watchIntervalHours, watch_limit: plan.watchLimit },
        quota: { limit: q.limit, used: q.used, remaining: q.remaining, overage: q.overage, custom_limit: account.quotaLimit !== null, resets_at: toSeoulIso(q.resetsAt) },
        created_at: account.createdAt,
      };
    });
  };
}
