// A chunk answered wholly from the status cache, without a JavaScript object per number. When no
// row of a chunk is scored and every number it looks up has a fresh cache entry from the current
// registry, its output is a few distinct answers, each with the list of its numbers and their
// check times (a list in no order holds numbers checked at as many times as it has rows); the store
// reads those groups in one statement (BatchStore.cachedGroups: the cache joined and grouped in
// SQL), and this decides whether they answer the chunk and assembles its completion. Otherwise
// the chunk goes the general way (process-chunk.ts). The result of every row is the same either
// way (test/batch-cached-chunk.test.ts compares them); what differs is the cost: reading a
// thousand records into objects, comparing them and writing them out again was most of a cached
// million-row job's time.
import { statusFromNts } from '../domain/verification.ts';
import type { NtsRecord } from '../domain/status.ts';
import type { BatchRowInput, CacheAnswers, CachePins, ChosenHeaders, ChunkCompletion, Tally } from '../domain/batch.ts';
import { lookupNumber, validationInputOf } from './job-rows.ts';
import { type EvidenceInput, recordJsonFor } from '../domain/evidence.ts';

/** Cache entries alike but for the number and the check time, as the store groups them for one chunk. */
export interface CachedGroup {
  /** the record without its b_no, as JSON object text; null when there is no usable entry (none, or a record that does not carry its own number) */
  template: string | null;
  source: string | null;
  /** the earliest expiry of the group's entries */
  expiresAt: string | null;
  /** rows of the chunk whose number is in this group */
  rows: number;
  /** how many distinct numbers the group has */
  distinct: number;
  /** the group's distinct numbers, as a JSON array text (passed through to the output as it is) */
  numbers: string;
  /** each number's check time, in step with `numbers`: a JSON array text (null for numbers without an entry), passed through too */
  checkedAts: string;
  /** the latest count of cache writes among its entries (0 for none, or for entries older than the count) */
  written: number;
}

/**
 * The numbers a chunk's rows are looked up by, as stored with the chunk: one per row with a
 * valid number, repeats kept. Null when a row has a name or asks 진위확인: scored and validated
 * rows need more than the cache.
 */
export function cacheOnlyLookups(rows: readonly BatchRowInput[], chosen: ChosenHeaders): string[] | null {
  const out: string[] = [];
  for (const row of rows) {
    if (row.name?.trim() || validationInputOf(row, chosen)) return null;
    const bno = lookupNumber(row);
    if (bno !== null) out.push(bno);
  }
  return out;
}

export interface CachedContext {
  /** the registry answers are taken from now: another's entries are as good as absent */
  source: string;
  nowMs: number;
  /** rows in the chunk (those without a valid number count as invalid) */
  chunkRows: number;
}

/** The evidence of every number the groups answer, as served to the job's account (the record is the number with its group's template). */
export function groupEvidence(groups: readonly CachedGroup[], accountId: string): EvidenceInput[] {
  const out: EvidenceInput[] = [];
  // each record canonicalised once (a group per source: most records are in one group)
  const shapes = new Map<string, { template: Omit<NtsRecord, 'b_no'>; recordJson: (bno: string) => string }>();
  for (const g of groups) {
    if (g.template === null || g.source === null) continue;
    let shape = shapes.get(g.template);
    if (!shape) {
      const template = JSON.parse(g.template) as Omit<NtsRecord, 'b_no'>;
      shapes.set(g.template, (shape = { template, recordJson: recordJsonFor(template) }));
    }
    const { template, recordJson } = shape;
    const checkedAts = JSON.parse(g.checkedAts) as string[];
    (JSON.parse(g.numbers) as string[]).forEach((bno, i) => {
      out.push({ accountId, bno, api: 'status', source: g.source!, checkedAt: checkedAts[i]!, record: { b_no: bno, ...template }, recordJson: recordJson(bno) });
    });
  }
  return out;
}

/** The chunk's completion from its cache groups, or null when any number needs more than a fresh entry. */
export function completionFromCache(groups: readonly CachedGroup[], ctx: CachedContext): ChunkCompletion | null {
  const counts: Tally = { byStatus: {}, byGrade: {} };
  const parts: string[] = [];
  let looked = 0;
  let hits = 0;
  const records = new Map<string, { json: string; status: string } | null>();
  for (const g of groups) {
    if (g.template === null || g.source !== ctx.source || g.expiresAt === null) return null;
    if (!(Date.parse(g.expiresAt) > ctx.nowMs)) return null;
    let record = records.get(g.template);
    if (record === undefined) {
      const parsed = JSON.parse(g.template) as Omit<NtsRecord, 'b_no'>;
      const usable = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && !('b_no' in parsed);
      records.set(g.template, (record = usable ? { json: JSON.stringify(parsed), status: statusFromNts(parsed) } : null));
    }
    if (record === null) return null;
    // the shape process-chunk.ts gives a fresh cache hit (status-service.ts fromCache), less the
    // number and the check time (each number's is beside it: chunk-codec.ts, `timed`)
    const answer = `{"record":${record.json},"source":${JSON.stringify(g.source)},"fromCache":true,"stale":false}`;
    counts.byStatus[record.status] = (counts.byStatus[record.status] ?? 0) + g.rows;
    looked += g.rows;
    hits += g.distinct;
    parts.push(`[${answer},${g.numbers},${g.checkedAts}]`);
  }
  const invalid = ctx.chunkRows - looked;
  if (invalid < 0) return null;
  if (invalid > 0) counts.byStatus.invalid = invalid;
  return { output: { encoded: `{"timed":[${parts.join(',')}],"scored":[]}`, cacheHits: hits }, numbers: [], counts, rows: ctx.chunkRows };
}

/**
 * Whether the groups were read from the very entries the job recorded its shared numbers'
 * answers from when it was accepted (BatchJob.cachePins): each written no later than the count
 * it read then, from the registry it recorded from, and fresh at that moment — so each shared
 * number was recorded with the answer these entries give, and the chunk need not check them.
 * An entry written since (most often NTS's answer to another lookup) may differ from what was
 * recorded: then the store checks (cacheAnswersOf).
 */
export function readAsPinned(groups: readonly CachedGroup[], pins: CachePins | null, source: string): boolean {
  if (pins === null || pins.source !== source) return false;
  const at = Date.parse(pins.at);
  return groups.every((g) => g.source === source && g.written <= pins.seq && g.expiresAt !== null && Date.parse(g.expiresAt) > at);
}

/**
 * Which entry answered each number of the groups, for a chunk with shared numbers (the store
 * records and checks them); null when an entry was written since the job began. Such an entry is
 * most likely the job's own lookup of a number another chunk of it shares, not yet committed: that
 * chunk's answer (looked up, not cached) is the one to take, and the general way waits for it.
 */
export function cacheAnswersOf(groups: readonly CachedGroup[], jobCreatedAt: string): CacheAnswers | null {
  const out: CacheAnswers = { bnos: [], sources: [], checkedAts: [] };
  const began = Date.parse(jobCreatedAt);
  for (const g of groups) {
    if (g.source === null) continue;
    const checkedAts = JSON.parse(g.checkedAts) as string[];
    const bnos = JSON.parse(g.numbers) as string[];
    for (let i = 0; i < bnos.length; i++) {
      if (!(Date.parse(checkedAts[i]!) < began)) return null;
      out.bnos.push(bnos[i]!);
      out.sources.push(g.source);
      out.checkedAts.push(checkedAts[i]!);
    }
  }
  return out;
}
