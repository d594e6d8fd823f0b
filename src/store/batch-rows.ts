// Row → BatchJob and ChunkLease (see rows.ts for how one mapping serves both engines).
import type { BatchJob, ChunkLease, FileReport } from '../domain/batch.ts';
import { bool, iso, isoOrNull, json, str, type Row } from './rows.ts';


export function toJob(r: Row): BatchJob {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    status: String(r.status) as BatchJob['status'],
    failureReason: str(r.failure_reason),
    filename: str(r.filename),
    fileKind: String(r.file_kind),
    columns: json<string[]>(r.columns),
    chosen: json<BatchJob['chosen']>(r.chosen),
    fileReport: r.file_report == null ? null : json<FileReport>(r.file_report),
    locale: r.locale === 'en' ? 'en' : 'ko',
    total: Number(r.total),
    distinctNumbers: Number(r.distinct_numbers),
    processed: Number(r.processed),
    chunksTotal: Number(r.chunks_total),
    chunksDone: Number(r.chunks_done),
    offline: bool(r.offline),
    paid: bool(r.paid),
    month: String(r.month),
    charged: Number(r.charged),
    overage: Number(r.overage),
    refunded: Number(r.refunded),
    idempotencyKey: str(r.idempotency_key),
    fingerprint: str(r.fingerprint),
    createdAt: iso(r.created_at),
    startedAt: isoOrNull(r.started_at),
    expiredAt: isoOrNull(r.expired_at),
    finishedAt: isoOrNull(r.finished_at),
    upstreamWait: r.upstream_wait_since == null ? null : { since: iso(r.upstream_wait_since), reason: str(r.upstream_wait_reason) ?? '' },
    cachePins: r.pinned_seq == null ? null : { seq: Number(r.pinned_seq), source: String(r.pinned_source), at: iso(r.pinned_at) },
  };
}

export function toLease(r: Row): ChunkLease {
  return { jobId: String(r.job_id), chunkNo: Number(r.chunk_no), firstRow: Number(r.first_row), lastRow: Number(r.last_row), attempts: Number(r.attempts), shared: bool(r.shared) };
}

