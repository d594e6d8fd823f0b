// Row → domain mapping shared by both engines. SQLite hands back JSON as TEXT, booleans as 0/1
// and timestamps as the ISO text we stored; PostgreSQL hands back parsed JSON, booleans and
// Dates. The helpers accept either, so one mapping serves both.
import type { PlanName } from '../domain/plans.ts';
import type { Account, ApiKeyRecord } from '../domain/account.ts';

export type Row = Record<string, unknown>;

export function iso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return v;
  throw new TypeError(`expected a timestamp, got ${typeof v}`);
}

export const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));
// oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- the caller names the shape it stored
export const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
export const bool = (v: unknown): boolean => v === true || v === 1 || v === 1n;
export const str = (v: unknown): string | null => (v == null ? null : `${v as string | number}`);
/** count(*) and friends: a bigint on PostgreSQL (parsed as a number), an integer on SQLite */
export const num = (r: Row | undefined, column = 'n'): number => Number(r?.[column] ?? 0);

export function toAccount(r: Row): Account {
  return {
    id: String(r.id),
    email: String(r.email),
    plan: String(r.plan) as PlanName,
    quotaLimit: r.quota_limit == null ? null : Number(r.quota_limit),
    batchRetentionDays: r.batch_retention_days == null ? null : Number(r.batch_retention_days),
    createdAt: iso(r.created_at),
  };
}

/** Also reads the joined form of findByHash, where key columns carry a key_ prefix. */
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
