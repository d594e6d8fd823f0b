// Batch jobs, their chunks and numbers, on either engine. Chunks are claimed with FOR UPDATE SKIP
// LOCKED on PostgreSQL, so any number of worker processes share the queue without waiting on
// each other (the embedded store's transaction holds the file); completions re-check the lease
// inside their transaction. What is charged, refunded and when a job ends is decided in
// domain/charges.ts and domain/job-progress.ts; this module locks, reads and writes.
import { isDeepStrictEqual } from 'node:util';
import type { StatusAnswer } from '../domain/status.ts';
import { chargeJob, splitRefund } from '../domain/charges.ts';
import { afterChunk } from '../domain/job-progress.ts';
import { seoulDay } from '../domain/quota-period.ts';
import { type BatchJob, type CacheAnswers, type CachePins, type ChunkLease, DAILY_LIMIT_REASON, isFinished, retentionCutoff, type NumberOutcome, type SharedNumber, type Tally } from '../domain/batch.ts';
import type { ChunkCommit, ChunkText, CompleteOutcome, DeletedJob, FinalizeOptions, FinalizeOutcome, NewJob, StoredChunkText, UnansweredCount } from './batch-store.ts';
import { toJob, toLease } from './batch-rows.ts';
import { bool, json, num } from './rows.ts';
import { listTable, OverSql, type Sql } from './sql.ts';
import { enqueueEvent } from './watches.ts';
import { forgetJobAddresses } from './label-store.ts';
import { addUsage, lockUsage, takeBackUsage, usedSoFar } from './usage-store.ts';

/** Thrown inside a transaction to roll it back and report what another chunk recorded first. */
class SharedConflict {
  readonly answers: Map<string, StatusAnswer | null>;
  constructor(answers: Map<string, StatusAnswer | null>) {
    this.answers = answers;
  }
}

const answerText = (n: NumberOutcome): string | null => (n.answer ? JSON.stringify(n.answer) : null);

async function lockJob(t: Sql, jobId: string): Promise<BatchJob> {
  return toJob((await t.get('SELECT * FROM batch_jobs WHERE id = ? FOR UPDATE', [jobId]))!);
}

async function countsOf(sql: Sql, jobId: string): Promise<Tally> {
  const out: Tally = { byStatus: {}, byGrade: {} };
  for (const r of await sql.all('SELECT kind, value, n FROM batch_counts WHERE job_id = ?', [jobId])) {
    (r.kind === 'status' ? out.byStatus : out.byGrade)[String(r.value)] = Number(r.n);
  }
  return out;
}

/** A wait for the next day's allowance, as opposed to an outage (timed apart). */
const dailyOf = (why: unknown): boolean => typeof why === 'string' && why.startsWith(DAILY_LIMIT_REASON);

export class BatchStore extends OverSql {
  /**
   * Whether chunks holding shared numbers complete from the cache in SQL (cachedGroups, checked
   * against the answers recorded for the job: recordCacheAnswers). On the embedded store this,
   * with the answers recorded when the job is accepted (insertShared, both stores), is what keeps
   * a list that repeats its customers fast. On PostgreSQL such chunks go the general way: there
   * the check cost more than it saved (a numbers-only list with each number 2–3 times, two
   * workers: 12,587 against 19,992 rows/s; bench/RESULTS.md, session 36).
   */
  get sharedFromCache(): boolean {
    return this.sql.dialect === 'sqlite';
  }

