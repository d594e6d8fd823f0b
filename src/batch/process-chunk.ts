// One chunk of a batch job: its rows' distinct numbers looked up once (or reused from earlier
// chunks of the job), each row verified and, with a name, assessed; then everything committed
// with the chunk in one transaction (BatchStore.completeChunk).
import { hasValidCheckDigit } from '../domain/bizno.ts';
import { buildVerification, type Verification } from '../domain/verification.ts';
import type { StatusAnswer, StatusService } from '../registry/types.ts';
import type { BatchJob, BatchRow, BatchRowResult, NumberOutcome } from '../store/batch-store.ts';
import type { Account } from '../store/store.ts';
import type { AssessService } from '../verification/assess-service.ts';

export interface ChunkInputs {
  job: BatchJob;
  account: Account;
  rows: readonly BatchRow[];
  /** answers already recorded by earlier chunks of this job */
  known: ReadonlyMap<string, StatusAnswer | null>;
}

export interface ChunkDeps {
  status: StatusService;
  assess: AssessService;
  now: () => Date;
}

export async function processChunk(deps: ChunkDeps, input: ChunkInputs): Promise<{ results: BatchRowResult[]; numbers: NumberOutcome[] }> {
  const { job, account, rows, known } = input;
  const fresh = [...new Set(rows.filter((r) => r.valid && r.bno && !known.has(r.bno)).map((r) => r.bno!))];
  const looked = fresh.length > 0 ? await deps.status.lookup(fresh, { offline: job.offline }) : { answers: new Map<string, StatusAnswer>(), unanswered: new Map() };
  const numbers: NumberOutcome[] = fresh.map((bno) => {
    const answer = looked.answers.get(bno) ?? null;
    // offline jobs were never charged; an unanswered or stale number is given back
    return { bno, answer, refund: !job.offline && (answer === null || answer.stale) };
  });
  const answerOf = (bno: string): StatusAnswer | null => (known.has(bno) ? (known.get(bno) ?? null) : (looked.answers.get(bno) ?? null));

  const results: BatchRowResult[] = [];
  for (const row of rows) {
    const bno = row.bno ?? row.bnoRaw;
    const invalid = !row.valid || !row.bno || !hasValidCheckDigit(row.bno);
    let v: Verification = buildVerification(bno, invalid ? null : answerOf(row.bno!), { invalid, locale: 'ko' });
    let features: Record<string, number> | null = null;
    let addressKey: string | null = null;
    const name = row.name?.trim();
    if (name) {
      const assessed = await deps.assess.assess(account, v, { name, address: row.address ?? undefined }, 'ko', deps.now());
      v = { ...v, ...assessed.fields, address: assessed.address };
      features = assessed.features;
      addressKey = assessed.addressKey;
    }
    results.push({ rowId: row.rowId, result: v as unknown as Record<string, unknown>, bizStatus: v.biz_status, grade: v.grade, features, addressKey });
  }
  return { results, numbers };
}
