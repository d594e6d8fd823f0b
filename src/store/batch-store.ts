// What the batch store (batches.ts) takes and gives: a job's rows stored a chunk at a time (the
// unit a worker leases), each chunk's output (encoded by batch/chunk-codec.ts: the store keeps
// the text), the numbers shared by several chunks (answer and refund, once per job) and counts.
import type { StatusAnswer } from '../domain/status.ts';
import type { BatchJob, CacheAnswers, FileReport, NumberOutcome, Tally } from '../domain/batch.ts';
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
  /** labels' facts of its scored rows, when the chunk has them (then `output` may be left out) */
  facts?: unknown;
  /** the chunk has an output, read or not */
  processed?: boolean;
}

/**
 * How many distinct numbers of a job's unfinished chunks were charged and will now never be
 * answered, from those chunks' rows (as stored) less the numbers the job shares between chunks
 * (counted apart). Decoding rows is batch/'s business: the store hands over their text.
 */
export type UnansweredCount = (pending: readonly { rows: unknown; columns: unknown }[], shared: ReadonlySet<string>) => number;

/** What deleting a job did: null when the account has no such job. */
export type DeletedJob = { refunded: number; labels: number } | null;

/** What completing a chunk writes. */
export interface ChunkCommit {
  /** the chunk's output, encoded */
  output: string;
  /** what labels need of its scored rows, encoded (chunk-codec.ts), or null when none was scored */
  facts: string | null;
  /** the numbers this chunk looked up (not those it took from earlier chunks) */
  numbers: readonly NumberOutcome[];
  /** the chunk's rows by status and grade, added to the job's counts */
  counts: Tally;
  rows: number;
  /** the chunk was given up: the job ends `failed` with this reason */
  failure?: string;
  /** shared numbers answered from fresh cache entries: recorded from the cache, or a conflict when another chunk recorded otherwise */
  cacheAnswers?: CacheAnswers;
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
  /** what reading the file decided on its own (skipped totals, padded numbers, the sheet) */
  fileReport?: FileReport;
  /** data rows appended (row ids 1..total) */
  total: number;
  /** distinct check-digit-valid numbers: what is charged */
  distinct: number;
  /** numbers that occur in more than one chunk */
  sharedNumbers: readonly string[];
  /** chunks holding any of them */
  sharedChunks: readonly number[];
  /**
   * The registry answers come from: a shared number with a fresh cache entry of it is recorded
   * answered now, as the cache answers it (without: every shared number waits for its first
   * chunk).
   */
  cachedFrom?: string;
}

/** A new job as its uploader creates it. */
export type NewJob = Omit<BatchJob, 'upstreamWait' | 'cachePins' | 'status' | 'failureReason' | 'total' | 'distinctNumbers' | 'processed' | 'chunksTotal' | 'chunksDone' | 'charged' | 'overage' | 'refunded' | 'startedAt' | 'finishedAt' | 'expiredAt' | 'fileReport' | 'locale'> & {
  uploadLeaseUntil: string;
  /** default ko */
  locale?: BatchJob['locale'];
};
