// Row → domain mapping shared by both stores. SQLite hands timestamps back as the ISO text we
// stored, PostgreSQL as Date objects; `iso` accepts both.
import type { PlanName } from '../domain/plans.ts';
import type { Account, ApiKeyRecord } from './store.ts';

export type Row = Record<string, unknown>;

export function iso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return v;
  throw new TypeError(`expected a timestamp, got ${typeof v}`);
}

const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));

export function toAccount(r: Row): Account {
  return {
    id: String(r.id),
    email: String(r.email),
    plan: String(r.plan) as PlanName,
    quotaLimit: r.quota_limit == null ? null : Number(r.quota_limit),
    createdAt: iso(r.created_at),
  };
}

/** Also reads the joined form of findByKeyHash, where key columns carry a key_ prefix. */
export function toKey(r: Row): ApiKeyRecord {
  return {
    id: String(r.key_id ?? r.id),
    accountId: String(r.account_id),
    prefix: String(r.prefix),
    createdAt: iso(r.key_created_at ?? r.created_at),
    lastUsedAt: isoOrNull(r.last_used_at),
    revokedAt: isoOrNull(r.revoked_at),
  };
}
