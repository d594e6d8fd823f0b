// Storage of batch jobs: the job, its rows (stored a chunk at a time: the unit a worker leases),
// each chunk's output (the answer of every number in it and the results of the rows that were
// scored), the numbers shared by several chunks (answer and refund, once per job) and running
// counts. Two implementations (batches-sqlite.ts, batches-postgres.ts) pass
// test/batch-store.test.ts.
import type { StatusAnswer } from '../registry/types.ts';
import type { CachedGroup } from '../batch/cached-chunk.ts';

export type BatchStatus = 'uploading' | 'queued' | 'processing' | 'done' | 'failed';

/** Whether a job has ended (every row settled), done or failed. */
export const isFinished = (status: BatchStatus): boolean => status === 'done' || status === 'failed';

export interface BatchJob {
  id: string;
  accountId: string;
  status: BatchStatus;
  failureReason: string | null;
  filename: string | null;
  fileKind: string;
  /** input headers in file order */
  columns: string[];
  /** which headers were read as number, name and address */
  chosen: { bno: string; name: string | null; address: string | null };
  total: number;
  distinctNumbers: number;
  processed: number;
  chunksTotal: number;
  chunksDone: number;
  offline: boolean;
  paid: boolean;
  /** the quota month charged (refunds go back to it) */
  month: string;
  charged: number;
  overage: number;
  refunded: number;
  idempotencyKey: string | null;
  fingerprint: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface BatchRowInput {
  rowId: number;
  bnoRaw: string;
  /** ten digits when the cell could be read as a number, else null */
  bno: string | null;
  /** passes the check digit: will be looked up and charged (once per distinct number) */
  valid: boolean;
  name: string | null;
  address: string | null;
  cells: Record<string, string>;
}

export interface BatchRow extends BatchRowInput {
  /** the verification result (POST /verify's shape), null until processed */
  result: Record<string, unknown> | null;
  features: Record<string, number> | null;
  addressKey: string | null;
}

/** A row that was scored (it has a name): its result cannot be rebuilt from the answer alone. */
export interface ScoredRow {
  result: Record<string, unknown>;
  /** what the model saw, kept for labels and refits */
  features: Record<string, number> | null;
  addressKey: string | null;
}

/**
 * What a processed chunk keeps. Rows without a name are not scored: their result is a pure
 * function of their number's answer, so only the answer is stored (once per number) and the
 * result is rebuilt when read (src/batch/job-rows.ts).
 */
export interface ChunkOutput {
  /** every check-digit-valid number of the chunk → the answer the job recorded for it (null: none) */
  answers: Map<string, StatusAnswer | null>;
  /** scored rows by row id */
  scored: Map<number, ScoredRow>;
}

/** A chunk's rows as uploaded, with its output once processed. */
export interface StoredChunk {
  chunkNo: number;
  firstRow: number;
  lastRow: number;
  rows: BatchRowInput[];
  output: ChunkOutput | null;
}

/**
 * A number looked up by a chunk. `refund` gives its lookup back (unanswered, stale). `shared`:
 * the number also occurs in other chunks of the job, so its answer and refund are recorded once
 * per job (the first chunk to commit one wins); otherwise the chunk's own commit is the once.
 */
export interface NumberOutcome {
  bno: string;
  answer: StatusAnswer | null;
  refund: boolean;
  shared: boolean;
}

/** A shared number of a job: its recorded answer, or not answered yet. */
export type SharedNumber = { answered: false } | { answered: true; answer: StatusAnswer | null };

export interface ChunkLease {
  jobId: string;
  chunkNo: number;
  firstRow: number;
  lastRow: number;
  attempts: number;
  /** the chunk has numbers that occur in other chunks too (see NumberOutcome.shared) */
  shared: boolean;
}

export interface Tally {
  byStatus: Record<string, number>;
  byGrade: Record<string, number>;
}

/** A chunk's output encoded already (read from the cache in SQL: src/batch/cached-chunk.ts). */
export interface EncodedChunkOutput {
  encoded: string;
  /** numbers answered from the cache (for the lookup metrics) */
  cacheHits: number;
}

export interface ChunkCompletion {
  output: ChunkOutput | EncodedChunkOutput;
  /** the numbers this chunk looked up (not those it took from earlier chunks) */
  numbers: readonly NumberOutcome[];
  /** the chunk's rows by status and grade, added to the job's counts */
  counts: Tally;
  rows: number;
  /** the chunk was given up (see unansweredChunk): the job ends `failed` with this reason */
  failure?: string;
}

export type CompleteOutcome =
  | { status: 'done' }
  /** another worker took the chunk over: nothing was written */
  | { status: 'lost' }
  /** shared numbers another chunk recorded first, with other answers: nothing was written; redo the chunk with these */
  | { status: 'conflict'; answers: Map<string, StatusAnswer | null> };

export type FinalizeOutcome =
  | { ok: true; job: BatchJob }
  | { ok: false; needed: number; remaining: number };

export interface FinalizeOptions {
  limit: number;
  charge: boolean;
  paid: boolean;
  now: Date;
  fingerprint?: string;
  columns?: string[];
  /** data rows appended (row ids 1..total) */
  total: number;
  /** distinct check-digit-valid numbers: what is charged */
  distinct: number;
  /** numbers that occur in more than one chunk */
  sharedNumbers: readonly string[];
  /** chunks holding any of them */
  sharedChunks: readonly number[];
}

export interface BatchStore {
  /** A job in state 'uploading', invisible but to its Idempotency-Key, leased to its uploader until `uploadLeaseUntil`. */
  createJob(
    job: Omit<BatchJob, 'status' | 'failureReason' | 'total' | 'distinctNumbers' | 'processed' | 'chunksTotal' | 'chunksDone' | 'charged' | 'overage' | 'refunded' | 'startedAt' | 'finishedAt'> & {
      uploadLeaseUntil: string;
    },
  ): Promise<void>;
  /** Extends an upload's lease; false when the job is no longer uploading (swept, or finalized). */
  renewUpload(jobId: string, until: string): Promise<boolean>;
  /**
   * Stores rows firstRow..lastRow of an uploading job as chunk `chunkNo` (rows in order, none
   * missing); `columns` are the headers read so far, in file order (the cells' keys are a prefix).
   */
  appendChunk(jobId: string, chunkNo: number, rows: readonly BatchRowInput[], columns: readonly string[]): Promise<void>;
  /**
   * In one transaction: charges the job's distinct numbers to the month (unless `charge` is
   * false) — all within the limit, or with the excess as overage when `paid`, or nothing and
   * { ok: false } — records its shared numbers, creates a chunk for each appended one (same
   * numbers and rows) and queues the job.
   */
  finalizeJob(jobId: string, opts: FinalizeOptions): Promise<FinalizeOutcome>;
  /** Deletes a job and everything of it (a failed upload, a refused job). */
  discardJob(jobId: string): Promise<void>;
  /** Deletes uploads whose lease ran out before `now` (their process died), chunks and all; returns how many. */
  sweepUploads(now: string): Promise<number>;
  getJob(jobId: string): Promise<BatchJob | null>;
  findJobByIdempotencyKey(accountId: string, key: string): Promise<BatchJob | null>;
  /** Newest first; `before` (a job's created_at and id) continues a listing after that job. */
  listJobs(accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<BatchJob[]>;

  /** Leases the oldest pending (or expired) chunk of any job; marks its job processing. */
  claimChunk(holder: string, leaseMs: number, now: Date): Promise<ChunkLease | null>;
  chunkRows(jobId: string, chunkNo: number): Promise<BatchRowInput[]>;
  /**
   * The status-cache entries of a chunk's lookups, grouped by everything but the number (see
   * src/batch/cached-chunk.ts); null when the chunk has scored rows (or was stored without its
   * lookups). Numbers without an entry form a group with a null template.
   */
  cachedGroups(jobId: string, chunkNo: number): Promise<CachedGroup[] | null>;
  /** The state of these numbers among the job's shared numbers (numbers not shared are absent). */
  sharedNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, SharedNumber>>;
  /**
   * In one transaction, if `holder` still holds the lease: records the shared numbers' answers
   * (those still unrecorded) and refunds what is marked — each number once per job —, stores the
   * chunk's output, adds to the job's counts and progress, marks the chunk done and the job done
   * when it was the last.
   */
  completeChunk(lease: ChunkLease, holder: string, done: ChunkCompletion, now: Date): Promise<CompleteOutcome>;
  counts(jobId: string): Promise<Tally>;
  /** Chunks in file order whose rows come after `afterRowId`, at most `limit` chunks. */
  chunksAfter(jobId: string, afterRowId: number, limit: number): Promise<StoredChunk[]>;
}