  /** A job in state 'uploading', invisible but to its Idempotency-Key, leased to its uploader until `uploadLeaseUntil`. */
  async createJob(j: NewJob): Promise<void> {
    await this.sql.run(
      `INSERT INTO batch_jobs (id, account_id, status, filename, file_kind, columns, chosen, offline, paid, month, idempotency_key, fingerprint, created_at, upload_lease_until, locale)
       VALUES (?, ?, 'uploading', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [j.id, j.accountId, j.filename, j.fileKind, JSON.stringify(j.columns), JSON.stringify(j.chosen), j.offline, j.paid, j.month, j.idempotencyKey, j.fingerprint, j.createdAt, j.uploadLeaseUntil, j.locale ?? 'ko'],
    );
  }

  /** Extends an upload's lease; false when the job is no longer uploading (swept, or finalized). */
  async renewUpload(jobId: string, until: string): Promise<boolean> {
    return (await this.sql.run("UPDATE batch_jobs SET upload_lease_until = ? WHERE id = ? AND status = 'uploading'", [until, jobId])) > 0;
  }

  /**
   * Stores rows firstRow..lastRow of an uploading job as chunk `chunkNo` (rows in order, none
   * missing), encoded by batch/chunk-codec.ts.
   */
  async appendChunk(jobId: string, chunkNo: number, c: ChunkText): Promise<void> {
    await this.sql.run('INSERT INTO batch_chunk_rows (job_id, chunk_no, first_row, last_row, rows, lookups) VALUES (?, ?, ?, ?, ?, ?::jsonb)', [
      jobId, chunkNo, c.firstRow, c.lastRow, c.rows, c.lookups,
    ]);
  }

  /**
   * In one transaction: charges the job's distinct numbers to the month (unless `charge` is
   * false) — all within the limit, or with the excess as overage when `paid`, or nothing and
   * { ok: false } — records its shared numbers, creates a chunk for each appended one (same
   * numbers and rows) and queues the job.
   */
  finalizeJob(jobId: string, o: FinalizeOptions): Promise<FinalizeOutcome> {
    return this.sql.tx(async (t): Promise<FinalizeOutcome> => {
      const job = await lockJob(t, jobId);
      const charging = o.charge && o.distinct > 0;
      const record = (): Promise<CachePins | null> =>
        insertShared(t, jobId, o.sharedNumbers, o.cachedFrom !== undefined ? { source: o.cachedFrom, at: o.now.toISOString() } : null);
      // the shared numbers before the account's usage row is locked: recording their answers is
      // the long part of accepting a list that repeats its customers (3.5 s for 400,000 numbers
      // on PostgreSQL, 1.6 s of it without their answers), and the locked row holds every single
      // lookup of the account meanwhile. A job the charge looks like refusing (read without the
      // lock) records them only if it is accepted.
      const early = o.sharedNumbers.length > 0 && (!charging || chargeJob({ used: await usedSoFar(t, job.accountId, job.month), limit: o.limit, distinct: o.distinct, paid: o.paid }).ok);
      let pins = early ? await record() : null;
      let charged = 0;
      let overage = 0;
      if (charging) {
        // the counter's lock serialises this job's charge with every other reservation of the account
        const usage = await lockUsage(t, job.accountId, job.month);
        const charge = chargeJob({ used: usage.used, limit: o.limit, distinct: o.distinct, paid: o.paid });
        // refused: the job is discarded, with any numbers recorded above
        if (!charge.ok) return charge;
        ({ charged, overage } = charge);
        await addUsage(t, job.accountId, job.month, charged, overage, seoulDay(o.now));
      }
      if (o.sharedNumbers.length > 0 && !early) pins = await record();
      // chunks are cut by rows and by characters while uploading: their bounds are the stored rows'
      const chunks = await t.run(
        `INSERT INTO batch_chunks (job_id, chunk_no, first_row, last_row, state, job_created_at, shared)
         SELECT job_id, chunk_no, first_row, last_row, 'pending', ?, chunk_no = ANY(?::int[]) FROM batch_chunk_rows WHERE job_id = ?`,
        [job.createdAt, o.sharedChunks, jobId],
      );
      const done = chunks === 0;
      const r = await t.get(
        `UPDATE batch_jobs SET status = ?, total = ?, distinct_numbers = ?, chunks_total = ?, charged = ?, overage = ?, finished_at = ?,
           fingerprint = coalesce(?, fingerprint), columns = coalesce(?::jsonb, columns), file_report = coalesce(?::jsonb, file_report),
           pinned_seq = ?, pinned_source = ?, pinned_at = ?
          WHERE id = ? RETURNING *`,
        [
          done ? 'done' : 'queued', o.total, o.distinct, chunks, charged, overage, done ? o.now.toISOString() : null, o.fingerprint ?? null, o.columns ? JSON.stringify(o.columns) : null,
          o.fileReport ? JSON.stringify(o.fileReport) : null, pins?.seq ?? null, pins?.source ?? null, pins?.at ?? null, jobId,
        ],
      );
      return { ok: true, job: toJob(r!) };
    });
  }

  /** Deletes a job and everything of it (a failed upload, a refused job). */
  async discardJob(jobId: string): Promise<void> {
    await this.sql.run('DELETE FROM batch_jobs WHERE id = ?', [jobId]);
  }

  /**
   * Deletes the account's job on request, in one transaction: its uploaded rows, results, counts
   * and numbers go (the tables cascade from the job), a job still queued or processing is stopped
   * with the numbers it will never answer refunded, and its labels keep only what the model was
   * fed — the number, the outcome, its cause and the features — losing the address they were
   * tallied by and the free-text reason. Null, changing nothing, for another account's job or an
   * upload still streaming in. The chunks are locked before the job, in the order a worker
   * completing one takes them, so a completion racing the deletion waits or finds nothing.
   */
  deleteJob(accountId: string, jobId: string, unanswered: UnansweredCount, day?: string): Promise<DeletedJob> {
    return this.sql.tx(async (t): Promise<DeletedJob> => {
      const own = await t.get("SELECT 1 AS x FROM batch_jobs WHERE id = ? AND account_id = ? AND status <> 'uploading'", [jobId, accountId]);
      if (!own) return null;
      await t.all('SELECT chunk_no FROM batch_chunks WHERE job_id = ? ORDER BY chunk_no FOR UPDATE', [jobId]);
      const job = await lockJob(t, jobId);
      let refunded = 0;
      if (!isFinished(job.status) && !job.offline) {
        const pending = await t.all(
          "SELECT r.rows, j.columns FROM batch_chunk_rows r JOIN batch_chunks c ON c.job_id = r.job_id AND c.chunk_no = r.chunk_no JOIN batch_jobs j ON j.id = r.job_id WHERE r.job_id = ? AND c.state <> 'done'",
          [jobId],
        );
        const shared = await t.all('SELECT b_no, answered FROM batch_numbers WHERE job_id = ?', [jobId]);
        refunded = unanswered(pending.map((r) => ({ rows: r.rows, columns: r.columns })), new Set(shared.map((r) => String(r.b_no))));
        refunded += shared.filter((r) => !bool(r.answered)).length;
        // never more than what is still charged
        refunded = Math.min(refunded, job.charged + job.overage);
        const refund = splitRefund(refunded, job.overage);
        await takeBackUsage(t, job.accountId, job.month, refund.used, refund.overage, day);
      }
      const labels = await forgetJobAddresses(t, accountId, jobId);
      await t.run('DELETE FROM batch_jobs WHERE id = ?', [jobId]);
      return { refunded, labels };
    });
  }

  /**
   * Finished jobs whose rows are past retention at `now`, at most `limit`: the jobs of accounts
   * with their own retention by theirs, every other account's by `defaultDays`.
   */
  async expiring(now: Date, defaultDays: number, limit: number): Promise<{ id: string; accountId: string }[]> {
    const out: { id: string; accountId: string }[] = [];
    const own = await this.sql.all('SELECT id, batch_retention_days FROM accounts WHERE batch_retention_days IS NOT NULL');
    for (const a of own) {
      if (out.length >= limit) break;
      const cutoff = retentionCutoff(now, Number(a.batch_retention_days)).toISOString();
      const rows = await this.sql.all(
        "SELECT id, account_id FROM batch_jobs WHERE account_id = ? AND expired_at IS NULL AND status IN ('done', 'failed') AND finished_at < ? ORDER BY finished_at LIMIT ?",
        [a.id, cutoff, limit - out.length],
      );
      out.push(...rows.map((r) => ({ id: String(r.id), accountId: String(r.account_id) })));
    }
    if (out.length < limit) {
      const rows = await this.sql.all(
        `SELECT j.id, j.account_id FROM batch_jobs j JOIN accounts a ON a.id = j.account_id
          WHERE j.expired_at IS NULL AND j.status IN ('done', 'failed') AND j.finished_at < ? AND a.batch_retention_days IS NULL
          ORDER BY j.finished_at LIMIT ?`,
        [retentionCutoff(now, defaultDays).toISOString(), limit - out.length],
      );
      out.push(...rows.map((r) => ({ id: String(r.id), accountId: String(r.account_id) })));
    }
    return out;
  }

  /**
   * Marks a job expired at `now`, in one transaction: from then on it answers with its counts and
   * when it expired, not its rows; its file name goes, and its labels lose their addresses and
   * reasons as on deletion. False when it was already marked (another sweep got there first).
   * The rows themselves are deleted afterwards, a few chunks at a time (purgeExpired).
   */
  expireJob(jobId: string, accountId: string, now: Date): Promise<boolean> {
    return this.sql.tx(async (t) => {
      const marked = await t.run('UPDATE batch_jobs SET expired_at = ?, filename = NULL WHERE id = ? AND expired_at IS NULL', [now.toISOString(), jobId]);
      if (marked === 0) return false;
      await forgetJobAddresses(t, accountId, jobId);
      return true;
    });
  }

  /**
   * Deletes up to `chunks` chunks' rows and results of expired jobs, in one short transaction;
   * returns how many chunks went (0: nothing of an expired job is left). Counts stay with the job.
   */
  purgeExpired(chunks: number): Promise<number> {
    return this.sql.tx(async (t) => {
      const some = await t.all(
        `SELECT r.job_id, r.chunk_no FROM batch_chunk_rows r JOIN batch_jobs j ON j.id = r.job_id
          WHERE j.expired_at IS NOT NULL ORDER BY r.job_id, r.chunk_no LIMIT ?`,
        [chunks],
      );
      for (const r of some) {
        await t.run('DELETE FROM batch_chunks WHERE job_id = ? AND chunk_no = ?', [r.job_id, r.chunk_no]);
        await t.run('DELETE FROM batch_chunk_rows WHERE job_id = ? AND chunk_no = ?', [r.job_id, r.chunk_no]);
      }
      // what is kept per job, not per chunk: the shared numbers' answers
      if (some.length === 0) await t.run('DELETE FROM batch_numbers WHERE job_id IN (SELECT id FROM batch_jobs WHERE expired_at IS NOT NULL)');
      return some.length;
    });
  }

  /** Deletes uploads whose lease ran out before `now` (their process died), chunks and all; returns how many. */
  sweepUploads(now: string): Promise<number> {
    return this.sql.run("DELETE FROM batch_jobs WHERE status = 'uploading' AND upload_lease_until < ?", [now]);
  }

  /** The account's job (uploads in progress are not jobs yet); null for another account's. */
  async getJob(accountId: string, jobId: string): Promise<BatchJob | null> {
    const r = await this.sql.get("SELECT * FROM batch_jobs WHERE id = ? AND account_id = ? AND status <> 'uploading'", [jobId, accountId]);
    return r ? toJob(r) : null;
  }

  /** A job whoever's it is: for the worker holding one of its chunks, operators and tests. */
  async jobById(jobId: string): Promise<BatchJob | null> {
    const r = await this.sql.get("SELECT * FROM batch_jobs WHERE id = ? AND status <> 'uploading'", [jobId]);
    return r ? toJob(r) : null;
  }

  async findJobByIdempotencyKey(accountId: string, key: string): Promise<BatchJob | null> {
    const r = await this.sql.get('SELECT * FROM batch_jobs WHERE account_id = ? AND idempotency_key = ?', [accountId, key]);
    return r ? toJob(r) : null;
  }

  /** Newest first; `before` (a job's created_at and id) continues a listing after that job. */
  async listJobs(accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<BatchJob[]> {
    const rows = before
      ? await this.sql.all(
          "SELECT * FROM batch_jobs WHERE account_id = ? AND status <> 'uploading' AND (created_at, id) < (?::timestamptz, ?) ORDER BY created_at DESC, id DESC LIMIT ?",
          [accountId, before.createdAt, before.id, limit],
        )
      : await this.sql.all("SELECT * FROM batch_jobs WHERE account_id = ? AND status <> 'uploading' ORDER BY created_at DESC, id DESC LIMIT ?", [accountId, limit]);
    return rows.map(toJob);
  }

  /** Leases the oldest pending (or expired) chunk of any job; marks its job processing. */
  claimChunk(holder: string, leaseMs: number, now: Date): Promise<ChunkLease | null> {
    return this.sql.tx(async (t) => {
      const r = await t.get(
        `UPDATE batch_chunks SET state = 'leased', holder = ?, lease_expires_at = ?, attempts = attempts + 1
          WHERE (job_id, chunk_no) = (
            SELECT job_id, chunk_no FROM batch_chunks
             WHERE state = 'pending' OR (state = 'leased' AND lease_expires_at < ?)
             ORDER BY job_created_at, job_id, chunk_no LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING job_id, chunk_no, first_row, last_row, attempts, shared`,
        [holder, new Date(now.getTime() + leaseMs).toISOString(), now.toISOString()],
      );
      if (!r) return null;
      await t.run("UPDATE batch_jobs SET status = 'processing', started_at = coalesce(started_at, ?) WHERE id = ? AND status = 'queued'", [now.toISOString(), r.job_id]);
      return toLease(r);
    });
  }

  /**
   * Gives a leased chunk back to wait for NTS: claimable again at `until`, its claim not counted
   * as a failed attempt, and its job marked waiting (since the first time, with the latest reason).
   * False when the lease was lost meanwhile.
   */
  deferChunk(lease: ChunkLease, holder: string, until: Date, reason: string, now: Date): Promise<boolean> {
    return this.sql.tx(async (t) => {
      const n = await t.run(
        `UPDATE batch_chunks SET lease_expires_at = ?, attempts = greatest(attempts - 1, 0)
          WHERE job_id = ? AND chunk_no = ? AND state = 'leased' AND holder = ?`,
        [until.toISOString(), lease.jobId, lease.chunkNo, holder],
      );
      if (n === 0) return false;
      // waiting for the next day's allowance and waiting out an outage are timed apart: an
      // outage after a spent day starts its own clock
      const r = await t.get('SELECT upstream_wait_since, upstream_wait_reason FROM batch_jobs WHERE id = ?', [lease.jobId]);
      const restart = r?.upstream_wait_since == null || dailyOf(r.upstream_wait_reason) !== dailyOf(reason);
      await t.run(
        `UPDATE batch_jobs SET upstream_wait_reason = ?${restart ? ', upstream_wait_since = ?' : ''} WHERE id = ?`,
        restart ? [reason, now.toISOString(), lease.jobId] : [reason, lease.jobId],
      );
      return true;
    });
  }

  /** NTS answers again: the job no longer waits. */
  async endUpstreamWait(jobId: string): Promise<void> {
    await this.sql.run('UPDATE batch_jobs SET upstream_wait_since = NULL, upstream_wait_reason = NULL WHERE id = ? AND upstream_wait_since IS NOT NULL', [jobId]);
  }

  /** A chunk's rows as stored and the job's columns; null when there is no such chunk. */
  async chunkRows(jobId: string, chunkNo: number): Promise<{ rows: unknown; columns: unknown } | null> {
    const r = await this.sql.get('SELECT r.rows, j.columns FROM batch_chunk_rows r JOIN batch_jobs j ON j.id = r.job_id WHERE r.job_id = ? AND r.chunk_no = ?', [jobId, chunkNo]);
    return r ? { rows: r.rows, columns: r.columns } : null;
  }

  /**
   * The status-cache entries of a chunk's lookups, grouped by record less its number and source,
   * as rows [template, source, earliest expires_at, rows, distinct numbers, numbers, check times,
   * latest write count] (numbers and check times JSON arrays in step; see src/batch/cached-chunk.ts); null when the chunk has
   * scored rows (or was stored without its lookups). Numbers without an entry form a group with
   * a null template.
   */
  async cachedGroups(jobId: string, chunkNo: number): Promise<unknown[][] | null> {
    // each record less its number is the template alike answers share; a record that names
    // another number gets none (not usable). Check times stay per number: a list in no order
    // holds numbers checked at a thousand different times, and a group per check time made
    // a group, and an answer written out, per number. The JSON functions are each engine's own.
    const groups =
      this.sql.dialect === 'postgres'
        ? `SELECT tmpl, source, min(expires_at), sum(n), count(*), jsonb_agg(b_no)::text, jsonb_agg(checked_at)::text, coalesce(max(written), 0)
             FROM (SELECT CASE WHEN s.record ->> 'b_no' = s.b_no THEN (s.record - 'b_no')::text END AS tmpl, s.source, s.written,
                          ${CHECKED_AT_ISO} AS checked_at, s.expires_at, l.value AS b_no, count(*) AS n
                     FROM batch_chunk_rows c CROSS JOIN LATERAL jsonb_array_elements_text(c.lookups) AS l (value)
                     LEFT JOIN status_cache s ON s.b_no = l.value
                    WHERE c.job_id = ? AND c.chunk_no = ?
                    GROUP BY l.value, s.b_no) e
            GROUP BY tmpl, source`
        : // the record as our writer spells it (its number first) is cut by text; any other
          // spelling goes through SQLite's JSON functions, slower but as correct. Times are our
          // writer's ISO text, so the earliest expiry is the least text.
          `SELECT tmpl, source, min(expires_at), sum(n), count(*), json_group_array(b_no), json_group_array(checked_at), coalesce(max(written), 0)
             FROM (SELECT CASE WHEN ${WRITERS_RECORD} THEN '{' || substr(s.record, 22)
                               WHEN json_extract(s.record, '$.b_no') = s.b_no THEN json_remove(s.record, '$.b_no') END AS tmpl,
                          s.source AS source, s.checked_at AS checked_at, s.expires_at AS expires_at, s.written AS written, l.value AS b_no, count(*) AS n
                     FROM batch_chunk_rows c, json_each(c.lookups) l
                     LEFT JOIN status_cache s ON s.b_no = l.value
                    WHERE c.job_id = ? AND c.chunk_no = ?
                    GROUP BY l.value) e
            GROUP BY tmpl, source`;
    // one round trip: a marker row (-1 rows) says whether the chunk has lookups at all (an empty list is still some)
    const rows = await this.sql.arrays(
      `SELECT NULL, NULL, NULL, -1, NULL, NULL, NULL, NULL FROM batch_chunk_rows WHERE job_id = ? AND chunk_no = ? AND lookups IS NOT NULL
       UNION ALL SELECT * FROM (${groups}) g`,
      [jobId, chunkNo, jobId, chunkNo],
    );
    return rows.some(isMarker) ? rows.filter((row) => !isMarker(row)) : null;
  }

  /** The state of these numbers among the job's shared numbers (numbers not shared are absent). */
  async sharedNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, SharedNumber>> {
    const out = new Map<string, SharedNumber>();
    if (bnos.length === 0) return out;
    const rows = await this.sql.all('SELECT b_no, answer, answered FROM batch_numbers WHERE job_id = ? AND b_no = ANY(?::text[])', [jobId, bnos]);
    for (const r of rows) out.set(String(r.b_no), r.answered ? { answered: true, answer: r.answer == null ? null : json<StatusAnswer>(r.answer) } : { answered: false });
    return out;
  }

  /**
   * In one transaction, if `holder` still holds the lease: records the shared numbers' answers
   * (those still unrecorded) and refunds what is marked — each number once per job —, stores the
   * chunk's output, adds to the job's counts and progress, marks the chunk done and the job done
   * when it was the last.
   */
  async completeChunk(lease: ChunkLease, holder: string, done: ChunkCommit, now: Date): Promise<CompleteOutcome> {
    try {
      return await this.sql.tx((t) => this.#complete(t, lease, holder, done, now));
    } catch (err) {
      if (err instanceof SharedConflict) return { status: 'conflict', answers: err.answers };
      throw err;
    }
  }

  async #complete(t: Sql, lease: ChunkLease, holder: string, done: ChunkCommit, now: Date): Promise<CompleteOutcome> {
    const held = await t.get("SELECT 1 AS x FROM batch_chunks WHERE job_id = ? AND chunk_no = ? AND state = 'leased' AND holder = ? FOR UPDATE", [lease.jobId, lease.chunkNo, holder]);
    if (!held) return { status: 'lost' };
    const job = await lockJob(t, lease.jobId);
    if (done.cacheAnswers) await recordCacheAnswers(t, lease.jobId, done.cacheAnswers);
    const refunds = done.numbers.filter((n) => !n.shared && n.refund).length + (await recordShared(t, lease.jobId, done.numbers.filter((n) => n.shared)));
    const refund = splitRefund(refunds, job.overage);
    await takeBackUsage(t, job.accountId, job.month, refund.used, refund.overage, seoulDay(now));
    await bumpCounts(t, lease.jobId, done.counts);
    await t.run("UPDATE batch_chunks SET state = 'done', holder = NULL, lease_expires_at = NULL, output = ?, facts = ? WHERE job_id = ? AND chunk_no = ?", [
      done.output, done.facts, lease.jobId, lease.chunkNo,
    ]);
    const next = afterChunk(job, done.failure ?? null);
    const after = toJob((await t.get(
      `UPDATE batch_jobs SET processed = processed + ?, chunks_done = ?, refunded = refunded + ?, overage = overage - ?, charged = charged - ?,
         failure_reason = ?, status = ?, finished_at = ?
       WHERE id = ? RETURNING *`,
      [done.rows, next.chunksDone, refunds, refund.overage, refund.used, next.failureReason, next.end ?? job.status, next.end ? now.toISOString() : job.finishedAt, lease.jobId],
    ))!);
    // the last chunk finishes the job: its batch.done event commits with it
    if (next.end) await enqueueEvent(t, after.accountId, done.doneEvent(after, await countsOf(t, after.id)), now.toISOString());
    return { status: 'done' };
  }

  counts(jobId: string): Promise<Tally> {
    return countsOf(this.sql, jobId);
  }

  /** Each chunk's number and first and last row, in file order (a row per chunk, no chunk text). */
  async chunkSpans(jobId: string): Promise<ChunkSpan[]> {
    return (await this.sql.all('SELECT chunk_no, first_row, last_row FROM batch_chunk_rows WHERE job_id = ? ORDER BY last_row', [jobId])).map(spanOf);
  }

  /** The chunk holding `rowId`, if any, without its text. */
  async chunkSpanOf(jobId: string, rowId: number): Promise<ChunkSpan | null> {
    const r = await this.sql.get('SELECT chunk_no, first_row, last_row FROM batch_chunk_rows WHERE job_id = ? AND last_row >= ? ORDER BY last_row LIMIT 1', [jobId, rowId]);
    return r && Number(r.first_row) <= rowId ? spanOf(r) : null;
  }

  /**
   * Chunks by number (those that exist), for labels: their rows, and the facts of their scored
   * rows once processed; the output only of a chunk processed before facts were kept.
   */
  async chunksByNo(jobId: string, chunkNos: readonly number[]): Promise<StoredChunkText[]> {
    if (chunkNos.length === 0) return [];
    const rows = await this.sql.all(
      `SELECT r.chunk_no, r.first_row, r.last_row, r.rows, c.facts, CASE WHEN c.facts IS NULL THEN c.output END AS output,
              CASE WHEN c.output IS NULL THEN 0 ELSE 1 END AS processed, j.columns FROM batch_chunk_rows r
         JOIN batch_jobs j ON j.id = r.job_id
         LEFT JOIN batch_chunks c ON c.job_id = r.job_id AND c.chunk_no = r.chunk_no
        WHERE r.job_id = ? AND r.chunk_no IN (${chunkNos.map(() => '?').join(', ')})`,
      [jobId, ...chunkNos],
    );
    return rows.map((r) => ({ ...spanOf(r), rows: r.rows, output: r.output, columns: r.columns, facts: r.facts, processed: Number(r.processed) === 1 }));
  }

  /** Chunks in file order whose rows come after `afterRowId`, at most `limit` chunks. */
  async chunksAfter(jobId: string, afterRowId: number, limit: number): Promise<StoredChunkText[]> {
    const rows = await this.sql.all(
      `SELECT r.chunk_no, r.first_row, r.last_row, r.rows, c.output, j.columns FROM batch_chunk_rows r
         JOIN batch_jobs j ON j.id = r.job_id
         LEFT JOIN batch_chunks c ON c.job_id = r.job_id AND c.chunk_no = r.chunk_no
        WHERE r.job_id = ? AND r.last_row > ? ORDER BY r.last_row LIMIT ?`,
      [jobId, afterRowId, limit],
    );
    return rows.map((r) => ({ ...spanOf(r), rows: r.rows, output: r.output, columns: r.columns }));
  }
}

interface ChunkSpan {
  chunkNo: number;
  firstRow: number;
  lastRow: number;
}

const spanOf = (r: Record<string, unknown>): ChunkSpan => ({ chunkNo: Number(r.chunk_no), firstRow: Number(r.first_row), lastRow: Number(r.last_row) });

/** PostgreSQL: the cache entry `s`'s check time as the store reads it back for a cache hit (a Date's toISOString: UTC, milliseconds). */
const CHECKED_AT_ISO = `to_char(s.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * SQLite: the cache entry `s`'s record is as our writer spells it, its own number first
 * (JSON.stringify of a record read from NTS): its number and the rest can be cut by text.
 */
const WRITERS_RECORD = `(substr(s.record, 1, 9) = '{"b_no":"' AND substr(s.record, 10, 10) = s.b_no AND substr(s.record, 20, 2) = '",')`;

/** cachedGroups' marker row: the chunk has lookups */
const isMarker = (row: unknown[]): boolean => Number(row[3]) === -1;

/** Adds a chunk's rows by status and grade to the job's counts, in one statement. */
async function bumpCounts(t: Sql, jobId: string, counts: Tally): Promise<void> {
  const tally = [...Object.entries(counts.byStatus).map(([v, n]) => ['status', v, n] as const), ...Object.entries(counts.byGrade).map(([v, n]) => ['grade', v, n] as const)];
  if (tally.length === 0) return;
  await t.run(
    `INSERT INTO batch_counts (job_id, kind, value, n) VALUES ${tally.map(() => '(?, ?, ?, ?)').join(', ')}
     ON CONFLICT (job_id, kind, value) DO UPDATE SET n = batch_counts.n + excluded.n`,
    tally.flatMap(([kind, value, n]) => [jobId, kind, value, n]),
  );
}

/**
 * Keeps a job's shared numbers, each to be answered once. With `pin` (the registry the job's
 * lookups answer from), those with a fresh cache entry of that registry are recorded answered at
 * once, as a cache hit answers them (src/registry/status-service.ts): the job's answer for a
 * number it holds several times is then fixed when the job is accepted, and no chunk writes it
 * (on a list that repeats its customers, recording answers chunk by chunk, each in a random place
 * of the table, cost more than the rest of the work; on PostgreSQL, recording them and reading
 * them back took ~23 µs of the server's CPU a row of such a list). The others wait for the first
 * chunk that answers them (recordShared). Inserted in one statement, in key order (a third faster
 * than the upload's order, and the list comes sorted so that the cache is read in its order too);
 * on SQLite a record as our writer spells it is copied as text, not parsed; a record that names
 * another number is left to the chunks, as the cache path leaves it (cachedGroups). Returns what
 * was recorded from on the embedded store (the job keeps it: BatchJob.cachePins), or null when
 * nothing was or on PostgreSQL, whose cache writes are not counted: there no chunk reads its
 * entries as pinned (BatchStore.sharedFromCache).
 */
async function insertShared(t: Sql, jobId: string, bnos: readonly string[], pin: Omit<CachePins, 'seq'> | null): Promise<CachePins | null> {
  if (pin === null) {
    await t.run(`INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered) SELECT ?, value, NULL, false, false FROM ${listTable(t.dialect, 'text')}`, [jobId, bnos]);
    return null;
  }
  if (t.dialect === 'postgres') {
    await t.run(
      `INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered)
       SELECT ?, l.value,
              CASE WHEN s.b_no IS NOT NULL THEN jsonb_build_object('record', s.record, 'source', s.source,
                'checkedAt', ${CHECKED_AT_ISO}, 'fromCache', true, 'stale', false) END,
              false, s.b_no IS NOT NULL
         FROM unnest(?::text[]) AS l (value)
         LEFT JOIN status_cache s ON s.b_no = l.value AND s.source = ? AND s.expires_at > ?::timestamptz AND s.record ->> 'b_no' = s.b_no
        ORDER BY l.value`,
      [jobId, bnos, pin.source, pin.at],
    );
    return null;
  }
  // the count of cache writes first: an entry written after it may or may not be among those read below
  const seq = num(await t.get('SELECT seq FROM status_cache_writes WHERE id = 1'), 'seq');
  await t.run(
    `INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered)
     SELECT ?, l.value,
            CASE WHEN s.b_no IS NOT NULL THEN '{"record":' || CASE WHEN ${WRITERS_RECORD} THEN s.record ELSE json(s.record) END
              || ',"source":' || json_quote(s.source) || ',"checkedAt":' || json_quote(s.checked_at) || ',"fromCache":true,"stale":false}' END,
            false, s.b_no IS NOT NULL
       FROM json_each(?) l LEFT JOIN status_cache s ON s.b_no = l.value AND s.source = ? AND s.expires_at > ? AND (${WRITERS_RECORD} OR json_extract(s.record, '$.b_no') = s.b_no)
      ORDER BY l.value`,
    [jobId, JSON.stringify(bnos), pin.source, pin.at],
  );
  return { seq, ...pin };
}

/**
 * Records the answers of a chunk answered from fresh cache entries for those of its numbers that
 * are shared and still unrecorded, built from the entries themselves (the answer a cache hit
 * gives: src/registry/status-service.ts), and then checks that every shared number of the chunk
 * has the answer of the entry the chunk read. A number recorded otherwise (looked up afresh by
 * another chunk, or its entry refreshed since it was read) is a conflict: nothing is written and
 * the chunk goes the general way, which takes the recorded answers. The check compares the
 * entry's source and check time, which name one answer of NTS; a false conflict costs only time.
 */
async function recordCacheAnswers(t: Sql, jobId: string, a: CacheAnswers): Promise<void> {
  if (a.bnos.length === 0) return;
  const pg = t.dialect === 'postgres';
  // the lists as a table v (b_no, source, checked_at): three arrays on PostgreSQL, one JSON array of triples on SQLite
  const chunk = pg
    ? 'unnest(?::text[], ?::text[], ?::text[]) AS v (b_no, source, checked_at)'
    : '(SELECT value ->> 0 AS b_no, value ->> 1 AS source, value ->> 2 AS checked_at FROM json_each(?)) AS v';
  const params = pg ? [a.bnos, a.sources, a.checkedAts, jobId] : [JSON.stringify(a.bnos.map((bno, i) => [bno, a.sources[i], a.checkedAts[i]])), jobId];
  const same = pg
    ? "b.answer ->> 'source' = v.source AND b.answer ->> 'checkedAt' = v.checked_at AND b.answer -> 'fromCache' = 'true'::jsonb AND b.answer -> 'stale' = 'false'::jsonb"
    : "b.answer ->> '$.source' = v.source AND b.answer ->> '$.checkedAt' = v.checked_at AND b.answer ->> '$.fromCache' = 1 AND b.answer ->> '$.stale' = 0";
  // the chunk's shared numbers still unrecorded, and those recorded otherwise; CROSS JOIN keeps the
  // chunk's list outermost on SQLite (the other order reads the job's every number per element)
  const tally = async () => {
    const r = await t.get(
      `SELECT count(CASE WHEN NOT b.answered THEN 1 END) AS unanswered, count(CASE WHEN b.answered AND NOT (${same}) THEN 1 END) AS differing
         FROM ${chunk} ${pg ? 'JOIN' : 'CROSS JOIN'} batch_numbers b ON b.job_id = ? AND b.b_no = v.b_no`,
      params,
    );
    return { unanswered: num(r, 'unanswered'), differing: num(r, 'differing') };
  };
  let state = await tally();
  // most often there is nothing to write: a job records at once the numbers the cache answers (insertShared)
  if (state.differing === 0 && state.unanswered > 0) {
    await t.run(
      pg
        ? `UPDATE batch_numbers b SET answer = jsonb_build_object('record', s.record, 'source', v.source, 'checkedAt', v.checked_at, 'fromCache', true, 'stale', false),
                  refunded = false, answered = true
             FROM ${chunk} JOIN status_cache s ON s.b_no = v.b_no AND s.source = v.source AND s.checked_at = v.checked_at::timestamptz
            WHERE b.job_id = ? AND b.b_no = v.b_no AND NOT b.answered`
        : `UPDATE batch_numbers AS b SET answer = json_object('record', json(s.record), 'source', v.source, 'checkedAt', v.checked_at, 'fromCache', json('true'), 'stale', json('false')),
                  refunded = false, answered = true
             FROM ${chunk} JOIN status_cache s ON s.b_no = v.b_no AND s.source = v.source AND s.checked_at = v.checked_at
            WHERE b.job_id = ? AND b.b_no = v.b_no AND NOT b.answered`,
      params,
    );
    // an entry refreshed since the chunk read it was not recorded: still unanswered
    state = await tally();
  }
  if (state.differing > 0 || state.unanswered > 0) throw new SharedConflict(new Map());
}

/**
 * Records the shared numbers this chunk answers first (each number's answer and refund, once per
 * job); returns how many of those to refund. A number another chunk recorded first with another
 * answer rolls the transaction back with theirs (the chunk is redone with them).
 */
async function recordShared(t: Sql, jobId: string, shared: readonly NumberOutcome[]): Promise<number> {
  if (shared.length === 0) return 0;
  const mine = new Set<string>();
  let refunds = 0;
  if (t.dialect === 'postgres') {
    // one statement for all of them: round trips are what costs on a server
    const recorded = await t.all(
      `UPDATE batch_numbers b SET answer = v.answer, refunded = v.refund, answered = true
         FROM unnest(?::text[], ?::jsonb[], ?::bool[]) AS v (b_no, answer, refund)
        WHERE b.job_id = ? AND b.b_no = v.b_no AND NOT b.answered
        RETURNING b.b_no, b.refunded`,
      [shared.map((n) => n.bno), shared.map(answerText), shared.map((n) => n.refund), jobId],
    );
    for (const r of recorded) {
      mine.add(String(r.b_no));
      if (r.refunded) refunds++;
    }
  } else {
    // in process, a prepared statement per number is the fast form
    for (const n of shared) {
      if ((await t.run('UPDATE batch_numbers SET answer = ?, refunded = ?, answered = true WHERE job_id = ? AND b_no = ? AND NOT answered', [answerText(n), n.refund, jobId, n.bno])) > 0) {
        mine.add(n.bno);
        if (n.refund) refunds++;
      }
    }
  }
  const others = shared.filter((n) => !mine.has(n.bno));
  if (others.length > 0) {
    // recorded by another chunk first: fine when it is the same answer, else this chunk is redone with theirs
    const theirs = new Map((await t.all('SELECT b_no, answer FROM batch_numbers WHERE job_id = ? AND b_no = ANY(?::text[])', [jobId, others.map((n) => n.bno)])).map(
      (r) => [String(r.b_no), r.answer == null ? null : json<StatusAnswer>(r.answer)] as const,
    ));
    const conflicts = new Map<string, StatusAnswer | null>();
    for (const n of others) {
      const answer = theirs.get(n.bno) ?? null;
      // compared as values: jsonb hands keys back in its own order
      if (!isDeepStrictEqual(answer, n.answer === null ? null : JSON.parse(JSON.stringify(n.answer)))) conflicts.set(n.bno, answer);
    }
    if (conflicts.size > 0) throw new SharedConflict(conflicts);
  }
  return refunds;
}
