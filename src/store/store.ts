// The one storage interface. Two implementations (sqlite.ts, postgres.ts) pass the same
// contract suite (test/store.contract.test.ts). All SQL lives below src/store/.
import type { PlanName } from '../domain/plans.ts';
import type { StatusCache } from '../registry/types.ts';

export interface Account {
  id: string;
  email: string;
  plan: PlanName;
  /** custom monthly limit (enterprise contracts); null = the plan's */
  quotaLimit: number | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** the visible part, e.g. bzk_Ab3dE9xQ: enough to recognise a key, useless to use it */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Usage {
  used: number;
  overage: number;
}

export type Reservation = { granted: true; used: number } | { granted: false; used: number };

export interface Store extends StatusCache {
  readonly kind: 'sqlite' | 'postgres';
  /** Applies pending numbered migrations; safe to run twice and from several processes at once. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;

  /** Throws StoreConflict when the email is taken. */
  createAccount(account: Account): Promise<void>;
  getAccount(id: string): Promise<Account | null>;
  countAccounts(): Promise<number>;
  setPlan(accountId: string, plan: PlanName): Promise<Account | null>;
  setQuotaLimit(accountId: string, limit: number | null): Promise<Account | null>;

  insertApiKey(key: ApiKeyRecord & { hash: string }): Promise<void>;
  /** The account and key for an unrevoked key hash, or null. */
  findByKeyHash(hash: string): Promise<{ account: Account; key: ApiKeyRecord } | null>;
  /** Records use at most once per `minIntervalMs`, so authentication stays a read on the hot path. */
  touchApiKey(keyId: string, at: string, minIntervalMs: number): Promise<void>;
  listApiKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Returns the revoked key, or null when no unrevoked key has that prefix. */
  revokeApiKey(prefix: string, at: string): Promise<ApiKeyRecord | null>;

  /**
   * Atomically adds `n` lookups to the month's counter if that keeps it within `limit`.
   * Exact under concurrency from any number of processes: either all `n` are granted or none.
   */
  reserveLookups(accountId: string, month: string, n: number, limit: number): Promise<Reservation>;
  /**
   * Atomically adds as many of `n` lookups as fit within `limit` (possibly none) and says how
   * many that was. Lets many concurrent single lookups share one write (see Quota).
   */
  reserveUpTo(accountId: string, month: string, n: number, limit: number): Promise<{ granted: number; used: number }>;
  /** Gives back lookups that were reserved but not answered. */
  refundLookups(accountId: string, month: string, n: number): Promise<void>;
  getUsage(accountId: string, month: string): Promise<Usage>;
}

export class StoreConflict extends Error {
  override name = 'StoreConflict';
}
