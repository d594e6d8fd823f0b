// Customers' lists are not kept forever: a finished job's uploaded rows and results expire after
// its account's retention (BATCH_RETENTION_DAYS, or the operator's per-account override), and
// the evidence of NTS answers after EVIDENCE_RETENTION_DAYS. One
// process at a time sweeps (a lease); each job is marked expired in one short transaction, and
// its rows then go a few chunks per transaction, so a million-row job never holds the database
// for long. The job stays, with its counts and when it expired. The clock is injectable.
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.ts';
import { PollingLoop } from './polling-loop.ts';
import { retentionCutoff } from '../domain/batch.ts';
import { seoulDay } from '../domain/quota-period.ts';

const LEASE = 'batch-retention';
/** jobs marked per round, chunks deleted per transaction */
const JOBS_PER_ROUND = 50;
const CHUNKS_PER_TX = 20;
const EVIDENCE_PER_TX = 1000;
const HOUSEKEEPING_PER_TX = 1000;

export interface RetentionOptions {
  store: Store;
  now: () => Date;
  defaultDays: number;
  /** days evidence records are kept */
  evidenceDays: number;
  /** days status-cache entries and finished webhook deliveries are kept */
  statusCacheDays: number;
  webhookLogDays: number;
  pollMs: number;
  /** a round stops deleting after this long and goes on next round (keeps one round short) */
  roundMs?: number;
  log?: { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void };
}

export interface RetentionRound {
  expired: number;
  chunksDeleted: number;
  /** evidence records past EVIDENCE_RETENTION_DAYS deleted */
  evidenceDeleted: number;
  /** rows of the tables that grow with traffic deleted (status cache, delivery log, sign-in attempts, sessions, leases, daily counters) */
  housekeeping: number;
  /** false when another process holds the sweep */
  swept: boolean;
}

export class RetentionSweeper {
  readonly #o: RetentionOptions;
  readonly #holder = `retention_${randomBytes(6).toString('hex')}`;
  readonly #loop: PollingLoop;

  constructor(opts: RetentionOptions) {
    this.#o = opts;
    // another round at once while work is left
    this.#loop = new PollingLoop('retention sweep', async () => {
      const r = await this.runOnce();
      return r.swept && (r.expired === JOBS_PER_ROUND || r.chunksDeleted > 0 || r.evidenceDeleted >= EVIDENCE_PER_TX || r.housekeeping >= HOUSEKEEPING_PER_TX);
    }, { pollMs: opts.pollMs, ...(opts.log ? { log: opts.log } : {}) });
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One round: mark what is past retention now, then delete expired rows for up to roundMs. */
  async runOnce(): Promise<RetentionRound> {
    const { store } = this.#o;
    const now = this.#o.now();
    const roundMs = this.#o.roundMs ?? 10_000;
    if (!(await store.leases.take(LEASE, this.#holder, roundMs * 3, now))) return { expired: 0, chunksDeleted: 0, evidenceDeleted: 0, housekeeping: 0, swept: false };
    let expired = 0;
    let chunksDeleted = 0;
    let evidenceDeleted = 0;
    let housekeeping = 0;
    try {
      for (const job of await store.batches.expiring(now, this.#o.defaultDays, JOBS_PER_ROUND)) {
        if (await store.batches.expireJob(job.id, job.accountId, now)) expired++;
      }
      const started = Date.now();
      for (;;) {
        const n = await store.batches.purgeExpired(CHUNKS_PER_TX);
        chunksDeleted += n;
        if (n === 0 || Date.now() - started > roundMs) break;
        // other requests between transactions (the embedded store's are synchronous)
        await new Promise((r) => setImmediate(r));
      }
      const evidenceCutoff = retentionCutoff(now, this.#o.evidenceDays);
      for (;;) {
        const n = await store.evidence.forgetBefore(evidenceCutoff, EVIDENCE_PER_TX);
        evidenceDeleted += n;
        if (n < EVIDENCE_PER_TX || Date.now() - started > roundMs) break;
        await new Promise((r) => setImmediate(r));
      }
      const cutoffs = {
        statusCacheBefore: retentionCutoff(now, this.#o.statusCacheDays),
        deliveriesBefore: retentionCutoff(now, this.#o.webhookLogDays),
        attemptsBefore: retentionCutoff(now, 1),
        endedBefore: retentionCutoff(now, 1),
        dailyBefore: seoulDay(retentionCutoff(now, 7)),
      };
      for (;;) {
        const swept = await store.housekeeping.sweep(cutoffs, HOUSEKEEPING_PER_TX);
        const n = Object.values(swept).reduce((a, b) => a + b, 0);
        housekeeping += n;
        if (Object.values(swept).every((v) => v < HOUSEKEEPING_PER_TX) || Date.now() - started > roundMs) break;
        await new Promise((r) => setImmediate(r));
      }
      if (expired > 0 || chunksDeleted > 0 || evidenceDeleted > 0 || housekeeping > 0) {
        await store.scrub();
        this.#o.log?.info({ expired, chunksDeleted, evidenceDeleted, housekeeping }, 'data past retention deleted');
      }
    } finally {
      await store.leases.release(LEASE, this.#holder);
    }
    return { expired, chunksDeleted, evidenceDeleted, housekeeping, swept: true };
  }
}
