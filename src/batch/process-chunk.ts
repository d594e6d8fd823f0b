// One chunk of a batch job: its distinct numbers looked up once (or taken from what an earlier
// chunk of the job recorded for a shared number), the rows with a name assessed, the rest left to
// be rebuilt from their answers when read (job-rows.ts); then everything is committed with the
// chunk in one transaction (BatchStore.completeChunk).
import type { StatusAnswer, StatusService } from '../domain/status.ts';
import type { BatchJob, BatchRowInput, ChunkCompletion, ChunkOutput, NumberOutcome, SharedNumber, Tally } from '../domain/batch.ts';
import type { Account } from '../domain/account.ts';
import type { AssessService } from '../verification/assess-service.ts';
import { lookupNumber, statusOf, verificationOf } from './job-rows.ts';

export interface ChunkInputs {
  job: BatchJob;
  account: Account;
  rows: readonly BatchRowInput[];
  /** the chunk's numbers that other chunks share, with the answer recorded for them so far */
  shared: ReadonlyMap<string, SharedNumber>;
}

export interface ChunkDeps {
  status: StatusService;
  assess: AssessService;
  now: () => Date;
}

/** The distinct check-digit-valid numbers of some rows. */
export function chunkNumbers(rows: readonly BatchRowInput[]): string[] {
  const out = new Set<string>();
  for (const row of rows) {
    const bno = lookupNumber(row);
    if (bno !== null) out.add(bno);
  }
  return [...out];
}

export async function processChunk(deps: ChunkDeps, input: ChunkInputs): Promise<ChunkCompletion> {
  const { job, account, rows, shared } = input;
  const all = chunkNumbers(rows);
  const answers: ChunkOutput['answers'] = new Map();
  const fresh: string[] = [];
  for (const bno of all) {
    const s = shared.get(bno);
    if (s?.answered) answers.set(bno, s.answer);
    else fresh.push(bno);
  }
  const looked = fresh.length > 0 ? (await deps.status.lookup(fresh, { offline: job.offline })).answers : new Map<string, StatusAnswer>();
  const numbers: NumberOutcome[] = fresh.map((bno) => {
    const answer = looked.get(bno) ?? null;
    answers.set(bno, answer);
    // offline jobs were never charged; an unanswered or stale number is given back
    return { bno, answer, refund: !job.offline && (answer === null || answer.stale), shared: shared.has(bno) };
  });

  const scored: ChunkOutput['scored'] = new Map();
  const counts: Tally = { byStatus: {}, byGrade: {} };
  for (const row of rows) {
    const name = row.name?.trim();
    if (!name) {
      const status = statusOf(row, answers);
      counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
      continue;
    }
    const v = verificationOf(row, answers);
    const assessed = await deps.assess.assess(account, v, { name, address: row.address ?? undefined }, 'ko', deps.now());
    const result = { ...v, ...assessed.fields, address: assessed.address };
    scored.set(row.rowId, { result, features: assessed.features, addressKey: assessed.addressKey });
    counts.byStatus[result.biz_status] = (counts.byStatus[result.biz_status] ?? 0) + 1;
    if (result.grade) counts.byGrade[result.grade] = (counts.byGrade[result.grade] ?? 0) + 1;
  }
  return { output: { answers, scored }, numbers, counts, rows: rows.length };
}

/**
 * A chunk that cannot be processed (it failed on every attempt), settled instead of left pending:
 * its numbers are answered with nothing and given back (unless an earlier chunk answered a shared
 * one), its rows read as `unknown`, and `failure` ends the job as failed once its other chunks are
 * done. Nothing here can fail on the chunk's content: the output holds numbers only.
 */
export function unansweredChunk(input: Pick<ChunkInputs, 'job' | 'rows' | 'shared'>, failure: string): ChunkCompletion {
  const { job, rows, shared } = input;
  const answers: ChunkOutput['answers'] = new Map();
  const numbers: NumberOutcome[] = [];
  for (const bno of chunkNumbers(rows)) {
    const s = shared.get(bno);
    if (s?.answered) {
      answers.set(bno, s.answer);
      continue;
    }
    answers.set(bno, null);
    numbers.push({ bno, answer: null, refund: !job.offline, shared: shared.has(bno) });
  }
  const counts: Tally = { byStatus: {}, byGrade: {} };
  for (const row of rows) {
    const status = statusOf(row, answers);
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  }
  return { output: { answers, scored: new Map() }, numbers, counts, rows: rows.length, failure };
}
