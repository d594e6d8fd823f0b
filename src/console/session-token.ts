// Session ids and the CSRF token bound to them. The id (256 random bits) lives only in the
// browser's httpOnly cookie and the database keeps its SHA-256; the CSRF token is an HMAC of the
// id, so the server recomputes it from the cookie and no second secret is stored anywhere.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function looksLikeSessionId(value: string): boolean {
  return ID_PATTERN.test(value);
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export function csrfToken(sessionId: string): string {
  return createHmac('sha256', sessionId).update('bizcheck console csrf v1').digest('base64url');
}

export function csrfTokenMatches(sessionId: string, given: string): boolean {
  const want = Buffer.from(csrfToken(sessionId));
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}
