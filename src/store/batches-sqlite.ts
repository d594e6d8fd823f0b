// Batch jobs on the embedded store. Every multi-step change runs in one IMMEDIATE transaction.
import type { StatusAnswer } from '../registry/types.ts';
import type {
  BatchJob, BatchRowInput, BatchStore, ChunkCompletion, ChunkLease, CompleteOutcome, FinalizeOptions, FinalizeOutcome, SharedNumber, StoredChunk, Tally,
} from './batch-store.ts';
import { isFinished } from './batch-store.ts';
import { decodeRows, encodeLookups, encodeOutput, encodeRows, jsonColumn, toCachedGroup, toJob, toLease, toStoredChunk } from './batch-rows.ts';
import type { CachedGroup } from '../batch/cached-chunk.ts';
import type { Row } from './rows.ts';
import type { SqliteDb } from './sqlite-db.ts';
import { batchDoneEvent } from '../batch/batch-events.ts';
import { enqueueEvent } from './watches-sqlite.ts';

/** Thrown inside a transaction to roll it back and report what another chunk recorded first. */
class SharedConflict {
  readonly answers: Map<string, StatusAnswer | null>;
  constructor(answers: Map<string, StatusAnswer | null>) {
    this.answers = answers;
  }
}

export class SqliteBatchStore implements BatchStore {
  readonly #d: SqliteDb;
  constructor(d: SqliteDb) {
    this.#d = d;
  }

