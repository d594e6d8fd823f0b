// /console/api/keys: the API keys screen. The full key leaves the server once, in the answer to
// POST (never cached, never logged); afterwards only its prefix is ever shown.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { issueKey } from '../accounts/accounts.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { ApiKeyRecord } from '../domain/account.ts';
import { sessionOf } from './guard.ts';

/** Active keys an account may hold: enough to rotate every environment, few enough to review. */
export const MAX_ACTIVE_KEYS = 20;

const KeyView = Type.Object({
  prefix: Type.String(),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});

const view = (k: ApiKeyRecord) => ({ prefix: k.prefix, created_at: k.createdAt, last_used_at: k.lastUsedAt, revoked_at: k.revokedAt });

export function keyRoutes(store: Store, now: () => Date): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/keys', { schema: { response: { 200: Type.Object({ keys: Type.Array(KeyView) }) } } }, async (request) => {
      const keys = await store.keys.list(sessionOf(request).account.id);
      // newest first; revoked keys stay listed (greyed) so a revocation can be checked later
      return { keys: keys.toSorted((a, b) => b.createdAt.localeCompare(a.createdAt)).map(view) };
    });

    app.post('/keys', { schema: { response: { 201: Type.Object({ key: Type.String(), ...KeyView.properties }) } } }, async (request, reply) => {
      const { account } = sessionOf(request);
      const { key, record } = await issueKey(store, account.id, now(), MAX_ACTIVE_KEYS);
      return reply.code(201).send({ key, ...view(record) });
    });

    app.delete(
      '/keys/:prefix',
      { schema: { params: Type.Object({ prefix: Type.String({ pattern: '^bzk_[0-9A-Za-z]{8}$' }) }), response: { 200: KeyView } } },
      async (request) => {
        const { account } = sessionOf(request);
        // another account's key is as unknown as a key that never existed
        const revoked = await store.keys.revoke(account.id, request.params.prefix, now().toISOString());
        if (!revoked) throw new AppError('not_found', `no active key ${request.params.prefix} on this account`);
        return view(revoked);
      },
    );
  };
}
