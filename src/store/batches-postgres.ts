// Batch jobs on PostgreSQL. Chunks are claimed with FOR UPDATE SKIP LOCKED, so any number of
// worker processes share the queue without waiting on each other; completions re-check the
// lease inside their transaction.
import type pg from 'pg';
import type { StatusAnswer } from '../registry/types.ts';
import type { BatchJob, BatchRow, BatchRowInput, BatchRowResult, BatchStore, ChunkLease, FinalizeOutcome, NumberOutcome } from './batch-store.ts';
import { toJob, toRow } from './batch-rows.ts';
import type { Row } from './rows.ts';

export class PostgresBatchStore implements BatchStore {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  async createJob(j: Parameters<BatchStore['createJob']>[0]): Promise<void> {
    await this.#pool.query(
      `INSERT INTO batch_jobs (id, account_id, status, filename, file_kind, columns, chosen, offline, paid, month, idempotency_key, fingerprint, created_at)
       VALUES ($1, $2, 'uploading', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [j.id, j.accountId, j.filename, j.fileKind, JSON.stringify(j.columns), JSON.stringify(j.chosen), j.offline, j.paid, j.month, j.idempotencyKey, j.fingerprint, j.createdAt],
    );
  }

  async appendRows(jobId: string, rows: readonly BatchRowInput[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#pool.query(
      `INSERT INTO batch_rows (job_id, row_id, b_no_raw, b_no, valid, name, address, cells)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::bool[], $6::text[], $7::text[], $8::jsonb[])`,
      [jobId, rows.map((r) => r.rowId), rows.map((r) => r.bnoRaw), rows.map((r) => r.bno), rows.map((r) => r.valid), rows.map((r) => r.name), rows.map((r) => r.address), rows.map((r) => JSON.stringify(r.cells))],
    );
  }

  async finalizeJob(jobId: string, o: { chunkSize: number; limit: number; charge: boolean; paid: boolean; now: Date; fingerprint?: string; columns?: string[] }): Promise<FinalizeOutcome> {
    return this.#tx(async (c) => {
      const job = toJob((await c.query('SELECT * FROM batch_jobs WHERE id = $1 FOR UPDATE', [jobId])).rows[0] as Row);
      const counts = (await c.query('SELECT count(*)::int AS total, max(row_id) AS last, count(DISTINCT b_no) FILTER (WHERE valid)::int AS distinct_numbers FROM batch_rows WHERE job_id = $1', [jobId])).rows[0] as Row;
      const total = Number(counts.total);
      const distinct = Number(counts.distinct_numbers);
      let charged = 0;
      let overage = 0;
      if (o.charge && distinct > 0) {
        await c.query('INSERT INTO usage_months (account_id, month) VALUES ($1, $2) ON CONFLICT DO NOTHING', [job.accountId, job.month]);
        // the row lock serialises this job's charge with every other reservation of the account
        const used = Number(((await c.query('SELECT used FROM usage_months WHERE account_id = $1 AND month = $2 FOR UPDATE', [job.accountId, job.month])).rows[0] as Row).used);
        const remaining = Math.max(0, o.limit - used);
        if (distinct > remaining && !o.paid) return { ok: false, needed: distinct, remaining };
        charged = Math.min(distinct, remaining);
        overage = distinct - charged;
        await c.query('UPDATE usage_months SET used = used + $3, overage = overage + $4 WHERE account_id = $1 AND month = $2', [job.accountId, job.month, charged, overage]);
      }
      const last = Number(counts.last ?? 0);
      const chunks = Math.ceil(last / o.chunkSize);
      if (chunks > 0) {
        await c.query(
          `INSERT INTO batch_chunks (job_id, chunk_no, first_row, last_row, state, job_created_at)
           SELECT $1, g, (g - 1) * $2 + 1, LEAST($3, g * $2), 'pending', $4 FROM generate_series(1, $5) AS g`,
          [jobId, o.chunkSize, last, job.createdAt, chunks],
        );
      }
      const done = chunks === 0;
      const r = (
        await c.query(
          `UPDATE batch_jobs SET status = $1, total = $2, distinct_numbers = $3, chunks_total = $4, charged = $5, overage = $6, finished_at = $7,
             fingerprint = coalesce($9, fingerprint), columns = coalesce($10::jsonb, columns)
            WHERE id = $8 RETURNING *`,
          [done ? 'done' : 'queued', total, distinct, chunks, charged, overage, done ? o.now.toISOString() : null, jobId, o.fingerprint ?? null, o.columns ? JSON.stringify(o.columns) : null],
        )
      ).rows[0] as Row;
      return { ok: true, job: toJob(r) };
    });
  }

  async discardJob(jobId: string): Promise<void> {
    await this.#pool.query('DELETE FROM batch_jobs WHERE id = $1', [jobId]);
  }

  async sweepUploads(olderThan: string): Promise<number> {
    return (await this.#pool.query("DELETE FROM batch_jobs WHERE status = 'uploading' AND created_at < $1", [olderThan])).rowCount ?? 0;
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
           RETURNING job_id, chunk_no, first_row, last_row, attempts`,
          [holder, new Date(now.getTime() + leaseMs).toISOString(), now.toISOString()],
        )
      ).rows[0] as Row | undefined;
      if (!r) return null;
      await c.query("UPDATE batch_jobs SET status = 'processing', started_at = coalesce(started_at, $2) WHERE id = $1 AND status = 'queued'", [r.job_id, now.toISOString()]);
      return { jobId: String(r.job_id), chunkNo: Number(r.chunk_no), firstRow: Number(r.first_row), lastRow: Number(r.last_row), attempts: Number(r.attempts) };
    });
  }

  async rowsBetween(jobId: string, firstRow: number, lastRow: number): Promise<BatchRow[]> {
    const res = await this.#pool.query('SELECT * FROM batch_rows WHERE job_id = $1 AND row_id BETWEEN $2 AND $3 ORDER BY row_id', [jobId, firstRow, lastRow]);
    return (res.rows as Row[]).map(toRow);
  }

  async jobNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, StatusAnswer | null>> {
    const out = new Map<string, StatusAnswer | null>();
    if (bnos.length === 0) return out;
    const res = await this.#pool.query('SELECT b_no, answer FROM batch_numbers WHERE job_id = $1 AND b_no = ANY($2::text[])', [jobId, bnos]);
    for (const r of res.rows as Row[]) out.set(String(r.b_no), (r.answer as StatusAnswer | null) ?? null);
    return out;
  }

  async completeChunk(lease: ChunkLease, holder: string, results: readonly BatchRowResult[], numbers: readonly NumberOutcome[], now: Date): Promise<boolean> {
    return this.#tx(async (c) => {
      const held = await c.query("SELECT 1 FROM batch_chunks WHERE job_id = $1 AND chunk_no = $2 AND state = 'leased' AND holder = $3 FOR UPDATE", [lease.jobId, lease.chunkNo, holder]);
      if (!held.rowCount) return false;
      const job = toJob((await c.query('SELECT * FROM batch_jobs WHERE id = $1 FOR UPDATE', [lease.jobId])).rows[0] as Row);
      if (results.length > 0) {
        await c.query(
          `UPDATE batch_rows r SET result = v.result, biz_status = v.biz_status, grade = v.grade, features = v.features, address_key = v.address_key
             FROM unnest($2::int[], $3::jsonb[], $4::text[], $5::text[], $6::jsonb[], $7::text[]) AS v(row_id, result, biz_status, grade, features, address_key)
            WHERE r.job_id = $1 AND r.row_id = v.row_id`,
          [
            lease.jobId,
            results.map((r) => r.rowId),
            results.map((r) => JSON.stringify(r.result)),
            results.map((r) => r.bizStatus),
            results.map((r) => r.grade),
            results.map((r) => (r.features ? JSON.stringify(r.features) : null)),
            results.map((r) => r.addressKey),
          ],
        );
      }
      let refunds = 0;
      if (numbers.length > 0) {
        const inserted = await c.query(
          `INSERT INTO batch_numbers (job_id, b_no, answer, refunded)
           SELECT $1, * FROM unnest($2::text[], $3::jsonb[], $4::bool[]) ON CONFLICT DO NOTHING RETURNING refunded`,
          [lease.jobId, numbers.map((n) => n.bno), numbers.map((n) => (n.answer ? JSON.stringify(n.answer) : null)), numbers.map((n) => n.refund)],
        );
        refunds = (inserted.rows as Row[]).filter((r) => Boolean(r.refunded)).length;
      }
      const refundedOverage = Math.min(refunds, job.overage);
      if (refunds > 0) {
        // overage first: a refund takes back what was billed beyond the plan before the plan's own lookups
        await c.query('UPDATE usage_months SET overage = GREATEST(overage - $3, 0), used = GREATEST(used - $4, 0) WHERE account_id = $1 AND month = $2', [
          job.accountId, job.month, refundedOverage, refunds - refundedOverage,
        ]);
      }
      const tally = new Map<string, number>();
      for (const r of results) {
        tally.set(`status\u0000${r.bizStatus}`, (tally.get(`status\u0000${r.bizStatus}`) ?? 0) + 1);
        if (r.grade) tally.set(`grade\u0000${r.grade}`, (tally.get(`grade\u0000${r.grade}`) ?? 0) + 1);
      }
      if (tally.size > 0) {
        const keys = [...tally.keys()].map((k) => k.split('\u0000'));
        await c.query(
          `INSERT INTO batch_counts (job_id, kind, value, n) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[])
           ON CONFLICT (job_id, kind, value) DO UPDATE SET n = batch_counts.n + excluded.n`,
          [lease.jobId, keys.map((k) => k[0]), keys.map((k) => k[1]), [...tally.values()]],
        );
      }
      await c.query("UPDATE batch_chunks SET state = 'done', holder = NULL, lease_expires_at = NULL WHERE job_id = $1 AND chunk_no = $2", [lease.jobId, lease.chunkNo]);
      await c.query(
        `UPDATE batch_jobs SET processed = processed + $2, chunks_done = chunks_done + 1, refunded = refunded + $3,
           overage = overage - $4, charged = charged - $5,
           status = CASE WHEN chunks_done + 1 >= chunks_total THEN 'done' ELSE status END,
           finished_at = CASE WHEN chunks_done + 1 >= chunks_total THEN $6::timestamptz ELSE finished_at END
         WHERE id = $1`,
        [lease.jobId, results.length, refunds, refundedOverage, refunds - refundedOverage, now.toISOString()],
      );
      return true;
    });
  }

  async failJob(jobId: string, reason: string, now: Date): Promise<void> {
    await this.#tx(async (c) => {
      await c.query("UPDATE batch_jobs SET status = 'failed', failure_reason = $2, finished_at = $3 WHERE id = $1 AND status IN ('queued', 'processing')", [jobId, reason, now.toISOString()]);
      await c.query("UPDATE batch_chunks SET state = 'done', holder = NULL WHERE job_id = $1 AND state <> 'done'", [jobId]);
    });
  }

  async counts(jobId: string): Promise<{ byStatus: Record<string, number>; byGrade: Record<string, number> }> {
    const out = { byStatus: {} as Record<string, number>, byGrade: {} as Record<string, number> };
    for (const r of (await this.#pool.query('SELECT kind, value, n FROM batch_counts WHERE job_id = $1', [jobId])).rows as Row[]) {
      (r.kind === 'status' ? out.byStatus : out.byGrade)[String(r.value)] = Number(r.n);
    }
    return out;
  }

  async rowsAfter(jobId: string, afterRowId: number, limit: number): Promise<BatchRow[]> {
    const res = await this.#pool.query('SELECT * FROM batch_rows WHERE job_id = $1 AND row_id > $2 ORDER BY row_id LIMIT $3', [jobId, afterRowId, limit]);
    return (res.rows as Row[]).map(toRow);
  }

  async getRow(jobId: string, rowId: number): Promise<BatchRow | null> {
    const r = (await this.#pool.query('SELECT * FROM batch_rows WHERE job_id = $1 AND row_id = $2', [jobId, rowId])).rows[0] as Row | undefined;
    return r ? toRow(r) : null;
  }
}
