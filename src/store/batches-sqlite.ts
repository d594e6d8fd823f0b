// Batch jobs on the embedded store. Every multi-step change runs in one IMMEDIATE transaction.
import type { StatusAnswer } from '../registry/types.ts';
import type { BatchJob, BatchRow, BatchRowInput, BatchRowResult, BatchStore, ChunkLease, FinalizeOutcome, NumberOutcome } from './batch-store.ts';
import { jsonColumn, toJob, toRow } from './batch-rows.ts';
import type { Row } from './rows.ts';
import type { SqliteDb } from './sqlite-db.ts';

export class SqliteBatchStore implements BatchStore {
  readonly #d: SqliteDb;
  constructor(d: SqliteDb) {
    this.#d = d;
  }

  async createJob(j: Parameters<BatchStore['createJob']>[0]): Promise<void> {
    this.#d.q(
      `INSERT INTO batch_jobs (id, account_id, status, filename, file_kind, columns, chosen, offline, paid, month, idempotency_key, fingerprint, created_at)
       VALUES (?, ?, 'uploading', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(j.id, j.accountId, j.filename, j.fileKind, JSON.stringify(j.columns), JSON.stringify(j.chosen), j.offline ? 1 : 0, j.paid ? 1 : 0, j.month, j.idempotencyKey, j.fingerprint, j.createdAt);
  }

  async appendRows(jobId: string, rows: readonly BatchRowInput[]): Promise<void> {
    const stmt = this.#d.q('INSERT INTO batch_rows (job_id, row_id, b_no_raw, b_no, valid, name, address, cells) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.#d.tx(() => {
      for (const r of rows) stmt.run(jobId, r.rowId, r.bnoRaw, r.bno, r.valid ? 1 : 0, r.name, r.address, JSON.stringify(r.cells));
    });
  }

  async finalizeJob(jobId: string, o: { chunkSize: number; limit: number; charge: boolean; paid: boolean; now: Date; fingerprint?: string; columns?: string[] }): Promise<FinalizeOutcome> {
    return this.#d.tx(() => {
      const job = toJob(this.#d.q('SELECT * FROM batch_jobs WHERE id = ?').get(jobId) as Row);
      const c = this.#d.q('SELECT count(*) AS total, max(row_id) AS last, count(DISTINCT CASE WHEN valid = 1 THEN b_no END) AS distinct_numbers FROM batch_rows WHERE job_id = ?').get(jobId) as Row;
      const total = Number(c.total);
      const distinct = Number(c.distinct_numbers);
      let charged = 0;
      let overage = 0;
      if (o.charge && distinct > 0) {
        const used = Number((this.#d.q('SELECT used FROM usage_months WHERE account_id = ? AND month = ?').get(job.accountId, job.month) as Row | undefined)?.used ?? 0);
        const remaining = Math.max(0, o.limit - used);
        if (distinct > remaining && !o.paid) return { ok: false, needed: distinct, remaining };
        charged = Math.min(distinct, remaining);
        overage = distinct - charged;
        this.#d.q(
          `INSERT INTO usage_months (account_id, month, used, overage) VALUES (?, ?, ?, ?)
           ON CONFLICT (account_id, month) DO UPDATE SET used = used + excluded.used, overage = overage + excluded.overage`,
        ).run(job.accountId, job.month, charged, overage);
      }
      const last = Number(c.last ?? 0);
      const chunks = Math.ceil(last / o.chunkSize);
      const insert = this.#d.q("INSERT INTO batch_chunks (job_id, chunk_no, first_row, last_row, state, job_created_at) VALUES (?, ?, ?, ?, 'pending', ?)");
      for (let i = 0; i < chunks; i++) insert.run(jobId, i + 1, i * o.chunkSize + 1, Math.min(last, (i + 1) * o.chunkSize), job.createdAt);
      const done = chunks === 0;
      const r = this.#d.q(
        `UPDATE batch_jobs SET status = ?, total = ?, distinct_numbers = ?, chunks_total = ?, charged = ?, overage = ?,
           finished_at = ?, fingerprint = coalesce(?, fingerprint), columns = coalesce(?, columns) WHERE id = ? RETURNING *`,
      ).get(done ? 'done' : 'queued', total, distinct, chunks, charged, overage, done ? o.now.toISOString() : null, o.fingerprint ?? null, o.columns ? JSON.stringify(o.columns) : null, jobId) as Row;
      return { ok: true, job: toJob(r) };
    });
  }

  async discardJob(jobId: string): Promise<void> {
    this.#d.q('DELETE FROM batch_jobs WHERE id = ?').run(jobId);
  }

  async sweepUploads(olderThan: string): Promise<number> {
    return Number(this.#d.q("DELETE FROM batch_jobs WHERE status = 'uploading' AND created_at < ?").run(olderThan).changes);
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
          WHERE job_id = ? AND chunk_no = ? RETURNING job_id, chunk_no, first_row, last_row, attempts`,
      ).get(holder, new Date(now.getTime() + leaseMs).toISOString(), c.job_id as string, c.chunk_no as number) as Row;
      this.#d.q("UPDATE batch_jobs SET status = 'processing', started_at = coalesce(started_at, ?) WHERE id = ? AND status = 'queued'").run(nowIso, c.job_id as string);
      return { jobId: String(r.job_id), chunkNo: Number(r.chunk_no), firstRow: Number(r.first_row), lastRow: Number(r.last_row), attempts: Number(r.attempts) };
    });
  }

  async rowsBetween(jobId: string, firstRow: number, lastRow: number): Promise<BatchRow[]> {
    return (this.#d.q('SELECT * FROM batch_rows WHERE job_id = ? AND row_id BETWEEN ? AND ? ORDER BY row_id').all(jobId, firstRow, lastRow) as Row[]).map(toRow);
  }

  async jobNumbers(jobId: string, bnos: readonly string[]): Promise<Map<string, StatusAnswer | null>> {
    const out = new Map<string, StatusAnswer | null>();
    if (bnos.length === 0) return out;
    const rows = this.#d.q('SELECT b_no, answer FROM batch_numbers WHERE job_id = ? AND b_no IN (SELECT value FROM json_each(?))').all(jobId, JSON.stringify(bnos)) as Row[];
    for (const r of rows) out.set(String(r.b_no), r.answer == null ? null : jsonColumn<StatusAnswer>(r.answer));
    return out;
  }

  async completeChunk(lease: ChunkLease, holder: string, results: readonly BatchRowResult[], numbers: readonly NumberOutcome[], now: Date): Promise<boolean> {
    return this.#d.tx(() => {
      const held = this.#d.q("SELECT 1 FROM batch_chunks WHERE job_id = ? AND chunk_no = ? AND state = 'leased' AND holder = ?").get(lease.jobId, lease.chunkNo, holder);
      if (!held) return false;
      const job = toJob(this.#d.q('SELECT * FROM batch_jobs WHERE id = ?').get(lease.jobId) as Row);
      const setRow = this.#d.q('UPDATE batch_rows SET result = ?, biz_status = ?, grade = ?, features = ?, address_key = ? WHERE job_id = ? AND row_id = ?');
      for (const r of results) setRow.run(JSON.stringify(r.result), r.bizStatus, r.grade, r.features ? JSON.stringify(r.features) : null, r.addressKey, lease.jobId, r.rowId);
      const addNumber = this.#d.q('INSERT INTO batch_numbers (job_id, b_no, answer, refunded) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
      let refunds = 0;
      for (const n of numbers) {
        const inserted = addNumber.run(lease.jobId, n.bno, n.answer ? JSON.stringify(n.answer) : null, n.refund ? 1 : 0).changes;
        if (inserted && n.refund) refunds++;
      }
      if (refunds > 0) {
        // overage first: a refund takes back what was billed beyond the plan before the plan's own lookups
        this.#d.q(
          `UPDATE usage_months SET overage = max(overage - min(?, ?), 0), used = max(used - max(? - min(?, ?), 0), 0)
            WHERE account_id = ? AND month = ?`,
        ).run(refunds, job.overage, refunds, refunds, job.overage, job.accountId, job.month);
      }
      // tallied here, written once per value: a statement per row would double the chunk's writes
      const tally = new Map<string, number>();
      for (const r of results) {
        tally.set(`status\u0000${r.bizStatus}`, (tally.get(`status\u0000${r.bizStatus}`) ?? 0) + 1);
        if (r.grade) tally.set(`grade\u0000${r.grade}`, (tally.get(`grade\u0000${r.grade}`) ?? 0) + 1);
      }
      const bump = this.#d.q('INSERT INTO batch_counts (job_id, kind, value, n) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
      for (const [k, n] of tally) {
        const [kind, value] = k.split('\u0000') as [string, string];
        bump.run(lease.jobId, kind, value, n);
      }
      this.#d.q("UPDATE batch_chunks SET state = 'done', holder = NULL, lease_expires_at = NULL WHERE job_id = ? AND chunk_no = ?").run(lease.jobId, lease.chunkNo);
      const refundedOverage = Math.min(refunds, job.overage);
      this.#d.q(
        `UPDATE batch_jobs SET processed = processed + ?, chunks_done = chunks_done + 1, refunded = refunded + ?,
           overage = overage - ?, charged = charged - ?,
           status = CASE WHEN chunks_done + 1 >= chunks_total THEN 'done' ELSE status END,
           finished_at = CASE WHEN chunks_done + 1 >= chunks_total THEN ? ELSE finished_at END
         WHERE id = ?`,
      ).run(results.length, refunds, refundedOverage, refunds - refundedOverage, now.toISOString(), lease.jobId);
      return true;
    });
  }

  async failJob(jobId: string, reason: string, now: Date): Promise<void> {
    this.#d.tx(() => {
      this.#d.q("UPDATE batch_jobs SET status = 'failed', failure_reason = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'processing')").run(reason, now.toISOString(), jobId);
      this.#d.q("UPDATE batch_chunks SET state = 'done', holder = NULL WHERE job_id = ? AND state <> 'done'").run(jobId);
    });
  }

  async counts(jobId: string): Promise<{ byStatus: Record<string, number>; byGrade: Record<string, number> }> {
    const out = { byStatus: {} as Record<string, number>, byGrade: {} as Record<string, number> };
    for (const r of this.#d.q('SELECT kind, value, n FROM batch_counts WHERE job_id = ?').all(jobId) as Row[]) {
      (r.kind === 'status' ? out.byStatus : out.byGrade)[String(r.value)] = Number(r.n);
    }
    return out;
  }

  async rowsAfter(jobId: string, afterRowId: number, limit: number): Promise<BatchRow[]> {
    return (this.#d.q('SELECT * FROM batch_rows WHERE job_id = ? AND row_id > ? ORDER BY row_id LIMIT ?').all(jobId, afterRowId, limit) as Row[]).map(toRow);
  }

  async getRow(jobId: string, rowId: number): Promise<BatchRow | null> {
    const r = this.#d.q('SELECT * FROM batch_rows WHERE job_id = ? AND row_id = ?').get(jobId, rowId) as Row | undefined;
    return r ? toRow(r) : null;
  }
}
