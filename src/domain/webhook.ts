// Webhook rules, pure: Standard Webhooks signatures (https://www.standardwebhooks.com) and the
// retry schedule. Signing uses node:crypto's HMAC but no I/O.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WATCH_EVENT_TYPES } from './watch.ts';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret, `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
/** Every event type an endpoint can receive; `webhook.test` is always sent when asked for. */
export const WEBHOOK_EVENT_TYPES = [...WATCH_EVENT_TYPES, 'batch.done', 'webhook.test'] as const;

/** The types an endpoint asked for, deduplicated in the canonical order; null (all) when none were named. */
export function enabledEventsOf(requested: readonly string[] | undefined): string[] | null {
  if (requested === undefined) return null;
  const wanted = new Set(requested);
  return WEBHOOK_EVENT_TYPES.filter((t) => wanted.has(t));
}

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** What a receiver does; kept here so tests and the documented example agree with the sender. */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  opts: { now?: Date; toleranceSeconds?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts)) return false;
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, ts, body).slice(3), 'base64');
  // the header may carry several space-separated signatures (secret rotation)
  return headers.signature.split(' ').some((part) => {
    const [version, mac] = part.split(',', 2);
    if (version !== 'v1' || !mac) return false;
    const given = Buffer.from(mac, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Delay before each attempt: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/**
 * When to make attempt number `attempt + 1` after attempt `attempt` (1-based) failed, or null
 * when that was the last. ±10 % jitter spreads retries of many deliveries; a receiver's
 * Retry-After is honoured when it asks for longer, up to a day.
 */
export function nextAttemptAt(now: Date, attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  const scheduled = RETRY_SCHEDULE_MS[attempt] ?? 86_400_000;
  const jittered = scheduled * (0.9 + 0.2 * random());
  const asked = Math.min(86_400_000, Math.max(0, retryAfterMs ?? 0));
  return new Date(now.getTime() + Math.max(jittered, asked));
}
