// Row mapping and window arithmetic shared by both console stores.
import { iso, type Row } from './rows.ts';
import type { ConsoleSession } from './console-store.ts';

/** Reads the joined form of findSession, where the session's created_at is session_created_at. */
export function toSession(r: Row): ConsoleSession {
  return { idHash: String(r.id_hash), accountId: String(r.account_id), createdAt: iso(r.session_created_at ?? r.created_at), expiresAt: iso(r.expires_at) };
}

const DAY_MS = 86_400_000;

export function attemptWindow(now: Date, windowMs: number): { now: string; since: string; pruneBefore: string; retryAt(at: unknown): string } {
  return {
    now: now.toISOString(),
    since: new Date(now.getTime() - windowMs).toISOString(),
    pruneBefore: new Date(now.getTime() - Math.max(DAY_MS, windowMs)).toISOString(),
    retryAt: (at) => new Date(Date.parse(iso(at)) + windowMs).toISOString(),
  };
}
