// Batch jobs as an account uses them. Creating one from an uploaded file: rows stream from the
// file into the store a chunk at a time as they are read (never the whole file in memory), the
// distinct numbers are counted on the way, then one transaction charges the quota and queues the
// job; any failure before that leaves nothing behind. Then its status, the account's list, its
// rows with their results, and labels of what the mail really did. Another account's job is as
// unknown as one that does not exist.
import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { monthlyLimit } from '../domain/plans.ts';
import { quotaMonth, quotaResetsAt, secondsUntil, toSeoulIso } from '../domain/quota-period.ts';
import { hasValidCheckDigit } from '../domain/bizno.ts';
import { newId } from '../accounts/api-key.ts';
import { AppError } from '../errors.ts';
import type { BatchJob, BatchRow, BatchRowInput, Tally } from '../domain/batch.ts';
import type { Store } from '../store/store.ts';
import { appendChunk } from './chunks.ts';
import { allRows, getRow, rowsAfter } from './job-rows.ts';
import type { Account } from '../domain/account.ts';
import { isFileError } from './files/errors.ts';
import type { ColumnOverrides } from './files/read-rows.ts';
import { ParserPool } from './files/isolated-rows.ts';
import { rowChars } from './files/parse-protocol.ts';
import { NumberTally } from './number-tally.ts';

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
  /** true once the upload was cut at the size limit */
  truncated?: () => boolean;
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
}

export class BatchService {
  readonly #store: Store;
  readonly #limits: BatchLimits;
  readonly #now: () => Date;
  readonly #queued: () => void;
  readonly #parsers: ParserPool;

  constructor(store: Store, limits: BatchLimits, opts: { now?: () => Date; onQueued?: () => void } = {}) {
    this.#store = store;
    this.#limits = limits;
    this.#now = opts.now ?? (() => new Date());
    this.#queued = opts.onQueued ?? (() => {});
    this.#parsers = new ParserPool({ heapMb: limits.parseHeapMb });
  }

  /** The account's job with its counts and its first `preview` rows. */
  async get(account: Account, jobId: string, preview: number): Promise<{ job: BatchJob; counts: Tally; preview: BatchRow[] }> {
    const job = await this.#own(account, jobId);
    return { job, counts: await this.#store.batches.counts(job.id), preview: await rowsAfter(this.#store.batches, job.id, 0, preview) };
  }

  /** The account's jobs, newest first, `limit` at a time; `before` continues after that job. */
  async list(account: Account, limit: number, before?: string): Promise<{ jobs: BatchJob[]; nextBefore: string | null }> {
    const after = before === undefined ? undefined : await this.#own(account, before);
    // one job past the page says whether another page exists, without a count query
    const jobs = await this.#store.batches.listJobs(account.id, limit + 1, after && { createdAt: after.createdAt, id: after.id });
    const page = jobs.slice(0, limit);
    return { jobs: page, nextBefore: jobs.length > limit ? page.at(-1)!.id : null };
  }

  /** The account's job and every row of it with its result, read a chunk at a time. */
  async rows(account: Account, jobId: string): Promise<{ job: BatchJob; rows: AsyncGenerator<BatchRow> }> {
    const job = await this.#own(account, jobId);
    return { job, rows: allRows(this.#store.batches, job.id) };
  }

  /** Records what the mail to one processed row really did, with the features it was scored on. */
  async label(account: Account, jobId: string, l: { rowId: number; bounced: boolean; reason: string | null }): Promise<{ job: BatchJob; row: BatchRow; replaced: boolean; modelVersion: string | null; at: string }> {
    const job = await this.#own(account, jobId);
    const row = await getRow(this.#store.batches, job.id, l.rowId);
    if (!row) throw new AppError('not_found', `job ${job.id} has no row ${l.rowId} (it has ${job.total})`);
    if (!row.result) throw new AppError('conflict', `row ${row.rowId} has not been processed yet; label it once the job has reached it`);
    const at = this.#now().toISOString();
    const modelVersion = typeof row.result.model_version === 'string' ? row.result.model_version : null;
    const { replaced } = await this.#store.labels.put({
      accountId: account.id, jobId: job.id, rowId: row.rowId, bno: row.bno ?? row.bnoRaw, addressKey: row.addressKey,
      bounced: l.bounced, reason: l.reason, features: row.features ?? {}, modelVersion, at,
    });
    return { job, row, replaced, modelVersion, at };
  }

  async #own(account: Account, jobId: string): Promise<BatchJob> {
    const job = await this.#store.batches.getJob(account.id, jobId);
    if (!job) throw new AppError('not_found', `no batch job ${jobId}`);
    return job;
  }

  /** Ends the idle file-parsing threads. */
  close(): Promise<void> {
    return this.#parsers.close();
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
        offline: req.offline, paid: req.paid, month: quotaMonth(now), idempotencyKey: req.idempotencyKey ?? null, fingerprint: null, createdAt: now.toISOString(),
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
          if (valid) tally.add(row.bno!, chunkNo);
          chunk.push({ rowId: row.rowId, bnoRaw: row.bnoRaw, bno: row.bno, valid, name: row.name, address: row.address, cells: row.cells });
          chars += rowChars(row.cells);
          total = row.rowId;
          // a chunk is what a worker holds and a download reads at once: bounded by its text too,
          // or 1,000 rows of 256 wide cells would be hundreds of MB
          if (chunk.length === chunkSize || chars >= chunkChars) {
            await appendChunk(this.#store.batches, jobId, chunkNo++, chunk, opened.headers);
            chunk = [];
            chars = 0;
          }
        }
      }
      await appendChunk(this.#store.batches, jobId, chunkNo, chunk, opened.headers);
      if (req.truncated?.()) throw this.#tooLarge();
      const fingerprint = hash.digest('hex');
      const account = req.account;
      const out = await this.#store.batches.finalizeJob(jobId, {
        total,
        distinct: tally.size,
        sharedNumbers: tally.sharedNumbers(),
        sharedChunks: tally.sharedChunks(),
        limit: monthlyLimit(account.plan, account.quotaLimit),
        charge: !req.offline,
        paid: req.paid,
        now: this.#now(),
        fingerprint,
        // wide rows or late JSON keys may have added columns while reading
        columns: opened.headers,
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
      this.#queued();
      return { job: out.job, created: true };
    } catch (err) {
      tee.destroy();
      // the parsing thread too, when the failure was ours and not the file's
      await opened.close();
      await this.#store.batches.discardJob(jobId).catch(() => undefined);
      throw asHttpError(err);
    } finally {
      clearInterval(renewal);
    }
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
