// Batch jobs on PostgreSQL. Chunks are claimed with FOR UPDATE SKIP LOCKED, so any number of
// worker processes share the queue without waiting on each other; completions re-check the
// lease inside their transaction.
import type pg from 'pg';
import type { StatusAnswer } from '../registry/types.ts';
import type {
  BatchJob, BatchRowInput, BatchStore, ChunkCompletion, ChunkLease, CompleteOutcome, FinalizeOptions, FinalizeOutcome, NumberOutcome, SharedNumber, StoredChunk, Tally,
} from './batch-store.ts';
import { isFinished } from './batch-store.ts';
import { decodeRows, encodeLookups, encodeOutput, encodeRows, jsonColumn, toCachedGroup, toJob, toLease, toStoredChunk } from './batch-rows.ts';
import type { CachedGroup } from '../batch/cached-chunk.ts';
import { inTransaction } from './pg-tx.ts';
import type { Row } from './rows.ts';
import { batchDoneEvent } from '../batch/batch-events.ts';
import { enqueueEvent } from './watches-postgres.ts';

/** cachedGroups' first statement part: the row saying the chunk has lookups */
const isMarker = (row: unknown[]) => Number(row[4]) === -1;

/** Thrown inside a transaction to roll it back and report what another chunk recorded first. */
class SharedConflict {
  readonly answers: Map<string, StatusAnswer | null>;
  constructor(answers: Map<string, StatusAnswer | null>) {
    this.answers = answers;
  }
}

