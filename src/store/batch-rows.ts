// Row → BatchJob, and the JSON forms of a chunk's rows and output, shared by both engines.
// SQLite hands back JSON as TEXT, booleans as 0/1 and timestamps as ISO text; PostgreSQL hands
// back parsed JSON, booleans and Dates. The helpers accept either, so one mapping serves both.
import type { BatchJob, BatchRowInput, ChunkLease, ChunkOutput, StoredChunk } from './batch-store.ts';
import { iso, type Row } from './rows.ts';

// oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- the caller names the shape it stored
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
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

export function toLease(r: Row): ChunkLease {
  return { jobId: String(r.job_id), chunkNo: Number(r.chunk_no), firstRow: Number(r.first_row), lastRow: Number(r.last_row), attempts: Number(r.attempts), shared: bool(r.shared) };
}

/**
 * A chunk's rows as one JSON text: an array of [row_id, b_no_raw, b_no, valid, name, address,
 * cells]. One record per chunk instead of one per row is what makes a million-row upload cheap
 * (a row insert costs more than encoding the row), and chunks are what is read and written anyway.
 */
type EncodedRow = [number, string, string | null, boolean | number, string | null, string | null, Record<string, string>];

export function encodeRows(rows: readonly BatchRowInput[]): string {
  return JSON.stringify(rows.map((r): EncodedRow => [r.rowId, r.bnoRaw, r.bno, r.valid, r.name, r.address, r.cells]));
}

export function decodeRows(v: unknown): BatchRowInput[] {
  return json<EncodedRow[]>(v).map(([rowId, bnoRaw, bno, valid, name, address, cells]) => ({ rowId, bnoRaw, bno, valid: bool(valid), name, address, cells }));
}

export function encodeOutput(o: ChunkOutput): string {
  return JSON.stringify(o);
}

export function toStoredChunk(r: Row): StoredChunk {
  return {
    chunkNo: Number(r.chunk_no),
    firstRow: Number(r.first_row),
    lastRow: Number(r.last_row),
    rows: decodeRows(r.rows),
    output: r.output == null ? null : json<ChunkOutput>(r.output),
  };
}

export { json as jsonColumn };
