// The one storage interface. Two implementations (sqlite.ts, postgres.ts) pass the same
// contract suite (test/store.contract.test.ts). All SQL lives below src/store/.
import type { PlanName } from '../domain/plans.ts';
import type { ModelParams } from '../domain/model/types.ts';
import type { StatusCache } from '../registry/types.ts';
import type { AddressStore } from './address-store.ts';
import type { BatchStore } from './batch-store.ts';
import type { WatchStore, WebhookStore } from './watch-store.ts';
import type { ConsoleStore } from './console-store.ts';
import type { WorkQueue } from './work-queue.ts';

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

/** A recorded mailing outcome for one row of a batch job, with what the row was scored on. */
export interface LabelRecord {
  accountId: string;
  jobId: string;
  rowId: number;
  bno: string;
  /** building id of the matched address, or the normalised input; null without an address */
  addressKey: string | null;
  bounced: boolean;
  reason: string | null;
  features: Record<string, number>;
  modelVersion: string | null;
  at: string;
}

export interface LabelCounts {
  bizBounced: number;
  bizDelivered: number;
  addressBounced: number;
  addressDelivered: number;
}

export interface AccountOffset {
  accountId: string;
  modelVersion: string;
  offset: number;
  trainedOn: number;
  createdAt: string;
}

export type Reservation = { granted: true; used: number } | { granted: false; used: number };

export interface Store extends StatusCache {
  readonly kind: 'sqlite' | 'postgres';
  /** the imported 도로명주소 directory (address_directory table) */
  readonly addresses: AddressStore;
  /** batch jobs, their rows, chunks and numbers */
  readonly batches: BatchStore;
  /** watched businesses, their checks and history */
  readonly watches: WatchStore;
  /** webhook endpoints, queued deliveries and their attempts */
  readonly webhooks: WebhookStore;
  /** the web console's passwords, sessions and sign-in attempts */
  readonly console: ConsoleStore;
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

  /** Records an outcome; labelling the same row again replaces it. */
  putLabel(label: LabelRecord): Promise<{ replaced: boolean }>;
  /** The account's recorded outcomes for a business number and for an address. */
  labelCounts(accountId: string, bno: string, addressKey: string | null): Promise<LabelCounts>;
  /** Labels recorded or changed after `since` (ISO), or all of them. */
  countLabels(since?: string): Promise<number>;
  /**
   * The most recently recorded labels, at most `limit`, for refitting. Labels of rows that were
   * never scored (no name, so no features) say nothing about the model and are left out.
   */
  labelsForFit(limit: number): Promise<{ accountId: string; features: Record<string, number>; bounced: boolean }[]>;
  saveModel(params: ModelParams): Promise<void>;
  /** The newest fitted global model, or null when none was fitted yet. */
  latestModel(): Promise<ModelParams | null>;
  saveAccountOffsets(offsets: readonly AccountOffset[]): Promise<void>;
  getAccountOffset(accountId: string): Promise<AccountOffset | null>;

  /** Takes or renews the named lease for `holder` if it is free or expired; true when held. */
  tryLease(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;

  /** Batch chunks waiting for a worker and held by one, across all jobs (for /metrics). */
  workQueue(): Promise<WorkQueue>;
}

export class StoreConflict extends Error {
  override name = 'StoreConflict';
}
