// Storage of batch jobs: the job, its rows (stored a chunk at a time: the unit a worker leases),
// each chunk's output (encoded by batch/chunk-codec.ts: the store keeps the text), the numbers
// shared by several chunks (answer and refund, once per job) and running counts. One
// implementation for both engines (batches.ts) passes test/batch-store.test.ts.
import type { StatusAnswer } from '../domain/status.ts';
import type { BatchJob, ChunkLease, NumberOutcome, SharedNumber, Tally } from '../domain/batch.ts';
import type { WebhookEventInput } from '../domain/watch-entities.ts';

/** A chunk's rows as stored: JSON text, and the numbers it looks up (JSON array text, or null). */
export interface ChunkText {
  firstRow: number;
  lastRow: number;
  rows: string;
  lookups: string | null;
}

/** A chunk as read back: its rows and output as the engine hands them (text or parsed JSON), and the job's columns. */
export interface StoredChunkText {
  chunkNo: number;
  firstRow: number;
  lastRow: number;
  rows: unknown;
  output: unknown;
  columns: unknown;
}

/** What completing a chunk writes. */
export interface ChunkCommit {
  /** the chunk's output, encoded */
  output: string;
  /** the numbers this chunk looked up (not those it took from earlier chunks) */
  numbers: readonly NumberOutcome[];
  /** the chunk's rows by status and grade, added to the job's counts */
  counts: Tally;
  rows: number;
  /** the chunk was given up: the job ends `failed` with this reason */
  failure?: string;
  /** the event a finished job sends, built from the job as committed (in the same transaction) */
  doneEvent: (job: BatchJob, counts: Tally) => WebhookEventInput;
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
   * missing), encoded by batch/chunk-codec.ts.
   */
  appendChunk(jobId: string, chunkNo: number, chunk: ChunkText): Promise<void>;
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
  /** The account's job (uploads in progress are not jobs yet); null for another account's. */
  getJob(accountId: string, jobId: string): Promise<BatchJob | null>;
  /** A job whoever's it is: for the worker holding one of its chunks, operators and tests. */
  jobById(jobId: string): Promise<BatchJob | null>;
  findJobByIdempotencyKey(accountId: string, key: string): Promise<BatchJob | null>;
  /** Newest first; `before` (a job's created_at and id) continues a listing after that job. */
  listJobs(accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<BatchJob[]>;

  /** Leases the oldest pending (or expired) chunk of any job; marks its job processing. */
  claimChunk(holder: string, leaseMs: number, now: Date): Promise<ChunkLease | null>;
  /** A chunk's rows as stored and the job's columns; null when there is no such chunk. */
  chunkRows(jobId: string, chunkNo: number): Promise<{ rows: unknown; columns: unknown } | null>;
  /**
   * The status-cache entries of a chunk's lookups, grouped by everything but the number, as rows
   * [template, source, checked_at, expires_at, rows, numbers] (see src/batch/cached-chunk.ts);
   * null when the chunk has scored rows (or was stored without its lookups). Numbers without an
   * entry form a group with a null template.
   */
  cachedGroups(jobId: string, chunkNo: number): Promise<unknown[][] | null>;
  /** The state of these numbers among the job's shared numbers (numbers not shared are absent). */
  sharedNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, SharedNumber>>;
  /**
   * In one transaction, if `holder` still holds the lease: records the shared numbers' answers
   * (those still unrecorded) and refunds what is marked — each number once per job —, stores the
   * chunk's output, adds to the job's counts and progress, marks the chunk done and the job done
   * when it was the last.
   */
  completeChunk(lease: ChunkLease, holder: string, done: ChunkCommit, now: Date): Promise<CompleteOutcome>;
  counts(jobId: string): Promise<Tally>;
  /** Chunks in file order whose rows come after `afterRowId`, at most `limit` chunks. */
  chunksAfter(jobId: string, afterRowId: number, limit: number): Promise<StoredChunkText[]>;
}
