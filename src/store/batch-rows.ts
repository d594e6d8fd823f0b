// Row → BatchJob, and the JSON forms of a chunk's rows and output, shared by both engines.
// SQLite hands back JSON as TEXT, booleans as 0/1 and timestamps as ISO text; PostgreSQL hands
// back parsed JSON, booleans and Dates. The helpers accept either, so one mapping serves both.
import type { NtsRecord, StatusAnswer } from '../registry/types.ts';
import type { BatchJob, BatchRowInput, ChunkLease, ChunkOutput, EncodedChunkOutput, ScoredRow, StoredChunk } from './batch-store.ts';
import { cacheOnlyLookups, type CachedGroup } from '../batch/cached-chunk.ts';
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
 * cells], the cells as an array in the job's column order (a row read before the columns grew
 * has fewer). One record per chunk instead of one per row is what makes a million-row upload
 * cheap (a row insert costs more than encoding the row), and chunks are what is read and
 * written anyway; arrays keep the header names (often Korean, which doubles a string's bytes)
 * out of every row.
 */
type EncodedRow = [number, string, string | null, boolean | number, string | null, string | null, string[] | Record<string, string>];

/**
 * `columns`: the headers known so far, in file order; a row's cells are keyed by a prefix of them.
 * (Not Object.values: an object lists keys such as "2024" before the others, whatever their order.)
 */
export function encodeRows(rows: readonly BatchRowInput[], columns: readonly string[]): string {
  return JSON.stringify(
    rows.map((r): EncodedRow => {
      const n = Object.keys(r.cells).length;
      const values: string[] = [];
      for (let i = 0; i < n; i++) values.push(r.cells[columns[i]!] ?? '');
      return [r.rowId, r.bnoRaw, r.bno, r.valid, r.name, r.address, values];
    }),
  );
}

/** `columns`: the job's headers, the keys of the cells (rows moved over from before chunks carry their cells keyed already). */
export function decodeRows(v: unknown, columns: readonly string[]): BatchRowInput[] {
  return json<EncodedRow[]>(v).map(([rowId, bnoRaw, bno, valid, name, address, values]) => {
    let cells: Record<string, string>;
    if (Array.isArray(values)) {
      cells = {};
      for (let i = 0; i < values.length; i++) cells[columns[i] ?? `열${i + 1}`] = values[i]!;
    } else cells = values;
    return { rowId, bnoRaw, bno, valid: bool(valid), name, address, cells };
  });
}

/** A chunk's lookups column (see cacheOnlyLookups), as JSON text or null. */
export function encodeLookups(rows: readonly BatchRowInput[]): string | null {
  const lookups = cacheOnlyLookups(rows);
  return lookups ? JSON.stringify(lookups) : null;
}

/** A cachedGroups row of either engine: [template, source, checked_at, expires_at, rows, numbers]. */
export function toCachedGroup(r: readonly unknown[]): CachedGroup {
  return {
    template: str(r[0]),
    source: str(r[1]),
    checkedAt: r[2] == null ? null : iso(r[2]),
    expiresAt: r[3] == null ? null : iso(r[3]),
    rows: Number(r[4]),
    numbers: typeof r[5] === 'string' ? r[5] : JSON.stringify(r[5]),
  };
}

/** An answer less its record's number: what alike answers of a chunk share. */
export type DistinctAnswer = Omit<StatusAnswer, 'record'> & { record: Omit<NtsRecord, 'b_no'> };

/**
 * A chunk's output as JSON text. Most answers in a chunk are alike but for the number (every
 * active general taxpayer checked in the same call reads the same), so each distinct answer is
 * written once, without its b_no, and each number points at it: a tenth of the bytes, and far
 * less to stringify, than an answer per number. Arrays rather than objects keyed by number: V8
 * keeps ten-digit keys as sparse array indices, slow to fill and to stringify.
 */
interface EncodedOutput {
  numbers: string[];
  /** per number: an index into `distinct`, null (no answer) or, should a record not carry its own number, the whole answer */
  refs: (number | StatusAnswer | null)[];
  distinct: DistinctAnswer[];
  scored: [number, ScoredRow][];
}

/** Equal in every field but the record's b_no (records are flat objects of text). */
function alike(a: StatusAnswer, b: StatusAnswer): boolean {
  if (a.checkedAt !== b.checkedAt || a.source !== b.source || a.fromCache !== b.fromCache || a.stale !== b.stale) return false;
  const ra = a.record as unknown as Record<string, unknown>;
  const rb = b.record as unknown as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) if (k !== 'b_no' && (ra[k] !== rb[k] || !Object.hasOwn(rb, k))) return false;
  return true;
}

/** A chunk answered from the cache in SQL keeps groups: each distinct answer with its numbers. */
interface GroupedOutput {
  groups: [DistinctAnswer, string[]][];
  scored: [number, ScoredRow][];
}

export function encodeOutput(o: ChunkOutput | EncodedChunkOutput): string {
  if ('encoded' in o) return o.encoded;
  // candidates by a few telling fields; alike() decides
  const buckets = new Map<string, { answer: StatusAnswer; index: number }[]>();
  const e: EncodedOutput = { numbers: [], refs: [], distinct: [], scored: [...o.scored] };
  for (const [bno, a] of o.answers) {
    e.numbers.push(bno);
    if (a === null || a.record.b_no !== bno) {
      e.refs.push(a);
      continue;
    }
    const key = `${a.checkedAt}|${a.record.b_stt_cd}|${a.record.tax_type_cd}|${a.record.end_dt}`;
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = []));
    let found = bucket.find((c) => alike(c.answer, a));
    if (!found) {
      const { b_no: _, ...record } = a.record;
      found = { answer: a, index: e.distinct.push({ ...a, record }) - 1 };
      bucket.push(found);
    }
    e.refs.push(found.index);
  }
  return JSON.stringify(e);
}

export function decodeOutput(v: unknown): ChunkOutput {
  const e = json<EncodedOutput | GroupedOutput>(v);
  const answers: ChunkOutput['answers'] = new Map();
  if ('groups' in e) {
    for (const [d, numbers] of e.groups) for (const bno of numbers) answers.set(bno, { ...d, record: { b_no: bno, ...d.record } });
    return { answers, scored: new Map(e.scored) };
  }
  e.numbers.forEach((bno, i) => {
    const ref = e.refs[i] ?? null;
    if (typeof ref !== 'number') return answers.set(bno, ref);
    const d = e.distinct[ref];
    if (!d) throw new Error(`batch chunk output: answer ${ref} of ${bno} is missing`);
    return answers.set(bno, { ...d, record: { b_no: bno, ...d.record } });
  });
  return { answers, scored: new Map(e.scored) };
}

export function toStoredChunk(r: Row): StoredChunk {
  return {
    chunkNo: Number(r.chunk_no),
    firstRow: Number(r.first_row),
    lastRow: Number(r.last_row),
    rows: decodeRows(r.rows, json<string[]>(r.columns)),
    output: r.output == null ? null : decodeOutput(r.output),
  };
}

