// Finding the rows outcomes are recorded for, by row id or by business number, reading each
// chunk once. A processed chunk never changes, so what labels need of its rows is kept for the
// chunks labelled last: labelling a job row by row reads and parses a chunk once, not once per
// label (a named chunk's output is about a megabyte of JSON).
import type { BatchStore } from '../store/batches.ts';
import { rowFactsOf, type RowFacts } from './chunk-codec.ts';

export type { RowFacts } from './chunk-codec.ts';

/** chunks whose facts are kept; about 0.3 MB each for a thousand named rows */
const KEPT_CHUNKS = 32;
/** chunks read in one statement */
const READ_CHUNKS = 16;

export class JobRowFacts {
  readonly #store: BatchStore;
  readonly #kept = new Map<string, Map<number, RowFacts>>();

  constructor(store: BatchStore) {
    this.#store = store;
  }

  /** The facts of the rows asked for that exist, by row id. */
  async ofRows(jobId: string, rowIds: readonly number[]): Promise<Map<number, RowFacts>> {
    const out = new Map<number, RowFacts>();
    if (rowIds.length === 0) return out;
    const chunkOf = await this.#chunkOf(jobId, rowIds);
    const wanted = new Set(chunkOf.values());
    for (const [chunkNo, facts] of await this.#chunks(jobId, [...wanted])) {
      for (const id of rowIds) {
        const f = chunkOf.get(id) === chunkNo ? facts.get(id) : undefined;
        if (f) out.set(id, f);
      }
    }
    return out;
  }

  /** Every row of the job whose number is one of `bnos`, by number, in file order. */
  async ofNumbers(jobId: string, bnos: ReadonlySet<string>): Promise<Map<string, RowFacts[]>> {
    const out = new Map<string, RowFacts[]>();
    if (bnos.size === 0) return out;
    const spans = await this.#store.chunkSpans(jobId);
    for (let i = 0; i < spans.length; i += READ_CHUNKS) {
      for (const [, facts] of await this.#chunks(jobId, spans.slice(i, i + READ_CHUNKS).map((s) => s.chunkNo))) {
        for (const f of facts.values()) {
          if (!bnos.has(f.bno)) continue;
          let list = out.get(f.bno);
          if (!list) out.set(f.bno, (list = []));
          list.push(f);
        }
      }
    }
    return out;
  }

  /** The chunk number of each row id (rows past the job's end have none). */
  async #chunkOf(jobId: string, rowIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (rowIds.length === 1) {
      const span = await this.#store.chunkSpanOf(jobId, rowIds[0]!);
      if (span) out.set(rowIds[0]!, span.chunkNo);
      return out;
    }
    const spans = await this.#store.chunkSpans(jobId);
    for (const id of rowIds) {
      // spans are in row order: the first whose last row reaches the id
      let lo = 0;
      let hi = spans.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (spans[mid]!.lastRow < id) lo = mid + 1;
        else hi = mid;
      }
      const s = spans[lo];
      if (s && s.firstRow <= id) out.set(id, s.chunkNo);
    }
    return out;
  }

  /** Facts per chunk, from those kept or read (and kept once processed). */
  async #chunks(jobId: string, chunkNos: readonly number[]): Promise<Map<number, Map<number, RowFacts>>> {
    const out = new Map<number, Map<number, RowFacts>>();
    const missing: number[] = [];
    for (const no of chunkNos) {
      const key = `${jobId}:${no}`;
      const kept = this.#kept.get(key);
      if (!kept) {
        missing.push(no);
        continue;
      }
      // most recently used last
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      out.set(no, kept);
    }
    for (let i = 0; i < missing.length; i += READ_CHUNKS) {
      for (const c of await this.#store.chunksByNo(jobId, missing.slice(i, i + READ_CHUNKS))) {
        const facts = new Map(rowFactsOf(c).map((f) => [f.rowId, f]));
        out.set(c.chunkNo, facts);
        if (!(c.processed ?? c.output != null)) continue;
        this.#kept.set(`${jobId}:${c.chunkNo}`, facts);
        if (this.#kept.size > KEPT_CHUNKS) this.#kept.delete(this.#kept.keys().next().value!);
      }
    }
    return out;
  }
}
