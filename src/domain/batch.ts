// A batch job as the service knows it: the job, its rows, a chunk's output and the numbers it
// looked up. The store keeps them (encoded by batch/chunk-codec.ts); batch/ works with them.
import type { StatusAnswer } from './status.ts';
import type { Locale } from './locale.ts';
import type { KeptJudgementText } from './mailing-score.ts';

/**
 * The headers read as the number, name and address, and as the representative and opening date
 * that make a row's 진위확인 (absent on jobs stored before it: read as null).
 */
export interface ChosenHeaders {
  bno: string;
  name: string | null;
  address: string | null;
  representative?: string | null;
  opened?: string | null;
}

/** What reading the file decided on its own, for the job to say (jobs stored before it: null). */
export interface FileReport {
  /** XLSX: the worksheet read, the visible ones, and whether it was picked for holding the number column */
  sheet: string | null;
  sheets: string[];
  sheetByContent: boolean;
  /** 합계/소계 rows and counts: skipped, not looked up; the first few as they read */
  totalRows: number;
  totalRowTexts: string[];
  /** 9-digit numbers read with the leading zero Excel dropped; the first few row_ids */
  paddedNumbers: number;
  paddedRows: number[];
}

export type BatchStatus = 'uploading' | 'queued' | 'processing' | 'done' | 'failed';
/** the statuses a job shows (an upload in progress is not a job yet) */
export const JOB_STATUSES = ['queued', 'processing', 'done', 'failed'] as const satisfies readonly BatchStatus[];

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
  /** which headers were read as number, name and address, and as representative and opening date */
  chosen: ChosenHeaders;
  fileReport: FileReport | null;
  /** the language of the uploader (Accept-Language): the rows' reasons read in it */
  locale: Locale;
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
  /** set while the job waits for NTS (down, or the day's allowance spent): since when and why */
  upstreamWait: { since: string; reason: string } | null;
  /** when its rows and results were deleted at the end of the account's retention; null while kept */
  expiredAt: string | null;
  /** how its shared numbers were recorded from the status cache when it was accepted; null when they were not */
  cachePins: CachePins | null;
}

/**
 * A job's shared numbers answered from the status cache as it was accepted: the count of cache
 * writes then (an entry written at or before it was in the cache), the registry the entries had
 * to be from, and the moment they had to be fresh at.
 */
export interface CachePins {
  seq: number;
  source: string;
  at: string;
}

/** The moment before which a finished job's rows are past a retention of `days`. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/** How a wait for the next day's NTS allowance starts its reason (it has no give-up time). */
export const DAILY_LIMIT_REASON = 'daily_limit';

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
  /**
   * The row's result; with `over`, only what its assessment (and 진위확인) put over the result
   * its number's answer gives (which is rebuilt when read, as an unscored row's is).
   */
  result: Record<string, unknown>;
  over?: true;
  /** the number as labels key it (rows kept with `over`: their result does not carry it) */
  bno?: string;
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
  /**
   * rows assessed as a chunk, by row id, kept as the JSON text they were assessed into (a thread
   * wrote it: copied and stored as it is, never parsed on the way); read back as `scored` rows
   */
  assessed?: Map<number, AssessedRowText>;
  /** the judgements the assessed rows share (KeptChunk's), each listed once */
  judgements?: KeptJudgementText[];
}

/** A scored row as JSON text (see ChunkOutput.assessed and KeptRowText). */
export interface AssessedRowText {
  /** its judgement's index in ChunkOutput.judgements */
  judgement: number;
  /** the row's own part (KeptRowText.own), with its 진위확인 as a fourth value when it has one */
  own: string;
  /** the number as labels key it */
  bno: string;
  addressKey: string | null;
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
  /**
   * A chunk with shared numbers answered wholly from fresh cache entries (src/batch/cached-chunk.ts):
   * which entry answered each number, so the store records the answers from the cache itself
   * and checks them against those other chunks recorded, in SQL, without an object per number.
   */
  cacheAnswers?: CacheAnswers;
}

/** Parallel lists: each number, and the source and check time of the cache entry that answered it. */
export interface CacheAnswers {
  bnos: string[];
  sources: string[];
  checkedAts: string[];
}

