// /console/api/signup, /console/api/session: create an account, sign in, who am I, sign out.
// Sign-up and sign-in need no session but do pass the Origin check; their JSON body cannot be
// sent by a cross-site form, so no token is needed before a session exists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ConsoleConfig } from '../config.ts';
import type { Account } from '../domain/account.ts';
import type { ConsoleAuth, SignedIn } from './console-auth.ts';
import { clearSessionCookie, readSessionId, sessionOf, setSessionCookie } from './guard.ts';
import { csrfToken } from './session-token.ts';
import { PASSWORD_MAX } from './password.ts';

const Credentials = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX * 4 }),
  },
  { additionalProperties: false },
);

const SignUpAccepted = Type.Object({ status: Type.Literal('accepted'), detail: Type.String() });

export const SessionBody = Type.Object({
  account: Type.Object({ id: Type.String(), email: Type.String(), plan: Type.String(), created_at: Type.String() }),
  csrf_token: Type.String({ description: 'send it in X-CSRF-Token with every state-changing console request' }),
  expires_at: Type.String(),
});

function sessionBody(account: Account, sessionId: string, expiresAt: string) {
  return {
    account: { id: account.id, email: account.email, plan: account.plan, created_at: account.createdAt },
    csrf_token: csrfToken(sessionId),
    expires_at: expiresAt,
  };
}

function signedIn(request: FastifyRequest, reply: FastifyReply, cfg: ConsoleConfig, s: SignedIn, status: 200 | 201) {
  setSessionCookie(request, reply, cfg, s.sessionId);
  return reply.code(status).send(sessionBody(s.account, s.sessionId, s.session.expiresAt));
}

/** Routes that need no session: sign-up and sign-in. */
export function publicSessionRoutes(auth: ConsoleAuth, cfg: ConsoleConfig): FastifyPluginAsyncTypebox {
  return async (app) => {
    // the same answer whether or not the email had an account: sign-up reveals nothing; the
    // console signs in with the password next, as a person would
    app.post('/signup', { schema: { body: Credentials, response: { 202: SignUpAccepted } } }, async (request, reply) => {
      await auth.signUp(request.body.email, request.body.password, request.ip, (accountId) =>
        request.log.info({ account: accountId ?? undefined }, 'console sign-up attempted with the email of an existing account; nothing was changed'),
      );
      return reply.code(202).send({ status: 'accepted', detail: 'if this email can be used, its account is ready: sign in with it and the password' });
    });
    app.post('/session', { schema: { body: Credentials, response: { 200: SessionBody } } }, async (request, reply) => {
      const s = await auth.signIn(request.body.email, request.body.password, request.ip, readSessionId(request, cfg));
      return signedIn(request, reply, cfg, s, 200);
    });
  };
}

/** Routes of a signed-in session. */
export function sessionRoutes(auth: ConsoleAuth, cfg: ConsoleConfig): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/session', { schema: { response: { 200: SessionBody } } }, async (request) => {
      const s = sessionOf(request);
      return sessionBody(s.account, s.id, s.expiresAt);
    });
    app.delete('/session', async (request, reply) => {
      await auth.signOut(sessionOf(request).id);
      clearSessionCookie(request, reply, cfg);
      return reply.code(204).send();
    });

    app.post(
      '/account/close',
      {
        schema: {
          summary: 'Close the signed-in account for good, after confirming its password: keys first, then everything held about it',
          body: Type.Object({ password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX * 4 }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ closed: Type.Literal(true) }) },
        },
      },
      async (request, reply) => {
        const { account } = sessionOf(request);
        await auth.closeAccount(account, request.body.password, request.ip);
        clearSessionCookie(request, reply, cfg);
        return { closed: true as const };
      },
    );
  };
}
