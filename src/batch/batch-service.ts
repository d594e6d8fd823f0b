// Batch jobs as an account uses them. Creating one from an uploaded file: rows stream from the
// file into the store a chunk at a time as they are read (never the whole file in memory), the
// distinct numbers are counted on the way, then one transaction charges the quota and queues the
// job; any failure before that leaves nothing behind. Then its status, the account's list, its
// rows with their results, and labels of what the mail really did. Another account's job is as
// unknown as one that does not exist.
import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { monthlyLimit } from '../domain/plans.ts';
import { quotaMonth, quotaResetsAt, secondsUntil, seoulDay, toSeoulIso } from '../domain/quota-period.ts';
import { hasValidCheckDigit } from '../domain/bizno.ts';
import { newId } from '../accounts/api-key.ts';
import { AppError } from '../errors.ts';
import type { BatchJob, BatchRow, BatchRowInput, ChosenHeaders, Tally } from '../domain/batch.ts';
import type { Store } from '../store/store.ts';
import { appendChunk, deleteJob } from './chunks.ts';
import { allRows, expiredProblem, rowsAfter } from './job-rows.ts';
import { JobRowFacts, type RowFacts } from './job-labels.ts';
import type { LabelItem, LabelRecord, LabelRejection } from '../domain/label.ts';
import { bouncedOf, causeOf, type ReturnCause } from '../domain/return-reason.ts';
import type { Account } from '../domain/account.ts';
import type { Locale } from '../domain/locale.ts';
import { isFileError } from './files/errors.ts';
import type { ColumnOverrides, FileRow } from './files/read-rows.ts';
import { ParserPool } from './files/isolated-rows.ts';
import { rowChars } from './files/parse-protocol.ts';
import { readLabelFile, type LabelFile } from './files/label-file.ts';
import { NumberTally } from './number-tally.ts';
import { type BatchWarming, UploadWarmer, WarmAllowance } from './upload-warmer.ts';

export interface UploadRequest {
  account: Account;
  file: Readable;
  filename: string | null;
  contentType: string | null;
  offline: boolean;
  paid: boolean;
  sheet?: string | undefined;
  columns?: ColumnOverrides | undefined;
  idempotencyKey?: string | undefined;
  /** the uploader's language: the rows' reasons read in it (default ko) */
  locale?: Locale | undefined;
  /** true once the upload was cut at the size limit */
  truncated?: () => boolean;
}

/** rows an inspection shows */
export const INSPECT_ROWS = 10;

export interface FileInspection {
  kind: string;
  sheet: string | null;
  sheets: string[];
  sheetByContent: boolean;
  headers: string[];
  chosen: ChosenHeaders;
  /** false: no header named a number column (chosen.bno is the first column, standing in) */
  numberRecognised: boolean;
  rows: { rowId: number; cells: Record<string, string> }[];
}

export interface BatchLimits {
  maxRows: number;
  maxFileBytes: number;
  /** rows in a chunk at most */
  chunkSize: number;
  /** characters of cell text in a chunk at most (a chunk ends after the row that reaches it) */
  chunkChars: number;
  /** heap of the thread that parses an upload (isolated-rows.ts), in MB */
  parseHeapMb: number;
  /** how long an upload in progress holds its job without renewing (see sweepDeadUploads) */
  uploadLeaseMs: number;
  /** how long a job waits for NTS before its unanswered rows become unknown (shown in its status) */
  upstreamWaitMs?: number;
}

/** How long an accepted upload of an API-only process waits for its warm lookups under way (BatchWarming.jobsElsewhere). */
const WARM_SETTLE_MS = 5_000;

