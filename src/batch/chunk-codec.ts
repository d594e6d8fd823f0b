// Every encoding of a batch chunk, in one place: its rows as uploaded, the numbers it looks up,
// its output, and the cache groups the store reads for it. The store keeps the text; this module
// alone writes and reads it. SQLite hands JSON back as text, PostgreSQL parsed: the readers take
// either.
import { type NtsRecord, recordsAlikeButNumber, type StatusAnswer } from '../domain/status.ts';
import type { BatchRowInput, ChosenHeaders, ChunkOutput, EncodedChunkOutput, ScoredRow, StoredChunk } from '../domain/batch.ts';
import type { ChunkText, StoredChunkText } from '../store/batch-store.ts';
import { bool, iso, json, str } from '../store/rows.ts';
import { cacheOnlyLookups, type CachedGroup } from './cached-chunk.ts';
import { overOfKept } from '../domain/mailing-score.ts';

/**
 * A chunk's rows as one JSON text: an array of [row_id, b_no_raw, b_no, valid, name, address,
 * cells], the cells as an array in the job's column order (a row read before the columns grew
 * has fewer). One record per chunk instead of one per row is what makes a million-row upload
 * cheap (a row insert costs more than encoding the row), and chunks are what is read and
 * written anyway; arrays keep the header names (often Korean, which doubles a string's bytes)
 * out of every row. The number as written, the name and the address are their cells trimmed:
 * since 2026-11-28 each is written as the index of its cell among the values when it is that
 * cell trimmed (a third to nearly half of a named row's text, written, stored and parsed again
 * for nothing), and as text otherwise.
 */
type Cell = string | number;
type EncodedRow = [number, Cell, string | null, boolean | number, Cell | null, Cell | null, string[] | Record<string, string>];

/** A field as encodeRows wrote it: its text, or its cell's (trimmed) when it names the cell's index. */
const fieldOf = <T extends Cell | null>(f: T, values: string[] | Record<string, string>): Exclude<T, number> =>
  (typeof f === 'number' ? (Array.isArray(values) ? (values[f] ?? '') : '').trim() : f) as Exclude<T, number>;

/** A field as the index of its cell (the `i`-th value) when it is that cell trimmed, else as it is. */
const asCell = <T extends string | null>(field: T, values: readonly string[], i: number): T | number =>
  field !== null && i >= 0 && i < values.length && values[i]!.trim() === field ? i : field;

/**
 * `columns`: the headers known so far, in file order; a row's cells are keyed by a prefix of them.
 * (Not Object.values: an object lists keys such as "2024" before the others, whatever their order.)
 * `chosen`: the columns the number, name and address were read from (without it every field is text).
 */