export class PostgresBatchStore implements BatchStore {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  #tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, fn);
  }


  async createJob(j: Parameters<BatchStore['createJob']>[0]): Promise<void> {
    await this.#pool.query(
      `INSERT INTO batch_jobs (id, account_id, status, filename, file_kind, columns, chosen, offline, paid, month, idempotency_key, fingerprint, created_at, upload_lease_until)
       VALUES ($1, $2, 'uploading', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [j.id, j.accountId, j.filename, j.fileKind, JSON.stringify(j.columns), JSON.stringify(j.chosen), j.offline, j.paid, j.month, j.idempotencyKey, j.fingerprint, j.createdAt, j.uploadLeaseUntil],
    );
  }

  async renewUpload(jobId: string, until: string): Promise<boolean> {
    return ((await this.#pool.query("UPDATE batch_jobs SET upload_lease_until = $2 WHERE id = $1 AND status = 'uploading'", [jobId, until])).rowCount ?? 0) > 0;
  }

  async appendChunk(jobId: string, chunkNo: number, rows: readonly BatchRowInput[], columns: readonly string[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#pool.query('INSERT INTO batch_chunk_rows (job_id, chunk_no, first_row, last_row, rows, lookups) VALUES ($1, $2, $3, $4, $5, $6::jsonb)', [
      jobId, chunkNo, rows[0]!.rowId, rows.at(-1)!.rowId, encodeRows(rows, columns), encodeLookups(rows),
    ]);
  }

  async finalizeJob(jobId: string, o: FinalizeOptions): Promise<FinalizeOutcome> {
    return this.#tx(async (c) => {
      const job = toJob((await c.query('SELECT * FROM batch_jobs WHERE id = $1 FOR UPDATE', [jobId])).rows[0] as Row);
      let charged = 0;
      let overage = 0;
      if (o.charge && o.distinct > 0) {
        await c.query('INSERT INTO usage_months (account_id, month) VALUES ($1, $2) ON CONFLICT DO NOTHING', [job.accountId, job.month]);
        // the row lock serialises this job's charge with every other reservation of the account
        const used = Number(((await c.query('SELECT used FROM usage_months WHERE account_id = $1 AND month = $2 FOR UPDATE', [job.accountId, job.month])).rows[0] as Row).used);
        const remaining = Math.max(0, o.limit - used);
        if (o.distinct > remaining && !o.paid) return { ok: false, needed: o.distinct, remaining };
        charged = Math.min(o.distinct, remaining);
        overage = o.distinct - charged;
        await c.query('UPDATE usage_months SET used = used + $3, overage = overage + $4 WHERE account_id = $1 AND month = $2', [job.accountId, job.month, charged, overage]);
      }
      if (o.sharedNumbers.length > 0) {
        await c.query('INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered) SELECT $1, unnest($2::text[]), NULL, false, false', [jobId, o.sharedNumbers]);
      }
      // chunks are cut by rows and by bytes while uploading: their bounds are the stored rows'
      const chunks = (await c.query(
        `INSERT INTO batch_chunks (job_id, chunk_no, first_row, last_row, state, job_created_at, shared)
         SELECT job_id, chunk_no, first_row, last_row, 'pending', $2, chunk_no = ANY($3::int[]) FROM batch_chunk_rows WHERE job_id = $1`,
        [jobId, job.createdAt, o.sharedChunks],
      )).rowCount ?? 0;
      const done = chunks === 0;
      const r = (
        await c.query(
          `UPDATE batch_jobs SET status = $1, total = $2, distinct_numbers = $3, chunks_total = $4, charged = $5, overage = $6, finished_at = $7,
             fingerprint = coalesce($9, fingerprint), columns = coalesce($10::jsonb, columns)
            WHERE id = $8 RETURNING *`,
          [done ? 'done' : 'queued', o.total, o.distinct, chunks, charged, overage, done ? o.now.toISOString() : null, jobId, o.fingerprint ?? null, o.columns ? JSON.stringify(o.columns) : null],
        )
      ).rows[0] as Row;
      return { ok: true, job: toJob(r) };
    });
  }

  async discardJob(jobId: string): Promise<void> {
    await this.#pool.query('DELETE FROM batch_jobs WHERE id = $1', [jobId]);
  }

  async sweepUploads(now: string): Promise<number> {
    return (await this.#pool.query("DELETE FROM batch_jobs WHERE status = 'uploading' AND upload_lease_until < $1", [now])).rowCount ?? 0;
  }

  async getJob(jobId: string): Promise<BatchJob | null> {
    const r = (await this.#pool.query("SELECT * FROM batch_jobs WHERE id = $1 AND status <> 'uploading'", [jobId])).rows[0] as Row | undefined;
    return r ? toJob(r) : null;
  }

  async findJobByIdempotencyKey(accountId: string, key: string): Promise<BatchJob | null> {
    const r = (await this.#pool.query('SELECT * FROM batch_jobs WHERE account_id = $1 AND idempotency_key = $2', [accountId, key])).rows[0] as Row | undefined;
    return r ? toJob(r) : null;
  }

  async listJobs(accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<BatchJob[]> {
    const res = await this.#pool.query(
      `SELECT * FROM batch_jobs WHERE account_id = $1 AND status <> 'uploading'
          AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::text))
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      [accountId, limit, before?.createdAt ?? null, before?.id ?? null],
    );
    return (res.rows as Row[]).map(toJob);
  }

  async claimChunk(holder: string, leaseMs: number, now: Date): Promise<ChunkLease | null> {
    return this.#tx(async (c) => {
      const r = (
        await c.query(
          `UPDATE batch_chunks SET state = 'leased', holder = $1, lease_expires_at = $2, attempts = attempts + 1
            WHERE (job_id, chunk_no) = (
              SELECT job_id, chunk_no FROM batch_chunks
               WHERE state = 'pending' OR (state = 'leased' AND lease_expires_at < $3)
               ORDER BY job_created_at, job_id, chunk_no LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING job_id, chunk_no, first_row, last_row, attempts, shared`,
          [holder, new Date(now.getTime() + leaseMs).toISOString(), now.toISOString()],
        )
      ).rows[0] as Row | undefined;
      if (!r) return null;
      await c.query("UPDATE batch_jobs SET status = 'processing', started_at = coalesce(started_at, $2) WHERE id = $1 AND status = 'queued'", [r.job_id, now.toISOString()]);
      return toLease(r);
    });
  }

  async chunkRows(jobId: string, chunkNo: number): Promise<BatchRowInput[]> {
    const r = (await this.#pool.query('SELECT r.rows, j.columns FROM batch_chunk_rows r JOIN batch_jobs j ON j.id = r.job_id WHERE r.job_id = $1 AND r.chunk_no = $2', [jobId, chunkNo])).rows[0] as Row | undefined;
    return r ? decodeRows(r.rows, jsonColumn<string[]>(r.columns)) : [];
  }

  async cachedGroups(jobId: string, chunkNo: number): Promise<CachedGroup[] | null> {
    const r = await this.#pool.query<unknown[]>({
      // the marker row (-1 rows) says whether the chunk has lookups at all (an empty list is still some)
      text: `SELECT NULL, NULL, NULL, NULL, -1, NULL FROM batch_chunk_rows WHERE job_id = $1 AND chunk_no = $2 AND lookups IS NOT NULL
             UNION ALL
             SELECT * FROM (
               SELECT CASE WHEN s.record ->> 'b_no' = s.b_no THEN (s.record - 'b_no')::text END, s.source, s.checked_at, s.expires_at, count(*), jsonb_agg(DISTINCT l.value)::text
                 FROM batch_chunk_rows c CROSS JOIN LATERAL jsonb_array_elements_text(c.lookups) AS l (value)
                 LEFT JOIN status_cache s ON s.b_no = l.value
                WHERE c.job_id = $1 AND c.chunk_no = $2
                GROUP BY 1, 2, 3, 4) g`,
      values: [jobId, chunkNo],
      rowMode: 'array',
    });
    if (!r.rows.some(isMarker)) return null;
    return r.rows.filter((row) => !isMarker(row)).map(toCachedGroup);
  }

  async sharedNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, SharedNumber>> {
    const out = new Map<string, SharedNumber>();
    if (bnos.length === 0) return out;
    const res = await this.#pool.query('SELECT b_no, answer, answered FROM batch_numbers WHERE job_id = $1 AND b_no = ANY($2::text[])', [jobId, bnos]);
    for (const r of res.rows as Row[]) out.set(String(r.b_no), r.answered ? { answered: true, answer: (r.answer as StatusAnswer | null) ?? null } : { answered: false });
    return out;
  }

  async completeChunk(lease: ChunkLease, holder: string, done: ChunkCompletion, now: Date): Promise<CompleteOutcome> {
    try {
      return await this.#tx((c) => this.#complete(c, lease, holder, done, now));
    } catch (err) {
      if (err instanceof SharedConflict) return { status: 'conflict', answers: err.answers };
      throw err;
    }
  }

  async #complete(c: pg.PoolClient, lease: ChunkLease, holder: string, done: ChunkCompletion, now: Date): Promise<CompleteOutcome> {
    const held = await c.query("SELECT 1 FROM batch_chunks WHERE job_id = $1 AND chunk_no = $2 AND state = 'leased' AND holder = $3 FOR UPDATE", [lease.jobId, lease.chunkNo, holder]);
    if (!held.rowCount) return { status: 'lost' };
    const job = toJob((await c.query('SELECT * FROM batch_jobs WHERE id = $1 FOR UPDATE', [lease.jobId])).rows[0] as Row);
    const refunds = done.numbers.filter((n) => !n.shared && n.refund).length + (await this.#recordShared(c, lease.jobId, done.numbers.filter((n) => n.shared)));
    const refundedOverage = Math.min(refunds, job.overage);
    if (refunds > 0) {
      // overage first: a refund takes back what was billed beyond the plan before the plan's own lookups
      await c.query('UPDATE usage_months SET overage = GREATEST(overage - $3, 0), used = GREATEST(used - $4, 0) WHERE account_id = $1 AND month = $2', [
        job.accountId, job.month, refundedOverage, refunds - refundedOverage,
      ]);
    }
    const tally = [...Object.entries(done.counts.byStatus).map(([v, n]) => ['status', v, n] as const), ...Object.entries(done.counts.byGrade).map(([v, n]) => ['grade', v, n] as const)];
    if (tally.length > 0) {
      await c.query(
        `INSERT INTO batch_counts (job_id, kind, value, n) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[])
         ON CONFLICT (job_id, kind, value) DO UPDATE SET n = batch_counts.n + excluded.n`,
        [lease.jobId, tally.map((t) => t[0]), tally.map((t) => t[1]), tally.map((t) => t[2])],
      );
    }
    await c.query("UPDATE batch_chunks SET state = 'done', holder = NULL, lease_expires_at = NULL, output = $3 WHERE job_id = $1 AND chunk_no = $2", [lease.jobId, lease.chunkNo, encodeOutput(done.output)]);
    const after = toJob((await c.query(
      `UPDATE batch_jobs SET processed = processed + $2, chunks_done = chunks_done + 1, refunded = refunded + $3,
         overage = overage - $4, charged = charged - $5, failure_reason = coalesce(failure_reason, $7::text),
         status = CASE WHEN chunks_done + 1 >= chunks_total THEN CASE WHEN coalesce(failure_reason, $7::text) IS NULL THEN 'done' ELSE 'failed' END ELSE status END,
         finished_at = CASE WHEN chunks_done + 1 >= chunks_total THEN $6::timestamptz ELSE finished_at END
       WHERE id = $1 RETURNING *`,
      [lease.jobId, done.rows, refunds, refundedOverage, refunds - refundedOverage, now.toISOString(), done.failure ?? null],
    )).rows[0] as Row);
    // the last chunk finishes the job: its batch.done event commits with it
    if (isFinished(after.status) && !isFinished(job.status)) await enqueueEvent(c, after.accountId, batchDoneEvent(after, await countsOf(c, after.id)), now.toISOString());
    return { status: 'done' };
  }

  /** Records the shared numbers this chunk answers first; returns how many of those to refund. */
  async #recordShared(c: pg.PoolClient, jobId: string, shared: readonly NumberOutcome[]): Promise<number> {
    if (shared.length === 0) return 0;
    const texts = shared.map((n) => (n.answer ? JSON.stringify(n.answer) : null));
    const recorded = await c.query(
      `UPDATE batch_numbers b SET answer = v.answer, refunded = v.refund, answered = true
         FROM unnest($2::text[], $3::jsonb[], $4::bool[]) AS v(b_no, answer, refund)
        WHERE b.job_id = $1 AND b.b_no = v.b_no AND NOT b.answered
        RETURNING b.b_no, b.refunded`,
      [jobId, shared.map((n) => n.bno), texts, shared.map((n) => n.refund)],
    );
    const mine = new Set((recorded.rows as Row[]).map((r) => String(r.b_no)));
    const others = shared.filter((n) => !mine.has(n.bno));
    if (others.length > 0) {
      // recorded by another chunk first: fine when it is the same answer, else this chunk is redone with theirs
      const theirs = await c.query(
        `SELECT b.b_no, b.answer FROM batch_numbers b JOIN unnest($2::text[], $3::jsonb[]) AS v(b_no, answer) ON v.b_no = b.b_no
          WHERE b.job_id = $1 AND b.answer IS DISTINCT FROM v.answer`,
        [jobId, others.map((n) => n.bno), others.map((n) => (n.answer ? JSON.stringify(n.answer) : null))],
      );
      if (theirs.rowCount) throw new SharedConflict(new Map((theirs.rows as Row[]).map((r) => [String(r.b_no), (r.answer as StatusAnswer | null) ?? null])));
    }
    return (recorded.rows as Row[]).filter((r) => Boolean(r.refunded)).length;
  }

  counts(jobId: string): Promise<Tally> {
    return countsOf(this.#pool, jobId);
  }

  async chunksAfter(jobId: string, afterRowId: number, limit: number): Promise<StoredChunk[]> {
    const res = await this.#pool.query(
      `SELECT r.chunk_no, r.first_row, r.last_row, r.rows, c.output, j.columns FROM batch_chunk_rows r
         JOIN batch_jobs j ON j.id = r.job_id
         LEFT JOIN batch_chunks c ON c.job_id = r.job_id AND c.chunk_no = r.chunk_no
        WHERE r.job_id = $1 AND r.last_row > $2 ORDER BY r.last_row LIMIT $3`,
      [jobId, afterRowId, limit],
    );
    return (res.rows as Row[]).map(toStoredChunk);
  }
}

async function countsOf(c: pg.PoolClient | pg.Pool, jobId: string): Promise<Tally> {
  const out: Tally = { byStatus: {}, byGrade: {} };
  for (const r of (await c.query('SELECT kind, value, n FROM batch_counts WHERE job_id = $1', [jobId])).rows as Row[]) {
    (r.kind === 'status' ? out.byStatus : out.byGrade)[String(r.value)] = Number(r.n);
  }
  return out;
}