  async createJob(j: Parameters<BatchStore['createJob']>[0]): Promise<void> {
    this.#d.q(
      `INSERT INTO batch_jobs (id, account_id, status, filename, file_kind, columns, chosen, offline, paid, month, idempotency_key, fingerprint, created_at, upload_lease_until)
       VALUES (?, ?, 'uploading', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(j.id, j.accountId, j.filename, j.fileKind, JSON.stringify(j.columns), JSON.stringify(j.chosen), j.offline ? 1 : 0, j.paid ? 1 : 0, j.month, j.idempotencyKey, j.fingerprint, j.createdAt, j.uploadLeaseUntil);
  }

  async renewUpload(jobId: string, until: string): Promise<boolean> {
    return Number(this.#d.q("UPDATE batch_jobs SET upload_lease_until = ? WHERE id = ? AND status = 'uploading'").run(until, jobId).changes) > 0;
  }

  async appendChunk(jobId: string, chunkNo: number, rows: readonly BatchRowInput[], columns: readonly string[]): Promise<void> {
    if (rows.length === 0) return;
    this.#d.q('INSERT INTO batch_chunk_rows (job_id, chunk_no, first_row, last_row, rows, lookups) VALUES (?, ?, ?, ?, ?, ?)')
      .run(jobId, chunkNo, rows[0]!.rowId, rows.at(-1)!.rowId, encodeRows(rows, columns), encodeLookups(rows));
  }

  async finalizeJob(jobId: string, o: FinalizeOptions): Promise<FinalizeOutcome> {
    return this.#d.tx(() => {
      const job = toJob(this.#d.q('SELECT * FROM batch_jobs WHERE id = ?').get(jobId) as Row);
      let charged = 0;
      let overage = 0;
      if (o.charge && o.distinct > 0) {
        const used = Number((this.#d.q('SELECT used FROM usage_months WHERE account_id = ? AND month = ?').get(job.accountId, job.month) as Row | undefined)?.used ?? 0);
        const remaining = Math.max(0, o.limit - used);
        if (o.distinct > remaining && !o.paid) return { ok: false, needed: o.distinct, remaining };
        charged = Math.min(o.distinct, remaining);
        overage = o.distinct - charged;
        this.#d.q(
          `INSERT INTO usage_months (account_id, month, used, overage) VALUES (?, ?, ?, ?)
           ON CONFLICT (account_id, month) DO UPDATE SET used = used + excluded.used, overage = overage + excluded.overage`,
        ).run(job.accountId, job.month, charged, overage);
      }
      const addNumber = this.#d.q('INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered) VALUES (?, ?, NULL, 0, 0)');
      for (const bno of o.sharedNumbers) addNumber.run(jobId, bno);
      // chunks are cut by rows and by bytes while uploading: their bounds are the stored rows'
      const chunks = Number(this.#d.q(
        `INSERT INTO batch_chunks (job_id, chunk_no, first_row, last_row, state, job_created_at, shared)
         SELECT job_id, chunk_no, first_row, last_row, 'pending', ?, chunk_no IN (SELECT value FROM json_each(?)) FROM batch_chunk_rows WHERE job_id = ?`,
      ).run(job.createdAt, JSON.stringify(o.sharedChunks), jobId).changes);
      const done = chunks === 0;
      const r = this.#d.q(
        `UPDATE batch_jobs SET status = ?, total = ?, distinct_numbers = ?, chunks_total = ?, charged = ?, overage = ?,
           finished_at = ?, fingerprint = coalesce(?, fingerprint), columns = coalesce(?, columns) WHERE id = ? RETURNING *`,
      ).get(done ? 'done' : 'queued', o.total, o.distinct, chunks, charged, overage, done ? o.now.toISOString() : null, o.fingerprint ?? null, o.columns ? JSON.stringify(o.columns) : null, jobId) as Row;
      return { ok: true, job: toJob(r) };
    });
  }

  async discardJob(jobId: string): Promise<void> {
    this.#d.q('DELETE FROM batch_jobs WHERE id = ?').run(jobId);
  }

  async sweepUploads(now: string): Promise<number> {
    return Number(this.#d.q("DELETE FROM batch_jobs WHERE status = 'uploading' AND upload_lease_until < ?").run(now).changes);
  }

  async getJob(jobId: string): Promise<BatchJob | null> {
    const r = this.#d.q("SELECT * FROM batch_jobs WHERE id = ? AND status <> 'uploading'").get(jobId) as Row | undefined;
    return r ? toJob(r) : null;
  }

  async findJobByIdempotencyKey(accountId: string, key: string): Promise<BatchJob | null> {
    const r = this.#d.q('SELECT * FROM batch_jobs WHERE account_id = ? AND idempotency_key = ?').get(accountId, key) as Row | undefined;
    return r ? toJob(r) : null;
  }

  async listJobs(accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<BatchJob[]> {
    if (before) {
      const sql = "SELECT * FROM batch_jobs WHERE account_id = ? AND status <> 'uploading' AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?";
      return (this.#d.q(sql).all(accountId, before.createdAt, before.id, limit) as Row[]).map(toJob);
    }
    return (this.#d.q("SELECT * FROM batch_jobs WHERE account_id = ? AND status <> 'uploading' ORDER BY created_at DESC, id DESC LIMIT ?").all(accountId, limit) as Row[]).map(toJob);
  }

  async claimChunk(holder: string, leaseMs: number, now: Date): Promise<ChunkLease | null> {
    const nowIso = now.toISOString();
    return this.#d.tx(() => {
      const c = this.#d.q(
        `SELECT job_id, chunk_no FROM batch_chunks
          WHERE state = 'pending' OR (state = 'leased' AND lease_expires_at < ?)
          ORDER BY job_created_at, job_id, chunk_no LIMIT 1`,
      ).get(nowIso) as Row | undefined;
      if (!c) return null;
      const r = this.#d.q(
        `UPDATE batch_chunks SET state = 'leased', holder = ?, lease_expires_at = ?, attempts = attempts + 1
          WHERE job_id = ? AND chunk_no = ? RETURNING job_id, chunk_no, first_row, last_row, attempts, shared`,
      ).get(holder, new Date(now.getTime() + leaseMs).toISOString(), c.job_id as string, c.chunk_no as number) as Row;
      this.#d.q("UPDATE batch_jobs SET status = 'processing', started_at = coalesce(started_at, ?) WHERE id = ? AND status = 'queued'").run(nowIso, c.job_id as string);
      return toLease(r);
    });
  }

  async chunkRows(jobId: string, chunkNo: number): Promise<BatchRowInput[]> {
    const r = this.#d.q('SELECT r.rows, j.columns FROM batch_chunk_rows r JOIN batch_jobs j ON j.id = r.job_id WHERE r.job_id = ? AND r.chunk_no = ?').get(jobId, chunkNo) as Row | undefined;
    return r ? decodeRows(r.rows, jsonColumn<string[]>(r.columns)) : [];
  }

  async cachedGroups(jobId: string, chunkNo: number): Promise<CachedGroup[] | null> {
    const has = this.#d.q('SELECT lookups IS NOT NULL AS has FROM batch_chunk_rows WHERE job_id = ? AND chunk_no = ?').get(jobId, chunkNo) as Row | undefined;
    if (!has?.has) return null;
    // the record's text is JSON.stringify's, which writes b_no first: the rest after it is the
    // template; a record that starts otherwise or names another number gets none (not usable)
    const stmt = this.#d.q(
      `SELECT CASE WHEN substr(s.record, 1, 9) = '{"b_no":"' AND substr(s.record, 10, 10) = s.b_no AND substr(s.record, 20, 2) = '",'
                   THEN '{' || substr(s.record, 22) END,
              s.source, s.checked_at, s.expires_at, count(*), json_group_array(DISTINCT l.value)
         FROM batch_chunk_rows c, json_each(c.lookups) l
         LEFT JOIN status_cache s ON s.b_no = l.value
        WHERE c.job_id = ? AND c.chunk_no = ?
        GROUP BY 1, 2, 3, 4`,
    );
    stmt.setReturnArrays(true);
    return (stmt.all(jobId, chunkNo) as unknown as unknown[][]).map(toCachedGroup);
  }

  async sharedNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, SharedNumber>> {
    const out = new Map<string, SharedNumber>();
    if (bnos.length === 0) return out;
    const rows = this.#d.q('SELECT b_no, answer, answered FROM batch_numbers WHERE job_id = ? AND b_no IN (SELECT value FROM json_each(?))').all(jobId, JSON.stringify(bnos)) as Row[];
    for (const r of rows) {
      out.set(String(r.b_no), r.answered ? { answered: true, answer: r.answer == null ? null : jsonColumn<StatusAnswer>(r.answer) } : { answered: false });
    }
    return out;
  }

  async completeChunk(lease: ChunkLease, holder: string, done: ChunkCompletion, now: Date): Promise<CompleteOutcome> {
    try {
      return this.#d.tx(() => this.#complete(lease, holder, done, now));
    } catch (err) {
      if (err instanceof SharedConflict) return { status: 'conflict', answers: err.answers };
      throw err;
    }
  }

  #complete(lease: ChunkLease, holder: string, done: ChunkCompletion, now: Date): CompleteOutcome {
    const held = this.#d.q("SELECT 1 FROM batch_chunks WHERE job_id = ? AND chunk_no = ? AND state = 'leased' AND holder = ?").get(lease.jobId, lease.chunkNo, holder);
    if (!held) return { status: 'lost' };
    const job = toJob(this.#d.q('SELECT * FROM batch_jobs WHERE id = ?').get(lease.jobId) as Row);
    const refunds = this.#recordNumbers(lease.jobId, done);
    if (refunds > 0) {
      // overage first: a refund takes back what was billed beyond the plan before the plan's own lookups
      this.#d.q(
        `UPDATE usage_months SET overage = max(overage - min(?, ?), 0), used = max(used - max(? - min(?, ?), 0), 0)
          WHERE account_id = ? AND month = ?`,
      ).run(refunds, job.overage, refunds, refunds, job.overage, job.accountId, job.month);
    }
    const bump = this.#d.q('INSERT INTO batch_counts (job_id, kind, value, n) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
    for (const [value, n] of Object.entries(done.counts.byStatus)) bump.run(lease.jobId, 'status', value, n);
    for (const [value, n] of Object.entries(done.counts.byGrade)) bump.run(lease.jobId, 'grade', value, n);
    this.#d.q("UPDATE batch_chunks SET state = 'done', holder = NULL, lease_expires_at = NULL, output = ? WHERE job_id = ? AND chunk_no = ?").run(encodeOutput(done.output), lease.jobId, lease.chunkNo);
    const refundedOverage = Math.min(refunds, job.overage);
    const after = toJob(this.#d.q(
      `UPDATE batch_jobs SET processed = processed + ?, chunks_done = chunks_done + 1, refunded = refunded + ?,
         overage = overage - ?, charged = charged - ?, failure_reason = coalesce(failure_reason, ?),
         status = CASE WHEN chunks_done + 1 >= chunks_total THEN CASE WHEN coalesce(failure_reason, ?) IS NULL THEN 'done' ELSE 'failed' END ELSE status END,
         finished_at = CASE WHEN chunks_done + 1 >= chunks_total THEN ? ELSE finished_at END
       WHERE id = ? RETURNING *`,
    ).get(done.rows, refunds, refundedOverage, refunds - refundedOverage, done.failure ?? null, done.failure ?? null, now.toISOString(), lease.jobId) as Row);
    // the last chunk finishes the job: its batch.done event commits with it
    if (isFinished(after.status) && !isFinished(job.status)) enqueueEvent(this.#d, after.accountId, batchDoneEvent(after, this.#counts(after.id)), now.toISOString());
    return { status: 'done' };
  }

  /** Records the shared numbers this chunk answers first; returns the lookups to give back. */
  #recordNumbers(jobId: string, done: ChunkCompletion): number {
    const answer = this.#d.q('UPDATE batch_numbers SET answer = ?, refunded = ?, answered = 1 WHERE job_id = ? AND b_no = ? AND answered = 0');
    const recorded = this.#d.q('SELECT answer FROM batch_numbers WHERE job_id = ? AND b_no = ?');
    const conflicts = new Map<string, StatusAnswer | null>();
    let refunds = 0;
    for (const n of done.numbers) {
      if (!n.shared) {
        if (n.refund) refunds++;
        continue;
      }
      const text = n.answer ? JSON.stringify(n.answer) : null;
      if (answer.run(text, n.refund ? 1 : 0, jobId, n.bno).changes > 0) {
        if (n.refund) refunds++;
        continue;
      }
      const theirs = (recorded.get(jobId, n.bno) as Row | undefined)?.answer ?? null;
      if (theirs !== text) conflicts.set(n.bno, theirs == null ? null : jsonColumn<StatusAnswer>(theirs));
    }
    if (conflicts.size > 0) throw new SharedConflict(conflicts);
    return refunds;
  }

  async counts(jobId: string): Promise<Tally> {
    return this.#counts(jobId);
  }

  #counts(jobId: string): Tally {
    const out: Tally = { byStatus: {}, byGrade: {} };
    for (const r of this.#d.q('SELECT kind, value, n FROM batch_counts WHERE job_id = ?').all(jobId) as Row[]) {
      (r.kind === 'status' ? out.byStatus : out.byGrade)[String(r.value)] = Number(r.n);
    }
    return out;
  }

  async chunksAfter(jobId: string, afterRowId: number, limit: number): Promise<StoredChunk[]> {
    const rows = this.#d.q(
      `SELECT r.chunk_no, r.first_row, r.last_row, r.rows, c.output, j.columns FROM batch_chunk_rows r
         JOIN batch_jobs j ON j.id = r.job_id
         LEFT JOIN batch_chunks c ON c.job_id = r.job_id AND c.chunk_no = r.chunk_no
        WHERE r.job_id = ? AND r.last_row > ? ORDER BY r.last_row LIMIT ?`,
    ).all(jobId, afterRowId, limit) as Row[];
    return rows.map(toStoredChunk);
  }
}