/** Resolves when `p` settles or after `ms`, whichever comes first. */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export class BatchService {
  readonly #store: Store;
  readonly #limits: BatchLimits;
  readonly #now: () => Date;
  readonly #queued: () => void;
  readonly #parsers: ParserPool;
  readonly #facts: JobRowFacts;

  readonly #registrySource: string | undefined;
  readonly #warm: BatchWarming | undefined;
  readonly #warmAllowance = new WarmAllowance();

  /**
   * `registrySource`: the registry answers come from; its fresh cache entries fix a repeated number's answer when the job is accepted.
   * `warm`: NTS asked for an upload's numbers while it is read (upload-warmer.ts); absent for the sandbox, whose answers cost nothing.
   */
  constructor(store: Store, limits: BatchLimits, opts: { now?: () => Date; onQueued?: () => void; registrySource?: string; warm?: BatchWarming } = {}) {
    this.#store = store;
    this.#limits = limits;
    this.#registrySource = opts.registrySource;
    this.#warm = opts.warm;
    this.#now = opts.now ?? (() => new Date());
    this.#queued = opts.onQueued ?? (() => {});
    this.#parsers = new ParserPool({ heapMb: limits.parseHeapMb });
    this.#facts = new JobRowFacts(store.batches);
  }

  /** The account's job with its counts and its first `preview` rows. */
  async get(account: Account, jobId: string, preview: number): Promise<{ job: BatchJob; counts: Tally; preview: BatchRow[]; waitMs: number }> {
    const job = await this.#own(account, jobId);
    return { job, counts: await this.#store.batches.counts(job.id), preview: await rowsAfter(this.#store.batches, job, 0, preview), waitMs: this.#limits.upstreamWaitMs ?? 0 };
  }

  /** The account's jobs, newest first, `limit` at a time; `before` continues after that job. */
  async list(account: Account, limit: number, before?: string): Promise<{ jobs: BatchJob[]; nextBefore: string | null }> {
    const after = before === undefined ? undefined : await this.#own(account, before);
    // one job past the page says whether another page exists, without a count query
    const jobs = await this.#store.batches.listJobs(account.id, limit + 1, after && { createdAt: after.createdAt, id: after.id });
    const page = jobs.slice(0, limit);
    return { jobs: page, nextBefore: jobs.length > limit ? page.at(-1)!.id : null };
  }

  /**
   * Deletes the account's job and everything uploaded or computed for it (see BatchStore.deleteJob);
   * a job still running is stopped and what it will not answer is given back.
   */
  async delete(account: Account, jobId: string): Promise<{ refunded: number; labels: number }> {
    const out = await deleteJob(this.#store.batches, account.id, jobId, seoulDay(this.#now()));
    if (!out) throw new AppError('not_found', `no batch job ${jobId}`);
    await this.#store.scrub();
    return out;
  }

  /** The account's job and every row of it with its result, read a chunk at a time. */
  async rows(account: Account, jobId: string): Promise<{ job: BatchJob; rows: AsyncGenerator<BatchRow> }> {
    const job = await this.#kept(account, jobId);
    return { job, rows: allRows(this.#store.batches, job) };
  }

  /** Records what the mail to one processed row really did, with the features it was scored on. */
  async label(account: Account, jobId: string, l: { rowId: number; bounced: boolean; reason: string | null }): Promise<{ job: BatchJob; rowId: number; replaced: boolean; modelVersion: string | null; cause: ReturnCause | null; at: string }> {
    const job = await this.#kept(account, jobId);
    const row = (await this.#facts.ofRows(job.id, [l.rowId])).get(l.rowId);
    if (!row) throw new AppError('not_found', `job ${job.id} has no row ${l.rowId} (it has ${job.total})`);
    if (!row.processed) throw new AppError('conflict', `row ${row.rowId} has not been processed yet; label it once the job has reached it`);
    const at = this.#now().toISOString();
    // a delivered letter has no cause of return, whatever its reason says (as labelMany records it)
    const cause = l.bounced ? causeOf(l.reason) : null;
    const { replaced } = await this.#store.labels.put(labelRecord(account, job, row, { bounced: l.bounced, reason: l.reason, cause }, at));
    return { job, rowId: row.rowId, replaced, modelVersion: row.modelVersion, cause, at };
  }

  /**
   * Records many outcomes of one job in one transaction: by row id, or for every row of the job
   * with a business number. An item without an outcome takes it from its reason (a 반송 사유 is
   * a bounce), then from `defaultBounced`. Items that cannot be recorded are reported and the
   * rest recorded; a row labelled twice in one request keeps the later outcome.
   */
  async labelMany(account: Account, jobId: string, items: readonly LabelItem[], defaultBounced: boolean | null): Promise<LabelsRecorded> {
    const job = await this.#kept(account, jobId);
    const rejected: LabelRejection[] = [];
    const reject = (item: LabelItem, code: LabelRejection['code'], detail: string) => rejected.push({ at: item.at, rowId: item.rowId, bno: item.bno, code, detail });
    const ready: { item: LabelItem; bounced: boolean; cause: ReturnCause | null }[] = [];
    for (const item of items) {
      const named = causeOf(item.reason);
      // any reason but a delivery is why the mail came back, even one we have no cause for (기타)
      const bounced = item.bounced ?? (named === null ? bouncedOf(item.reason) : true) ?? defaultBounced;
      // a row id written but not a row's: not read as absent (the number alone would label every row holding it)
      if (item.rowId === null && item.rowIdWritten) reject(item, 'no_row', `"${item.rowIdWritten}" is not a row number (row_id counts from 1)`);
      else if (item.rowId === null && item.bno === null) reject(item, 'no_row', 'give row_id or b_no');
      else if (bounced === null) reject(item, 'no_outcome', 'give bounced, a 반송 사유 as reason, or the outcome for the whole request');
      else ready.push({ item, bounced, cause: bounced ? named : null });
    }
    const byRow = await this.#facts.ofRows(job.id, ready.flatMap((r) => (r.item.rowId === null ? [] : [r.item.rowId])));
    const byNumber = await this.#facts.ofNumbers(job.id, new Set(ready.flatMap((r) => (r.item.rowId === null && r.item.bno !== null ? [r.item.bno] : []))));
    const at = this.#now().toISOString();
    const chosen = new Map<number, LabelRecord>();
    for (const { item, bounced, cause } of ready) {
      const rows = item.rowId === null ? (byNumber.get(item.bno!) ?? []) : [byRow.get(item.rowId)].filter((f) => f !== undefined);
      if (rows.length === 0) {
        reject(item, 'not_in_job', item.rowId === null ? `no row of job ${job.id} has the number ${item.bno}` : `job ${job.id} has no row ${item.rowId} (it has ${job.total})`);
        continue;
      }
      if (item.rowId !== null && item.bno !== null && rows[0]!.bno !== item.bno) {
        reject(item, 'number_mismatch', `row ${item.rowId} holds ${rows[0]!.bno}, not ${item.bno}`);
        continue;
      }
      const unprocessed = rows.filter((r) => !r.processed);
      if (unprocessed.length > 0) {
        reject(item, 'not_processed', `row ${unprocessed[0]!.rowId} has not been processed yet; label it once the job has reached it`);
        continue;
      }
      for (const row of rows) {
        chosen.delete(row.rowId);
        chosen.set(row.rowId, labelRecord(account, job, row, { bounced, reason: item.reason, cause }, at));
      }
    }
    const labels = [...chosen.values()];
    const { replaced } = await this.#store.labels.putMany(labels);
    const causes: Partial<Record<ReturnCause, number>> = {};
    for (const l of labels) if (l.cause) causes[l.cause] = (causes[l.cause] ?? 0) + 1;
    rejected.sort((a, b) => a.at - b.at);
    return { job, recorded: labels.length, bounced: labels.filter((l) => l.bounced).length, replaced, causes, rejected, at };
  }

  /**
   * Records the outcomes in an uploaded file (CSV, XLSX or JSON; see files/label-file.ts), read in
   * a parsing thread as customer lists are, then as labelMany does.
   */
  async labelFile(account: Account, jobId: string, f: LabelFileUpload): Promise<LabelsRecorded & { columns: LabelFile['columns'] }> {
    try {
      await this.#kept(account, jobId);
      const opened = await this.#parsers.open(f.file, { filename: f.filename ?? undefined, contentType: f.contentType ?? undefined, sheet: f.sheet, maxRows: LABELS_PER_REQUEST });
      const { items, columns } = await readLabelFile(opened);
      if (f.truncated()) throw this.#tooLarge();
      return { ...(await this.labelMany(account, jobId, items, f.defaultBounced)), columns };
    } catch (err) {
      f.file.resume();
      if (f.truncated()) throw this.#tooLarge();
      throw asHttpError(err);
    }
  }

  async #own(account: Account, jobId: string): Promise<BatchJob> {
    const job = await this.#store.batches.getJob(account.id, jobId);
    if (!job) throw new AppError('not_found', `no batch job ${jobId}`);
    return job;
  }

  /** The account's job while its rows are kept; 410 once they expired. */
  async #kept(account: Account, jobId: string): Promise<BatchJob> {
    const job = await this.#own(account, jobId);
    if (job.expiredAt) throw expiredProblem(job);
    return job;
  }

  /** Ends the idle file-parsing threads. */
  close(): Promise<void> {
    return this.#parsers.close();
  }

  /**
   * What an upload of this file would read, without creating a job or charging anything: the
   * sheet, the headers, the columns recognised, and the first rows. For a mapping step before
   * the upload (the console's) and for developers trying the column options.
   */
  async inspect(req: Pick<UploadRequest, 'file' | 'filename' | 'contentType' | 'sheet' | 'columns' | 'truncated'>): Promise<FileInspection> {
    // the parser may stop early: it reads a copy, and the upload itself is drained after
    const tee = new PassThrough();
    req.file.on('error', (err) => tee.destroy(err));
    req.file.pipe(tee);
    let opened;
    try {
      opened = await this.#parsers.open(tee, { filename: req.filename ?? undefined, contentType: req.contentType ?? undefined, sheet: req.sheet, columns: req.columns, maxRows: this.#limits.maxRows, provisionalNumber: true });
      const rows: FileRow[] = [];
      for await (const batch of opened.batches) {
        rows.push(...batch.slice(0, INSPECT_ROWS - rows.length));
        if (rows.length >= INSPECT_ROWS) break;
      }
      return {
        kind: opened.kind, sheet: opened.sheet, sheets: opened.sheets, sheetByContent: opened.sheetByContent, headers: [...opened.headers], chosen: opened.chosen,
        numberRecognised: opened.numberRecognised,
        rows: rows.map((r) => ({ rowId: r.rowId, cells: r.cells })),
      };
    } catch (err) {
      if (req.truncated?.()) throw this.#tooLarge();
      throw asHttpError(err);
    } finally {
      await opened?.close();
      req.file.unpipe(tee);
      req.file.resume();
    }
  }

  /** The job (new, or the one an Idempotency-Key already created) and whether it was created now. */
  async create(req: UploadRequest): Promise<{ job: BatchJob; created: boolean }> {
    try {
      return await this.#create(req);
    } catch (err) {
      // stop reading but let the rest of the body drain, so the client gets its answer
      req.file.unpipe();
      req.file.resume();
      if (req.truncated?.()) throw this.#tooLarge();
      throw asHttpError(err);
    }
  }

  async #create(req: UploadRequest): Promise<{ job: BatchJob; created: boolean }> {
    const hash = createHash('sha256');
    const tee = new PassThrough();
    req.file.on('data', (chunk: Buffer) => hash.update(chunk));
    req.file.on('error', (err) => tee.destroy(err));
    req.file.pipe(tee);

    if (req.idempotencyKey) {
      let existing = await this.#store.batches.findJobByIdempotencyKey(req.account.id, req.idempotencyKey);
      if (existing?.status === 'uploading') {
        // its uploader may have died: once its lease has run out, the key is free again
        await this.#store.batches.sweepUploads(this.#now().toISOString());
        existing = await this.#store.batches.findJobByIdempotencyKey(req.account.id, req.idempotencyKey);
      }
      if (existing) return { job: await this.#replay(existing, tee, hash), created: false };
    }
    const now = this.#now();
    const jobId = newId('job');
    let opened;
    try {
      opened = await this.#parsers.open(tee, { filename: req.filename ?? undefined, contentType: req.contentType ?? undefined, sheet: req.sheet, columns: req.columns, maxRows: this.#limits.maxRows });
    } catch (err) {
      tee.destroy();
      throw asHttpError(err);
    }
    try {
      await this.#store.batches.createJob({
        id: jobId, accountId: req.account.id, filename: req.filename, fileKind: opened.kind, columns: opened.headers, chosen: opened.chosen,
        offline: req.offline, paid: req.paid, month: quotaMonth(now), idempotencyKey: req.idempotencyKey ?? null, fingerprint: null, createdAt: now.toISOString(), locale: req.locale ?? 'ko',
        uploadLeaseUntil: this.#leaseEnd(),
      });
    } catch (err) {
      tee.destroy();
      await opened.close();
      // the unique index on (account, key): the same key is being uploaded right now
      if (req.idempotencyKey && /unique|duplicate/i.test(String(err))) throw new AppError('conflict', 'a job with this Idempotency-Key is being created; retry in a moment');
      throw err;
    }
    // renewed while this process lives; a third of the lease apart, so one slow write does not lose it
    const renewal = setInterval(() => {
      this.#store.batches.renewUpload(jobId, this.#leaseEnd()).catch(() => undefined);
    }, this.#limits.uploadLeaseMs / 3);
    renewal.unref();
    const day = seoulDay(now);
    // a usage read that fails costs only the warming, not the upload
    const reserved = this.#warmAllowance.reserve(req.account.id, day, await this.#warmLimit(req, now).catch(() => 0));
    const warmer = new UploadWarmer({ lookup: this.#warm?.lookup ?? (async () => ({ asked: 0, cached: 0 })), inFlight: this.#warm?.inFlight, limit: reserved });
    let accepted = false;
    try {
      const { chunkSize, chunkChars } = this.#limits;
      const tally = new NumberTally();
      let chunk: BatchRowInput[] = [];
      let chars = 0;
      let chunkNo = 1;
      let total = 0;
      for await (const rows of opened.batches) {
        for (const row of rows) {
          const valid = row.bno !== null && hasValidCheckDigit(row.bno);
          if (valid) {
            const known = tally.size;
            tally.add(row.bno!, chunkNo);
            if (tally.size !== known) warmer.add(row.bno!, chunkNo);
          }
          chunk.push({ rowId: row.rowId, bnoRaw: row.bnoRaw, bno: row.bno, valid, name: row.name, address: row.address, cells: row.cells });
          chars += rowChars(row.cells);
          total = row.rowId;
          // a chunk is what a worker holds and a download reads at once: bounded by its text too,
          // or 1,000 rows of 256 wide cells would be hundreds of MB
          if (chunk.length === chunkSize || chars >= chunkChars) {
            await appendChunk(this.#store.batches, jobId, chunkNo++, chunk, opened.headers, opened.chosen);
            chunk = [];
            chars = 0;
          }
        }
      }
      await appendChunk(this.#store.batches, jobId, chunkNo, chunk, opened.headers, opened.chosen);
      if (req.truncated?.()) {
        warmer.stop();
        throw this.#tooLarge();
      }
      // all read: the chunk the warmer took last goes too, rather than being left to the job
      warmer.finish();
      // bounded: an NTS that hangs does not hold the upload
      if (this.#warm?.jobsElsewhere) await settledWithin(warmer.settled(), WARM_SETTLE_MS);
      const fingerprint = hash.digest('hex');
      const account = req.account;
      const out = await this.#store.batches.finalizeJob(jobId, {
        total,
        distinct: tally.size,
        sharedNumbers: tally.sharedNumbers(),
        sharedChunks: tally.sharedChunks(),
        ...(this.#registrySource === undefined ? {} : { cachedFrom: this.#registrySource }),
        limit: monthlyLimit(account.plan, account.quotaLimit),
        charge: !req.offline,
        paid: req.paid,
        now: this.#now(),
        fingerprint,
        // wide rows or late JSON keys may have added columns while reading
        columns: opened.headers,
        fileReport: {
          sheet: opened.sheet, sheets: opened.sheets, sheetByContent: opened.sheetByContent,
          totalRows: opened.notes.totalRows, totalRowTexts: opened.notes.totalRowTexts, paddedNumbers: opened.notes.paddedNumbers, paddedRows: opened.notes.paddedRows,
        },
      });
      if (!out.ok) {
        await this.#store.batches.discardJob(jobId);
        const resetsAt = quotaResetsAt(now);
        throw new AppError(
          'quota_exceeded',
          `this file has ${out.needed} distinct business numbers to look up but ${out.remaining} lookups are left this month; nothing was charged. Send paid=true to run it with the excess billed as overage, or offline=true to answer from stored data only`,
          { headers: { 'retry-after': String(secondsUntil(resetsAt, now)) }, extra: { needed: out.needed, remaining: out.remaining, resets_at: toSeoulIso(resetsAt) } },
        );
      }
      accepted = true;
      this.#queued();
      return { job: out.job, created: true };
    } catch (err) {
      tee.destroy();
      // the parsing thread too, when the failure was ours and not the file's
      await opened.close();
      await this.#store.batches.discardJob(jobId).catch(() => undefined);
      throw asHttpError(err);
    } finally {
      warmer.stop();
      // an accepted job's numbers are charged with it; a refused upload keeps what it asked
      this.#warmAllowance.release(req.account.id, day, accepted ? reserved : reserved - warmer.stats.sent);
      clearInterval(renewal);
    }
  }

  /** How many of an upload's numbers the warmer may ask NTS about: what the account could spend anyway. */
  async #warmLimit(req: UploadRequest, now: Date): Promise<number> {
    if (!this.#warm || req.offline) return 0;
    if (req.paid) return this.#limits.maxRows;
    const limit = monthlyLimit(req.account.plan, req.account.quotaLimit);
    const { used } = await this.#store.usage.get(req.account.id, quotaMonth(now));
    return Math.max(0, Math.min(this.#limits.maxRows, limit - used));
  }

  #leaseEnd(): string {
    return new Date(this.#now().getTime() + this.#limits.uploadLeaseMs).toISOString();
  }

  /** Removes uploads whose process died (their lease ran out): their chunks, and their hold on an Idempotency-Key. */
  sweepDeadUploads(): Promise<number> {
    return this.#store.batches.sweepUploads(this.#now().toISOString());
  }

  #tooLarge(): AppError {
    const mb = Math.round((this.#limits.maxFileBytes / 1024 ** 2) * 10) / 10;
    return new AppError('payload_too_large', `the file is larger than the upload limit of ${mb} MB; split it and upload the parts`, { extra: { limit_bytes: this.#limits.maxFileBytes } });
  }

  /** Same key again: the same file gets the job back; a different file is a conflict. */
  async #replay(existing: BatchJob, body: Readable, hash: ReturnType<typeof createHash>): Promise<BatchJob> {
    for await (const _ of body) {
      // drained only to fingerprint what was sent
    }
    const fingerprint = hash.digest('hex');
    if (existing.status === 'uploading') throw new AppError('conflict', 'a job with this Idempotency-Key is being created; retry in a moment');
    if (existing.fingerprint && existing.fingerprint !== fingerprint) {
      throw new AppError('conflict', `Idempotency-Key was already used for job ${existing.id} with a different file`);
    }
    return existing;
  }
}

function asHttpError(err: unknown): unknown {
  if (isFileError(err)) {
    return new AppError(err.status === 413 ? 'payload_too_large' : 'bad_request', err.message, { extra: { file_error: err.code, ...err.details } });
  }
  return err;
}

/** Outcomes a request may carry (a JSON array, or the data rows of a file). */
export const LABELS_PER_REQUEST = 100_000;

export interface LabelFileUpload {
  file: Readable;
  filename: string | null;
  contentType: string | null;
  sheet?: string | undefined;
  /** the outcome of rows that give neither one nor a reason (a file of returned mail: true) */
  defaultBounced: boolean | null;
  /** the upload was cut at the size limit */
  truncated: () => boolean;
}

/** What a bulk label request recorded. */
export interface LabelsRecorded {
  job: BatchJob;
  /** rows labelled (an item by number labels every row with it) */
  recorded: number;
  /** of them, bounces */
  bounced: number;
  /** of them, rows that had a label before */
  replaced: number;
  causes: Partial<Record<ReturnCause, number>>;
  rejected: LabelRejection[];
  at: string;
}

function labelRecord(account: Account, job: BatchJob, row: RowFacts, o: { bounced: boolean; reason: string | null; cause: ReturnCause | null }, at: string): LabelRecord {
  return {
    accountId: account.id, jobId: job.id, rowId: row.rowId, bno: row.bno, addressKey: row.addressKey,
    bounced: o.bounced, reason: o.reason, cause: o.cause, features: row.features, modelVersion: row.modelVersion, at,
  };
}
