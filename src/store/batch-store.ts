// Storage of batch jobs: the job, its rows (input and result), its chunks (the unit of work a
// worker leases), its distinct numbers (answer and refund, once each) and running counts.
// Two implementations (batches-sqlite.ts, batches-postgres.ts) pass test/batch-store.test.ts.
import type { StatusAnswer } from '../registry/types.ts';

export type BatchStatus = 'uploading' | 'queued' | 'processing' | 'done' | 'failed';

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

export interface BatchRowResult {
  rowId: number;
  result: Record<string, unknown>;
  bizStatus: string;
  grade: string | null;
  features: Record<string, number> | null;
  addressKey: string | null;
}

/** A distinct number's outcome within a job. `refund` gives its lookup back (unanswered, stale, offline). */
export interface NumberOutcome {
  bno: string;
  answer: StatusAnswer | null;
  refund: boolean;
}

export interface ChunkLease {
  jobId: string;
  chunkNo: number;
  firstRow: number;
  lastRow: number;
  attempts: number;
}

export type FinalizeOutcome =
  | { ok: true; job: BatchJob }
  | { ok: false; needed: number; remaining: number };

export interface BatchStore {
  createJob(job: Omit<BatchJob, 'status' | 'failureReason' | 'total' | 'distinctNumbers' | 'processed' | 'chunksTotal' | 'chunksDone' | 'charged' | 'overage' | 'refunded' | 'startedAt' | 'finishedAt'>): Promise<void>;
  appendRows(jobId: string, rows: readonly BatchRowInput[]): Promise<void>;
  /**
   * In one transaction: counts rows and distinct check-digit-valid numbers, charges them to the
   * month (unless `charge` is false) — all within the limit, or with the excess as overage when
   * `paid`, or nothing and { ok: false } — creates the chunks and queues the job.
   */
  finalizeJob(jobId: string, opts: { chunkSize: number; limit: number; charge: boolean; paid: boolean; now: Date; fingerprint?: string; columns?: string[] }): Promise<FinalizeOutcome>;
  /** Deletes a job and everything of it (a failed upload, a refused job). */
  discardJob(jobId: string): Promise<void>;
  /** Deletes uploads a crashed process left behind; returns how many. */
  sweepUploads(olderThan: string): Promise<number>;
  getJob(jobId: string): Promise<BatchJob | null>;
  findJobByIdempotencyKey(accountId: string, key: string): Promise<BatchJob | null>;
  /** Newest first; `before` (a job's created_at and id) continues a listing after that job. */
  listJobs(accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<BatchJob[]>;

  /** Leases the oldest pending (or expired) chunk of any job; marks its job processing. */
  claimChunk(holder: string, leaseMs: number, now: Date): Promise<ChunkLease | null>;
  rowsBetween(jobId: string, firstRow: number, lastRow: number): Promise<BatchRow[]>;
  /** Answers already recorded for these numbers in this job. */
  jobNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, StatusAnswer | null>>;
  /**
   * In one transaction, if `holder` still holds the lease: writes the results, records the numbers
   * first seen here and refunds those marked (each number once per job), adds to the job's
   * counts and progress, marks the chunk done and the job done when it was the last. False when
   * the lease was lost (another worker took the chunk over): nothing is written.
   */
  completeChunk(lease: ChunkLease, holder: string, results: readonly BatchRowResult[], numbers: readonly NumberOutcome[], now: Date): Promise<boolean>;
  failJob(jobId: string, reason: string, now: Date): Promise<void>;
  counts(jobId: string): Promise<{ byStatus: Record<string, number>; byGrade: Record<string, number> }>;
  /** Rows in file order after `afterRowId`, at most `limit`. */
  rowsAfter(jobId: string, afterRowId: number, limit: number): Promise<BatchRow[]>;
  getRow(jobId: string, rowId: number): Promise<BatchRow | null>;
}
