// The console's request checks: who is signed in (the session cookie), and whether a
// state-changing request really comes from the console's own pages (Origin and the CSRF token).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import type { Account } from '../domain/account.ts';
import type { ConsoleAuth } from './console-auth.ts';
import { csrfTokenMatches } from './session-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the console session behind this request: its id (from the cookie) and expiry */
    consoleSession: { id: string; expiresAt: string } | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The cookie is Secure when served over https (or always, or never, by CONSOLE_COOKIE_SECURE).
 * A Secure cookie carries the __Host- prefix, so browsers refuse it from http or with a Domain.
 * Plain http is meant for http://127.0.0.1 during development, where Secure cookies cannot be set.
 */
export function sessionCookie(request: FastifyRequest, cfg: ConsoleConfig): { name: string; secure: boolean } {
  const secure = cfg.cookieSecure === 'true' || (cfg.cookieSecure === 'auto' && request.protocol === 'https');
  return { name: secure ? '__Host-bizcheck_session' : 'bizcheck_session', secure };
}

export function readSessionId(request: FastifyRequest, cfg: ConsoleConfig): string | undefined {
  return request.cookies[sessionCookie(request, cfg).name];
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, cfg: ConsoleConfig, id: string): void {
  const { name, secure } = sessionCookie(request, cfg);
  // SameSite=Strict: the console is a single page that calls its own origin, so the cookie is
  // never needed on a request that another site starts, not even a top-level link
  reply.setCookie(name, id, { path: '/', httpOnly: true, secure, sameSite: 'strict', maxAge: Math.floor(cfg.sessionMs / 1000) });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, cfg: ConsoleConfig): void {
  const { name, secure } = sessionCookie(request, cfg);
  reply.clearCookie(name, { path: '/', httpOnly: true, secure, sameSite: 'strict' });
}

/**
 * Browsers send Origin with every POST, PUT, PATCH and DELETE: one naming another site (or
 * "null") is refused. Without Origin, Sec-Fetch-Site must not say cross-site either. A client
 * that sends neither is not a browser, and so is no vehicle for cross-site request forgery.
 */
export function checkOrigin(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin !== `${request.protocol}://${request.host}`) throw new AppError('csrf_rejected', `requests from ${origin} are not accepted here`);
    return;
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new AppError('csrf_rejected', 'cross-site requests are not accepted here');
}

/** Sets request.auth from the session cookie; 401 without a live session. */
export async function requireSession(request: FastifyRequest, auth: ConsoleAuth, cfg: ConsoleConfig): Promise<void> {
  const id = readSessionId(request, cfg);
  const found = await auth.resolve(id);
  if (!found || !id) throw new AppError('not_signed_in', 'sign in to the console first (the session is missing or has ended)');
  request.auth = { account: found.account, key: null };
  request.consoleSession = { id, expiresAt: found.session.expiresAt };
}

/** The session requireSession found, with its account. */
export function sessionOf(request: FastifyRequest): { id: string; expiresAt: string; account: Account } {
  if (!request.consoleSession || !request.auth) throw new AppError('not_signed_in', 'sign in to the console first');
  return { ...request.consoleSession, account: request.auth.account };
}

/** State-changing requests carry the session's CSRF token in the X-CSRF-Token header. */
export function checkCsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const session = request.consoleSession;
  const given = request.headers[CSRF_HEADER];
  if (!session || typeof given !== 'string' || !csrfTokenMatches(session.id, given)) {
    throw new AppError('csrf_rejected', `send the session's CSRF token in the ${CSRF_HEADER} header (GET /console/api/session gives it)`);
  }
}
