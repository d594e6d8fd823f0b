// Response headers every page we serve to a browser carries (the console and the API docs): no
// sniffing, no framing, no referrer beyond our origin, no powerful features, and HTTPS pinned when
// served over it. Each page adds its own Content-Security-Policy.
import type { FastifyReply, FastifyRequest } from 'fastify';

export function pageSecurityHeaders(request: FastifyRequest, reply: FastifyReply, csp: string): void {
  reply.header('content-security-policy', csp);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'same-origin');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
}

/**
 * Swagger UI at /docs: its scripts and styles from this origin (its React sets style attributes,
 * hence 'unsafe-inline' for styles only), the document fetched from this origin, never framed.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');
