// Works through queued batch chunks: claims one by lease, processes it, commits it. Several
// chunks run at once so upstream waits overlap; several processes may run workers on one
// database. A crash loses only uncommitted chunks, which another claim picks up when the lease
// expires.
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { StatusAnswer, StatusService } from '../domain/status.ts';
import type { AssessService } from '../verification/assess-service.ts';
import type { Validator } from '../domain/validation.ts';
import { chunkNumbers, processChunk, unansweredChunk } from '../batch/process-chunk.ts';
import { cacheAnswersOf, completionFromCache, groupEvidence, readAsPinned } from '../batch/cached-chunk.ts';
import type { EvidenceService } from '../evidence/evidence-service.ts';
import { cachedGroups, chunkRows, completeChunk } from '../batch/chunks.ts';
import type { CompleteOutcome } from '../store/batch-store.ts';
import type { BatchJob, ChunkCompletion, ChunkLease, SharedNumber } from '../domain/batch.ts';
import { PollingLoop } from './polling-loop.ts';

/** rounds of one chunk against shared numbers recorded meanwhile (each round settles some for good) */
const MAX_ROUNDS = 5;

export interface BatchWorkerOptions {
  store: Store;
  /** told of every chunk completion tried, with what the store answered (metrics) */
  onCommit?: (outcome: CompleteOutcome, done: ChunkCompletion) => void;
  status: StatusService;
  assess: AssessService;
  /** 진위확인 for rows with a representative and an opening date (without: they say it was not asked) */
  validator?: Validator;
  /** keeps the evidence of the answers jobs' rows rest on (without: not kept) */
  evidence?: EvidenceService;
  now?: () => Date;
  /** chunks processed at once by this process: enough to keep NTS calls in flight while rows are assessed */
  concurrency?: number;
  /** a chunk of 1,000 rows normally takes well under a second; a minute covers retries and slow upstreams */
  leaseMs?: number;
  /** how often an idle worker looks for work (a job queued in this process wakes it at once) */
  idleMs?: number;
  /** attempts after which a chunk that keeps failing fails its job */
  maxAttempts?: number;
  /** how long a job waits for NTS to answer again before its unanswered rows become unknown (0: no wait) */
  upstreamWaitMs?: number;
  /** how often a waiting chunk asks again */
  upstreamRetryMs?: number;
  log?: { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void };
}

export class BatchWorker {
  readonly #o: Required<Omit<BatchWorkerOptions, 'log' | 'validator' | 'evidence'>> & Pick<BatchWorkerOptions, 'log' | 'validator' | 'evidence'>;
  readonly #holder = `worker_${randomBytes(6).toString('hex')}`;
  #active = 0;
  /** one lane per chunk in flight, each the shared polling loop over "claim a chunk, work it" */
  readonly #lanes: PollingLoop[];

  constructor(opts: BatchWorkerOptions) {
    this.#o = { now: () => new Date(), concurrency: 8, leaseMs: 60_000, idleMs: 500, maxAttempts: 5, upstreamWaitMs: 0, upstreamRetryMs: 15_000, onCommit: () => {}, ...opts };
    this.#lanes = Array.from({ length: this.#o.concurrency }, () => new PollingLoop('batch worker', () => this.#round(), { pollMs: this.#o.idleMs, ...(opts.log ? { log: opts.log } : {}) }));
  }

