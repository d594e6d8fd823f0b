// The storage of the service, one small store per concern, each written once over the SQL layer
// (sql.ts) and so the same on both engines (sqlite.ts, postgres.ts open them). Every read or
// write of an account's data takes the account. The contract suites in test/ run on both.
import type { StatusCache } from '../domain/status.ts';
import { type AccountStore, SqlAccountStore } from './account-store.ts';
import { AddressStore } from './address-store.ts';
import { BatchStore } from './batches.ts';
import { ConsoleStore } from './console-store.ts';
import { type KeyStore, SqlKeyStore } from './key-store.ts';
import { LabelStore } from './label-store.ts';
import { LeaseStore } from './lease-store.ts';
import { ModelStore } from './model-store.ts';
import { type Dialect, OverSql } from './sql.ts';
import { StatusCacheStore } from './status-cache-store.ts';
import { UsageStore } from './usage-store.ts';
import { UpstreamDailyStore } from './upstream-daily-store.ts';
import { EvidenceStore } from './evidence-store.ts';
import { type AccountData, AccountDataStore } from './account-data-store.ts';
import { HousekeepingStore } from './housekeeping-store.ts';
import { WatchStore, WebhookStore } from './watches.ts';
import { toWorkQueue, type WorkQueue } from './work-queue.ts';

export { StoreConflict } from './account-store.ts';

export interface Store {
  readonly kind: Dialect;
  readonly accounts: AccountStore;
  /** API keys (as hashes) */
  readonly keys: KeyStore;
  /** monthly lookup counters */
  readonly usage: UsageStore;
  /** recorded mailing outcomes */
  readonly labels: LabelStore;
  /** fitted models and per-account offsets */
  readonly models: ModelStore;
  /** named leases for background jobs */
  readonly leases: LeaseStore;
  /** the last answer for each number */
  readonly statusCache: StatusCache;
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
  /** numbers asked of NTS per KST day, against the daily allowance */
  readonly upstreamDaily: UpstreamDailyStore;
  /** what NTS answered, as served to each account, and the keys receipts are signed with */
  readonly evidence: EvidenceStore;
  /** everything held about one account, for its export and its closure */
  readonly accountData: AccountData;
  /** what grows with traffic, swept by age */
  readonly housekeeping: HousekeepingStore;
  /** Applies pending numbered migrations; safe to run twice and from several processes at once. */
  migrate(): Promise<void>;
  /** The migrations applied, in order (for operators, and to check that running them again adds none). */
  migrationVersions(): Promise<string[]>;
  ping(): Promise<void>;
  /**
   * After customer data was deleted: leaves no copy of it where the engine would keep one. The
   * embedded store overwrites freed pages as it frees them (secure_delete) and here empties its
   * write-ahead log, which still holds the pages as they were written; PostgreSQL's dead rows
   * are for its vacuum.
   */
  scrub(): Promise<void>;
  close(): Promise<void>;
  /** Batch chunks waiting for a worker and held by one, across all jobs (for /metrics). */
  workQueue(): Promise<WorkQueue>;
}

/** Every concern's store over one SQL connection; the engine's class adds opening and migrating. */
export abstract class SqlStore extends OverSql implements Store {
  abstract readonly kind: Dialect;
  readonly accounts: AccountStore = new SqlAccountStore(this.sql);
  readonly keys: KeyStore = new SqlKeyStore(this.sql);
  readonly usage = new UsageStore(this.sql);
  readonly labels = new LabelStore(this.sql);
  readonly models = new ModelStore(this.sql);
  readonly leases = new LeaseStore(this.sql);
  readonly statusCache: StatusCache = new StatusCacheStore(this.sql);
  readonly addresses = new AddressStore(this.sql);
  readonly batches = new BatchStore(this.sql);
  readonly watches = new WatchStore(this.sql);
  readonly webhooks = new WebhookStore(this.sql);
  readonly console = new ConsoleStore(this.sql);
  readonly upstreamDaily = new UpstreamDailyStore(this.sql);
  readonly evidence = new EvidenceStore(this.sql);
  readonly accountData = new AccountDataStore(this.sql);
  readonly housekeeping = new HousekeepingStore(this.sql);

  abstract migrate(): Promise<void>;
  abstract close(): Promise<void>;

  async scrub(): Promise<void> {
    // the engine's own business (see Store.scrub)
  }

  async migrationVersions(): Promise<string[]> {
    return (await this.sql.all('SELECT version FROM schema_migrations ORDER BY version')).map((r) => String(r.version));
  }

  async ping(): Promise<void> {
    await this.sql.get('SELECT 1 AS x');
  }

  async workQueue(): Promise<WorkQueue> {
    return toWorkQueue(await this.sql.all("SELECT state, count(*) AS n FROM batch_chunks WHERE state IN ('pending', 'leased') GROUP BY state"));
  }
}

type Concerns = Omit<Store, 'kind' | 'migrate' | 'migrationVersions' | 'ping' | 'scrub' | 'close' | 'workQueue'>;

/** The store with some concerns' stores replaced by decorators of them (caching, metrics). */
export function withStores(store: Store, replace: Partial<Concerns>): Store {
  return {
    kind: store.kind,
    accounts: replace.accounts ?? store.accounts,
    keys: replace.keys ?? store.keys,
    usage: replace.usage ?? store.usage,
    labels: replace.labels ?? store.labels,
    models: replace.models ?? store.models,
    leases: replace.leases ?? store.leases,
    statusCache: replace.statusCache ?? store.statusCache,
    addresses: replace.addresses ?? store.addresses,
    batches: replace.batches ?? store.batches,
    watches: replace.watches ?? store.watches,
    webhooks: replace.webhooks ?? store.webhooks,
    console: replace.console ?? store.console,
    upstreamDaily: replace.upstreamDaily ?? store.upstreamDaily,
    evidence: replace.evidence ?? store.evidence,
    accountData: replace.accountData ?? store.accountData,
    housekeeping: replace.housekeeping ?? store.housekeeping,
    migrate: () => store.migrate(),
    migrationVersions: () => store.migrationVersions(),
    ping: () => store.ping(),
    scrub: () => store.scrub(),
    close: () => store.close(),
    workQueue: () => store.workQueue(),
  };
}
