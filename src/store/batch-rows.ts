// Row → BatchJob / BatchRow, shared by both engines. SQLite hands back JSON as TEXT, booleans as
// 0/1 and timestamps as ISO text; PostgreSQL hands back parsed JSON, booleans and Dates. The
// helpers accept either, so one mapping serves both.
import type { BatchJob, BatchRow } from './batch-store.ts';
import { iso, type Row } from './rows.ts';

// oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- the caller names the shape it stored
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
// oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- as above
const jsonOrNull = <T>(v: unknown): T | null => (v == null ? null : json<T>(v));
const bool = (v: unknown): boolean => v === true || v === 1 || v === 1n;
const str = (v: unknown): string | null => (v == null ? null : `${v as string | number}`);
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));

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
    finishedAt: isoOrNull(r.finished_at),
  };
}

export function toRow(r: Row): BatchRow {
  return {
    rowId: Number(r.row_id),
    bnoRaw: String(r.b_no_raw),
    bno: str(r.b_no),
    valid: bool(r.valid),
    name: str(r.name),
    address: str(r.address),
    cells: json<Record<string, string>>(r.cells),
    result: jsonOrNull<Record<string, unknown>>(r.result),
    features: jsonOrNull<Record<string, number>>(r.features),
    addressKey: str(r.address_key),
  };
}

export { json as jsonColumn };