  start(): void {
    for (const lane of this.#lanes) lane.start();
  }

  /** Something was queued: look now rather than at the next idle tick. */
  notify(): void {
    for (const lane of this.#lanes) lane.notify();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#lanes.map((lane) => lane.stop()));
  }

  get busy(): number {
    return this.#active;
  }

  /** Claims and works one chunk; true when there was one (so there may be more at once). */
  async #round(): Promise<boolean> {
    const lease = await this.#o.store.batches.claimChunk(this.#holder, this.#o.leaseMs, this.#o.now());
    if (!lease) return false;
    this.#active++;
    try {
      await this.#work(lease);
    } catch (err) {
      this.#o.log?.warn({ err, job: lease.jobId, chunk: lease.chunkNo, attempts: lease.attempts }, 'batch chunk failed; it will be retried when its lease expires');
      if (lease.attempts >= this.#o.maxAttempts) {
        await this.#giveUp(lease, err).catch((e: unknown) => this.#o.log?.error({ err: e, job: lease.jobId, chunk: lease.chunkNo }, 'settling a batch chunk that keeps failing failed; retried when its lease expires'));
      }
    } finally {
      this.#active--;
    }
    return true;
  }

  async #work(lease: ChunkLease): Promise<void> {
    const { store } = this.#o;
    const job = await store.batches.jobById(lease.jobId);
    const account = job ? await store.accounts.get(job.accountId) : null;
    if (!job || !account) return; // deleted meanwhile: its chunks went with it
    if ((!lease.shared || store.batches.sharedFromCache) && (await this.#fromCache(lease, job))) return;
    const rows = await chunkRows(store.batches, lease.jobId, lease.chunkNo);
    let shared = lease.shared ? await store.batches.sharedNumbers(lease.jobId, chunkNumbers(rows)) : new Map<string, SharedNumber>();
    // A shared number another chunk recorded first with another answer (only when both looked it
    // up at once) sends the chunk round again with that answer; each round settles more of them.
    const wait = { waitMs: this.#o.upstreamWaitMs, retryMs: this.#o.upstreamRetryMs };
    const known = new Map<string, StatusAnswer>();
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const done = await processChunk(
        {
          status: this.#o.status, assess: this.#o.assess, now: this.#o.now, wait,
          ...(this.#o.validator ? { validator: this.#o.validator } : {}), ...(this.#o.evidence ? { evidence: this.#o.evidence } : {}),
        },
        { job, account, rows, shared, known },
      );
      if ('wait' in done) {
        const deferred = await store.batches.deferChunk(lease, this.#holder, done.wait.until, done.wait.reason, this.#o.now());
        if (deferred) this.#o.log?.info({ job: lease.jobId, chunk: lease.chunkNo, until: done.wait.until, reason: done.wait.reason }, 'batch chunk waits for NTS');
        return;
      }
      const out = await this.#commit(lease, done, this.#o.now());
      if (out.status === 'done') {
        if (job.upstreamWait) await store.batches.endUpstreamWait(job.id);
        return;
      }
      if (out.status === 'lost') {
        this.#o.log?.warn({ job: lease.jobId, chunk: lease.chunkNo }, 'lost the lease of a batch chunk; another worker finishes it');
        return;
      }
      for (const n of done.numbers) if (n.answer && !out.answers.has(n.bno)) known.set(n.bno, n.answer);
      shared = new Map([...shared, ...[...out.answers].map(([bno, answer]) => [bno, { answered: true, answer }] as const)]);
    }
    throw new Error(`chunk ${lease.chunkNo}: its shared numbers kept being recorded by other chunks`);
  }

  /**
   * A chunk that failed on every attempt is settled, not left pending: its rows become unknown,
   * the lookups it never answered are given back, and the job ends failed with the reason.
   */
  async #giveUp(lease: ChunkLease, err: unknown): Promise<void> {
    const { store } = this.#o;
    const job = await store.batches.jobById(lease.jobId);
    if (!job) return;
    const rows = await chunkRows(store.batches, lease.jobId, lease.chunkNo);
    let shared = lease.shared ? await store.batches.sharedNumbers(lease.jobId, chunkNumbers(rows)) : new Map<string, SharedNumber>();
    const why = err instanceof Error ? err.message : String(err);
    const failure = `rows ${lease.firstRow}–${lease.lastRow} could not be processed (${lease.attempts} attempts: ${why.slice(0, 300)}); they are unknown and their lookups were given back`;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const out = await this.#commit(lease, unansweredChunk({ job, rows, shared }, failure), this.#o.now());
      if (out.status !== 'conflict') return;
      shared = new Map([...shared, ...[...out.answers].map(([bno, answer]) => [bno, { answered: true, answer }] as const)]);
    }
  }

  async #commit(lease: ChunkLease, done: ChunkCompletion, now: Date): Promise<CompleteOutcome> {
    const out = await completeChunk(this.#o.store.batches, lease, this.#holder, done, now);
    this.#o.onCommit?.(out, done);
    return out;
  }

  /** Completes the chunk from its cache groups when they answer all of it; false when they do not. */
  async #fromCache(lease: ChunkLease, job: BatchJob): Promise<boolean> {
    const { store, status } = this.#o;
    const now = this.#o.now();
    const groups = await cachedGroups(store.batches, lease.jobId, lease.chunkNo);
    const done = groups && completionFromCache(groups, { source: status.source, nowMs: now.getTime(), chunkRows: lease.lastRow - lease.firstRow + 1 });
    if (!done) return false;
    if (lease.shared && !readAsPinned(groups, job.cachePins, status.source)) {
      // shared numbers keep one answer per job: the store records them from the cache and checks them
      const answers = cacheAnswersOf(groups, job.createdAt);
      if (!answers) return false;
      done.cacheAnswers = answers;
    }
    // the rows name these records (verification_id): they are kept before the rows are committed
    if (this.#o.evidence) await this.#o.evidence.record(groupEvidence(groups, job.accountId));
    const out = await this.#commit(lease, done, now);
    if (out.status === 'lost') this.#o.log?.warn({ job: lease.jobId, chunk: lease.chunkNo }, 'lost the lease of a batch chunk; another worker finishes it');
    // a shared number recorded otherwise by another chunk: the general way takes the recorded answers
    return out.status !== 'conflict';
  }
}