export function encodeRows(rows: readonly BatchRowInput[], columns: readonly string[], chosen?: ChosenHeaders): string {
  const at = (header: string | null | undefined): number => (header ? columns.indexOf(header) : -1);
  const bnoAt = at(chosen?.bno);
  const nameAt = at(chosen?.name);
  const addressAt = at(chosen?.address);
  return JSON.stringify(
    rows.map((r): EncodedRow => {
      const n = Object.keys(r.cells).length;
      const values: string[] = [];
      for (let i = 0; i < n; i++) values.push(r.cells[columns[i]!] ?? '');
      return [r.rowId, asCell(r.bnoRaw, values, bnoAt), r.bno, r.valid, asCell(r.name, values, nameAt), asCell(r.address, values, addressAt), values];
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
    return { rowId, bnoRaw: fieldOf(bnoRaw, values), bno, valid: bool(valid), name: fieldOf(name, values), address: fieldOf(address, values), cells };
  });
}

/** A chunk's lookups column (see cacheOnlyLookups), as JSON text or null. */
export function encodeLookups(rows: readonly BatchRowInput[], chosen: ChosenHeaders): string | null {
  const lookups = cacheOnlyLookups(rows, chosen);
  return lookups ? JSON.stringify(lookups) : null;
}

/** A cachedGroups row of either engine: [template, source, earliest expires_at, rows, distinct numbers, numbers, check times, latest write count]. */
export function toCachedGroup(r: readonly unknown[]): CachedGroup {
  return {
    template: str(r[0]),
    source: str(r[1]),
    expiresAt: r[2] == null ? null : iso(r[2]),
    rows: Number(r[3]),
    distinct: Number(r[4]),
    numbers: typeof r[5] === 'string' ? r[5] : JSON.stringify(r[5]),
    checkedAts: typeof r[6] === 'string' ? r[6] : JSON.stringify(r[6]),
    written: Number(r[7] ?? 0),
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
/**
 * A scored row as kept: [row_id, ScoredRow] (before compact rows); [row_id, what the assessment
 * put over the rebuilt result, 1] (until 2026-11-27); or [row_id, its own part, 2, the index of
 * its judgement in the chunk's `judged`] (KeptChunk: a judgement most rows share is written once).
 * The features and address key of the last two are in the chunk's facts, which labels read.
 */
type EncodedScored = [number, ScoredRow] | [number, Record<string, unknown>, 1] | [number, unknown[], 2, number];

/** The judgements of a chunk's assessed rows, each as a JSON array (KeptJudgementText.judged). */
type EncodedJudged = unknown[][];

/** The scored rows as the JSON text of an EncodedScored[]: rows assessed as text are spliced in as they are. */
function encodeScored(o: ChunkOutput): string {
  const parts = [...o.scored].map(([rowId, s]) => JSON.stringify(s.over ? [rowId, s.result, 1] : [rowId, s]));
  if (o.assessed) for (const [rowId, a] of o.assessed) parts.push(`[${rowId},${a.own},2,${a.judgement}]`);
  return `[${parts.join(',')}]`;
}

/** `,"judged":[…]` of a chunk whose assessed rows share judgements, else nothing. */
const encodeJudged = (o: ChunkOutput): string => (o.judgements?.length ? `,"judged":[${o.judgements.map((j) => j.judged).join(',')}]` : '');

function decodeScored(list: readonly EncodedScored[], judged: EncodedJudged = []): Map<number, ScoredRow> {
  const out = new Map<number, ScoredRow>();
  for (const e of list) {
    if (e.length === 4) {
      const j = judged[e[3]];
      if (!j) throw new Error(`batch chunk output: judgement ${e[3]} of row ${e[0]} is missing`);
      out.set(e[0], { result: overOfKept(j, e[1]), over: true, features: null, addressKey: null });
    } else out.set(e[0], e.length === 3 ? { result: e[1], over: true, features: null, addressKey: null } : e[1]);
  }
  return out;
}

interface EncodedOutput {
  numbers: string[];
  /** per number: an index into `distinct`, null (no answer) or, should a record not carry its own number, the whole answer */
  refs: (number | StatusAnswer | null)[];
  distinct: DistinctAnswer[];
  scored: EncodedScored[];
  judged?: EncodedJudged;
}

/** Equal in every field but the record's b_no (records are flat objects of text). */
function alike(a: StatusAnswer, b: StatusAnswer): boolean {
  if (a.checkedAt !== b.checkedAt || a.source !== b.source || a.fromCache !== b.fromCache || a.stale !== b.stale) return false;
  return recordsAlikeButNumber(a.record, b.record);
}

/**
 * A chunk answered from the cache in SQL keeps groups: each distinct answer with its numbers
 * (`groups`, written until 2026-11-26), or each distinct answer less its check time with its
 * numbers and their check times, in step (`timed`).
 */
type GroupedOutput = ({ groups: [DistinctAnswer, string[]][] } | { timed: [Omit<DistinctAnswer, 'checkedAt'>, string[], string[]][] }) & { scored: EncodedScored[]; judged?: EncodedJudged };

export function encodeOutput(o: ChunkOutput | EncodedChunkOutput): string {
  if ('encoded' in o) return o.encoded;
  // candidates by a few telling fields; alike() decides
  const buckets = new Map<string, { answer: StatusAnswer; index: number }[]>();
  const e: Omit<EncodedOutput, 'scored'> = { numbers: [], refs: [], distinct: [] };
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
  return `${JSON.stringify(e).slice(0, -1)},"scored":${encodeScored(o)}${encodeJudged(o)}}`;
}

export function decodeOutput(v: unknown): ChunkOutput {
  const e = json<EncodedOutput | GroupedOutput>(v);
  const answers: ChunkOutput['answers'] = new Map();
  if ('groups' in e) {
    for (const [d, numbers] of e.groups) for (const bno of numbers) answers.set(bno, { ...d, record: { b_no: bno, ...d.record } });
    return { answers, scored: decodeScored(e.scored, e.judged) };
  }
  if ('timed' in e) {
    for (const [d, numbers, checkedAts] of e.timed) {
      numbers.forEach((bno, i) => answers.set(bno, { record: { b_no: bno, ...d.record }, source: d.source, checkedAt: checkedAts[i]!, fromCache: d.fromCache, stale: d.stale }));
    }
    return { answers, scored: decodeScored(e.scored, e.judged) };
  }
  e.numbers.forEach((bno, i) => {
    const ref = e.refs[i] ?? null;
    if (typeof ref !== 'number') return answers.set(bno, ref);
    const d = e.distinct[ref];
    if (!d) throw new Error(`batch chunk output: answer ${ref} of ${bno} is missing`);
    return answers.set(bno, { ...d, record: { b_no: bno, ...d.record } });
  });
  return { answers, scored: decodeScored(e.scored, e.judged) };
}

export function decodeChunk(c: StoredChunkText): StoredChunk {
  return {
    chunkNo: c.chunkNo,
    firstRow: c.firstRow,
    lastRow: c.lastRow,
    rows: decodeRows(c.rows, json<string[]>(c.columns)),
    output: c.output == null ? null : decodeOutput(c.output),
  };
}

/** A chunk's rows as the store keeps them. */
export function chunkText(rows: readonly BatchRowInput[], columns: readonly string[], chosen: ChosenHeaders): ChunkText {
  return { firstRow: rows[0]!.rowId, lastRow: rows.at(-1)!.rowId, rows: encodeRows(rows, columns, chosen), lookups: encodeLookups(rows, chosen) };
}

/** What a label records of its row (see job-labels.ts). */
export interface RowFacts {
  rowId: number;
  /** the number as labels and tallies key it: ten digits, or the cell as written */
  bno: string;
  /** false until the row's chunk has been processed */
  processed: boolean;
  addressKey: string | null;
  features: Record<string, number>;
  modelVersion: string | null;
}

/**
 * A scored row's facts as kept: [row_id, the number as labels key it, address_key, model_version,
 * features], the features written out or, for a row assessed with its chunk, the index of its
 * judgement's in `features` (since 2026-11-27: rows that share a judgement share its features).
 */
type FactsRow = [number, string, string | null, string | null, Record<string, number> | number | null];
/** A chunk's facts: its scored rows' in row order (a bare list: written before 2026-11-27). */
type EncodedFacts = FactsRow[] | { features: Record<string, number>[]; rows: FactsRow[] };

/** The model version a scored row's result names, or null. */
const versionOf = (s: ScoredRow): string | null => (typeof s.result.model_version === 'string' ? s.result.model_version : null);

/** What labels need of a chunk's scored rows, as JSON text; null when none was scored. */
export function encodeFacts(o: ChunkOutput | EncodedChunkOutput): string | null {
  if ('encoded' in o || o.scored.size + (o.assessed?.size ?? 0) === 0) return null;
  const out: [number, string][] = [];
  for (const [rowId, s] of o.scored) out.push([rowId, JSON.stringify([rowId, s.bno ?? (typeof s.result.b_no === 'string' ? s.result.b_no : ''), s.addressKey, versionOf(s), s.features])]);
  for (const [rowId, a] of o.assessed ?? []) {
    const j = o.judgements![a.judgement]!;
    out.push([rowId, `[${rowId},${JSON.stringify(a.bno)},${JSON.stringify(a.addressKey)},${JSON.stringify(j.modelVersion)},${a.judgement}]`]);
  }
  // in row order, as rows are
  const rows = out.toSorted((a, b) => a[0] - b[0]).map(([, text]) => text).join(',');
  return `{"features":[${(o.judgements ?? []).map((j) => j.features).join(',')}],"rows":[${rows}]}`;
}

/**
 * A chunk's rows as labels see them, without building cells or answers: the rows' numbers and,
 * for scored rows, what they were scored on (from the chunk's facts, or from its output when it
 * was processed before facts were kept). Unscored rows (no name) were never assessed. A chunk
 * whose rows were all scored is read from its facts alone, without parsing its rows.
 */
export function rowFactsOf(c: StoredChunkText): RowFacts[] {
  const processed = c.processed ?? c.output != null;
  const kept = c.facts == null ? null : json<EncodedFacts>(c.facts);
  const facts = kept === null ? null : Array.isArray(kept) ? kept : kept.rows;
  const shared = kept !== null && !Array.isArray(kept) ? kept.features : [];
  // a copy each: rows that share a judgement's features do not share the object
  const featuresOf = (f: FactsRow[4]): Record<string, number> => {
    if (typeof f !== 'number') return f ?? {};
    const features = shared[f];
    if (!features) throw new Error(`batch chunk facts: features ${f} are missing`);
    return { ...features };
  };
  if (facts && facts.length === c.lastRow - c.firstRow + 1) {
    return facts.map(([rowId, bno, addressKey, modelVersion, features]) => ({ rowId, bno, processed, addressKey, modelVersion, features: featuresOf(features) }));
  }
  const scored = new Map<number, Omit<RowFacts, 'rowId' | 'bno' | 'processed'>>();
  if (facts) {
    for (const [rowId, , addressKey, modelVersion, features] of facts) scored.set(rowId, { addressKey, modelVersion, features: featuresOf(features) });
  } else if (c.output != null) {
    const output = json<{ scored: EncodedScored[]; judged?: EncodedJudged }>(c.output);
    for (const [rowId, s] of decodeScored(output.scored, output.judged)) scored.set(rowId, { addressKey: s.addressKey, modelVersion: versionOf(s), features: s.features ?? {} });
  }
  return json<EncodedRow[]>(c.rows).map(([rowId, bnoRaw, bno, , , , values]) => ({
    rowId, bno: bno ?? fieldOf(bnoRaw, values), processed, ...(scored.get(rowId) ?? { addressKey: null, features: {}, modelVersion: null }),
  }));
}
