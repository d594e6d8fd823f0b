// Messages between AddressThreads (address-threads.ts) and its threads (address-thread.ts).
import type { Config } from '../config.ts';
import type { AddressCheck } from './address-service.ts';
import type { ChunkMailing, KeptChunk, ScoredVerification, ScoringContext } from '../domain/mailing-score.ts';
import type { LabelCounts } from '../domain/label.ts';

/**
 * What a thread opens: the local directory in the store, or the sandbox. `mmapBytes`: of an
 * embedded store's file, how much the thread reads through a memory map (see openDirectoryFile).
 */
export type AddressThreadSetup = { directory: 'local'; store: Config['store']; mmapBytes?: number } | { directory: 'sandbox' };

export type ToAddressThread =
  /** check these addresses; with `keep`, keep the checks for a `score` of the same chunk and answer only what each is counted by (its delivery point) */
  | { id: number; raws: string[]; keep?: true }
  /** score a chunk's mailings against the checks kept by call `session` (then forgotten) */
  | { id: number; score: { session: number; rows: MailingColumns; ctx: ScoringContext } }
  /** close the directory and end (what is in flight is answered first) */
  | { id: number; stop: true };

export type FromAddressThread =
  | { id: number; checks: [string, AddressCheck | { error: string }][] }
  /** the checks were kept: per address asked, in its order, its delivery point (deliveryPointOf; null: no building matched) or the directory's error */
  | { id: number; points: (string | null | { error: string })[] }
  | { id: number; scored: KeptColumns }
  /** the whole call failed (the per-address failures are in `checks`) */
  | { id: number; failed: string };

// A chunk's rows cross to the thread and back as columns: a structured clone of a thousand nested
// objects cost 4.0–4.5 µs a row (written on one side, read on the other), of the same values as a
// few arrays 0.6 µs; the scored rows coming back 1.4–1.7 µs a row as objects (bench/RESULTS.md).

/** ChunkMailing[] as columns (toColumns); `history` holds HISTORY_FIELDS of each row in turn. */
export interface MailingColumns {
  bno: string[];
  status: ScoredVerification['biz_status'][];
  closedOn: ScoredVerification['closed_on'][];
  entity: ScoredVerification['entity_type'][];
  /** whether the row's verification has an NTS record (then endDt and taxType are its) */
  hasNts: boolean[];
  endDt: (string | undefined)[];
  taxType: (string | undefined)[];
  name: string[];
  raw: string[];
  liveNeighbour: (string | null)[];
  history: number[];
}

const HISTORY_FIELDS = ['bizBounced', 'bizDelivered', 'bizGone', 'bizAbsent', 'addressBounced', 'addressDelivered'] as const;
// a field added to LabelCounts and not listed above would not cross to the thread: it fails to compile here
const listsEveryCount: [Exclude<keyof LabelCounts, (typeof HISTORY_FIELDS)[number]>] extends [never] ? true : never = true;
void listsEveryCount;

export function toColumns(rows: readonly ChunkMailing[]): MailingColumns {
  const c: MailingColumns = { bno: [], status: [], closedOn: [], entity: [], hasNts: [], endDt: [], taxType: [], name: [], raw: [], liveNeighbour: [], history: [] };
  for (const { v, name, raw, liveNeighbour, history } of rows) {
    c.bno.push(v.b_no);
    c.status.push(v.biz_status);
    c.closedOn.push(v.closed_on);
    c.entity.push(v.entity_type);
    c.hasNts.push(v.nts !== null);
    c.endDt.push(v.nts?.end_dt);
    c.taxType.push(v.nts?.tax_type_cd);
    c.name.push(name);
    c.raw.push(raw);
    c.liveNeighbour.push(liveNeighbour);
    for (const f of HISTORY_FIELDS) c.history.push(history[f]);
  }
  return c;
}

export function fromColumns(c: MailingColumns): ChunkMailing[] {
  return c.bno.map((bno, i) => {
    const history = {} as LabelCounts;
    HISTORY_FIELDS.forEach((f, k) => (history[f] = c.history[i * HISTORY_FIELDS.length + k]!));
    return {
      v: { b_no: bno, biz_status: c.status[i]!, closed_on: c.closedOn[i]!, entity_type: c.entity[i]!, nts: c.hasNts[i] ? { end_dt: c.endDt[i]!, tax_type_cd: c.taxType[i]! } : null },
      name: c.name[i]!,
      raw: c.raw[i]!,
      liveNeighbour: c.liveNeighbour[i]!,
      history,
    };
  });
}

/** A KeptChunk with its rows as columns. */
export interface KeptColumns {
  judgements: KeptChunk['judgements'];
  judgement: number[];
  own: string[];
  addressKey: (string | null)[];
}

export function keptToColumns(k: KeptChunk): KeptColumns {
  return { judgements: k.judgements, judgement: k.rows.map((r) => r.judgement), own: k.rows.map((r) => r.own), addressKey: k.rows.map((r) => r.addressKey) };
}

export function keptFromColumns(c: KeptColumns): KeptChunk {
  return { judgements: c.judgements, rows: c.judgement.map((judgement, i) => ({ judgement, own: c.own[i]!, addressKey: c.addressKey[i]! })) };
}
