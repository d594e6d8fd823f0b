// One chunk of a batch job: its distinct numbers looked up once (or taken from what an earlier
// chunk of the job recorded for a shared number), the rows with a name assessed, the rest left to
// be rebuilt from their answers when read (job-rows.ts); then everything is committed with the
// chunk in one transaction (BatchStore.completeChunk).
import { type StatusAnswer, type StatusService, UpstreamError } from '../domain/status.ts';
import { nextSeoulDay } from '../domain/quota-period.ts';
import { type BatchJob, type BatchRowInput, type ChunkCompletion, type ChunkOutput, DAILY_LIMIT_REASON, type NumberOutcome, type SharedNumber, type Tally } from '../domain/batch.ts';
import type { Account } from '../domain/account.ts';
import type { AssessService } from '../verification/assess-service.ts';
import { liveNeighbours } from '../verification/live-neighbours.ts';
import { evidenceInputsOf, lookupNumber, scoredVerificationOf, statusOf, validationInputOf } from './job-rows.ts';
import type { Evidence, EvidenceInput } from '../domain/evidence.ts';
import type { ScoredVerification } from '../domain/verification.ts';
import { rowValidation, type RowValidation, type RowValidationInput, type ValidateQuery, validateKey, type Validator } from '../domain/validation.ts';

export interface ChunkInputs {
  job: BatchJob;
  account: Account;
  rows: readonly BatchRowInput[];
  /** the chunk's numbers that other chunks share, with the answer recorded for them so far */
  shared: ReadonlyMap<string, SharedNumber>;
  /**
   * Answers an earlier round of this chunk got (a round redone because another chunk recorded a
   * shared number first): used again rather than asked again, so a redo changes only the
   * numbers it was redone for.
   */
  known?: ReadonlyMap<string, StatusAnswer>;
}

export interface ChunkDeps {
  status: StatusService;
  assess: AssessService;
  /** 진위확인 for rows with a representative and an opening date; none = they are `unanswered` */
  validator?: Validator;
  /** keeps the evidence of every answer the chunk's rows rest on (none: not kept) */
  evidence?: { record(inputs: readonly EvidenceInput[]): Promise<readonly Evidence[]> };
  now: () => Date;
  /** how long a job waits for NTS to answer again, and how often it asks; none = never wait */
  wait?: { waitMs: number; retryMs: number };
}

/** The chunk cannot be answered now and should be tried again at `until` (see upstreamWait). */
export interface ChunkWait {
  wait: { reason: string; until: Date };
}

/** While a daily allowance is spent, how often a waiting job looks whether it was raised. */
const DAILY_LIMIT_RECHECK_MS = 60_000;

/**
 * Whether a chunk whose numbers NTS did not answer (or answered only from a stale cache) waits
 * for it rather than settle them as unknown: always when the day's allowance is spent (the next
 * day brings it back), else until the job has waited `waitMs` in all.
 */
export function upstreamWait(job: BatchJob, errors: readonly UpstreamError[], policy: NonNullable<ChunkDeps['wait']>, now: Date): ChunkWait | null {
  const quota = errors.find((e) => e.fault === 'quota_exhausted');
  if (quota) {
    const until = Math.min(nextSeoulDay(now).getTime(), now.getTime() + Math.max(policy.retryMs, DAILY_LIMIT_RECHECK_MS));
    return { wait: { reason: `${DAILY_LIMIT_REASON}: ${quota.message}`, until: new Date(until) } };
  }
  const waiting = job.upstreamWait && !job.upstreamWait.reason.startsWith(DAILY_LIMIT_REASON) ? Date.parse(job.upstreamWait.since) : now.getTime();
  if (now.getTime() - waiting >= policy.waitMs) return null;
  const why = errors[0]?.message ?? 'NTS did not answer; only out-of-date cached answers were available';
  return { wait: { reason: `upstream_unavailable: ${why}`, until: new Date(now.getTime() + policy.retryMs) } };
}

/** A turn of the event loop (I/O callbacks run), not just of the microtask queue. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The distinct check-digit-valid numbers of some rows. */
export function chunkNumbers(rows: readonly BatchRowInput[]): string[] {
  const out = new Set<string>();
  for (const row of rows) {
    const bno = lookupNumber(row);
    if (bno !== null) out.add(bno);
  }
  return [...out];
}

export async function processChunk(deps: ChunkDeps, input: ChunkInputs): Promise<ChunkCompletion | ChunkWait> {
  const { job, account, rows, shared } = input;
  // the named rows' addresses are checked (in the address threads) while NTS is asked
  const namedAddresses = rows.filter((row) => row.name?.trim()).map((row) => row.address);
  const addressChecks = namedAddresses.length > 0 ? deps.assess.checkAddresses(namedAddresses) : undefined;
  const all = chunkNumbers(rows);
  const answers: ChunkOutput['answers'] = new Map();
  const fresh: string[] = [];
  for (const bno of all) {
    const s = shared.get(bno);
    if (s?.answered) answers.set(bno, s.answer);
    else fresh.push(bno);
  }
  const known = input.known;
  const toAsk = known ? fresh.filter((bno) => !known.has(bno)) : fresh;
  const lookup = toAsk.length > 0 ? await deps.status.lookup(toAsk, { offline: job.offline, bulk: true }) : null;
  const looked = lookup?.answers ?? new Map<string, StatusAnswer>();
  if (known) for (const bno of fresh) if (known.has(bno)) looked.set(bno, known.get(bno)!);
  if (lookup && !job.offline && deps.wait) {
    const missing = fresh.filter((bno) => !(looked.get(bno) && !looked.get(bno)!.stale));
    if (missing.length > 0) {
      const errors = missing.flatMap((bno) => lookup.unanswered.get(bno) ?? []);
      const wait = upstreamWait(job, errors, deps.wait, deps.now());
      if (wait) return wait;
    }
  }
  // NTS answers the other chunks' lookups meanwhile: between the long synchronous steps of a
  // chunk the event loop hands them over and sends the next calls, so the calls allowed in flight
  // stay in flight
  await yieldToLoop();
  const numbers: NumberOutcome[] = fresh.map((bno) => {
    const answer = looked.get(bno) ?? null;
    answers.set(bno, answer);
    // offline jobs were never charged; an unanswered or stale number is given back
    return { bno, answer, refund: !job.offline && (answer === null || answer.stale), shared: shared.has(bno) };
  });

  const { validations, errors: validateErrors } = await validateRows(deps, job, rows);
  // the rows name these records (verification_id, derived again when results are read): they are
  // kept before the rows are committed
  if (deps.evidence) {
    const kept = evidenceInputsOf(job.accountId, answers);
    await deps.evidence.record(kept);
    await yieldToLoop();
  }
  // NTS down (or the day's allowance spent) for 진위확인 waits like a status lookup does, so an
  // outage does not leave rows unanswered that an hour later would have been answered
  if (validateErrors.length > 0 && deps.wait) {
    const wait = upstreamWait(job, validateErrors, deps.wait, deps.now());
    if (wait) return wait;
  }
  const scored: ChunkOutput['scored'] = new Map();
  const counts: Tally = { byStatus: {}, byGrade: {} };
  const named: { row: BatchRowInput; name: string; v: ScoredVerification }[] = [];
  for (const row of rows) {
    const name = row.name?.trim();
    if (name) {
      named.push({ row, name, v: scoredVerificationOf(row, answers) });
      continue;
    }
    const validation = validations.get(row.rowId);
    if (validation) {
      // its answer alone would not rebuild it: kept like a scored row, with nothing scored
      scored.set(row.rowId, { result: { validation }, over: true, bno: row.bno ?? row.bnoRaw, features: null, addressKey: null });
    }
    const status = statusOf(row, answers);
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  }
  // the chunk's named rows are assessed together (the same result each would get alone)
  const unregistered = named.filter(({ v }) => v.biz_status === 'unregistered').map(({ v }) => v.b_no);
  const near = unregistered.length > 0 ? await liveNeighbours(deps.status, unregistered, { offline: job.offline, bulk: true }) : new Map<string, string>();
  const mailings = named.map(({ row, name, v }) => ({ v, name, address: row.address, liveNeighbour: near.get(v.b_no) ?? null }));
  const kept = named.length === 0 ? { judgements: [], rows: [] } : await deps.assess.assessChunk(account, mailings, job.locale, deps.now(), addressChecks);
  if (named.length > 0) await yieldToLoop();
  const assessed: NonNullable<ChunkOutput['assessed']> = new Map();
  named.forEach(({ row, v }, i) => {
    const a = kept.rows[i]!;
    const validation = validations.get(row.rowId);
    // kept compact: what the assessment adds; the rest is rebuilt from the answer when read
    const own = validation ? `${a.own.slice(0, -1)},${JSON.stringify(validation)}]` : a.own;
    assessed.set(row.rowId, { judgement: a.judgement, own, bno: v.b_no, addressKey: a.addressKey });
    counts.byStatus[v.biz_status] = (counts.byStatus[v.biz_status] ?? 0) + 1;
    const { grade } = kept.judgements[a.judgement]!;
    if (grade) counts.byGrade[grade] = (counts.byGrade[grade] ?? 0) + 1;
  });
  return { output: { answers, scored, assessed, judgements: kept.judgements }, numbers, counts, rows: rows.length };
}

/**
 * The chunk's 진위확인: each distinct question asked once (the validator batches and coalesces
 * them), each asking row given what NTS said. A question NTS did not answer leaves its rows
 * `unanswered`, never a guess, and its error (when waiting could help) is handed back so that the
 * chunk waits for NTS as it does for status. Offline jobs ask nothing: there is no stored answer
 * to 진위확인.
 */
async function validateRows(deps: ChunkDeps, job: BatchJob, rows: readonly BatchRowInput[]): Promise<{ validations: Map<number, RowValidation>; errors: UpstreamError[] }> {
  const out = new Map<number, RowValidation>();
  const errors: UpstreamError[] = [];
  const inputs = new Map<number, RowValidationInput>();
  for (const row of rows) {
    const input = validationInputOf(row, job.chosen);
    if (input) inputs.set(row.rowId, input);
  }
  if (inputs.size === 0) return { validations: out, errors };
  const questions = new Map<string, ValidateQuery>();
  for (const input of inputs.values()) if (input.kind === 'ask') questions.set(validateKey(input.query), input.query);
  let asked: Awaited<ReturnType<Validator['validate']>> | null = null;
  let failure = job.offline ? 'offline job: 진위확인 needs NTS' : 'this service has no 진위확인 upstream';
  if (!job.offline && deps.validator && questions.size > 0) {
    try {
      asked = await deps.validator.validate([...questions.values()]);
    } catch (err) {
      failure = `NTS did not answer: ${err instanceof Error ? err.message : String(err)}`;
      if (err instanceof UpstreamError && (err.retryable || err.fault === 'quota_exhausted')) errors.push(err);
    }
  }
  for (const [rowId, input] of inputs) {
    if (input.kind !== 'ask') {
      out.set(rowId, rowValidation(input, null));
      continue;
    }
    const key = validateKey(input.query);
    const answer = asked?.answers.get(key) ?? null;
    const error = asked?.unanswered.get(key);
    if (error && (error.retryable || error.fault === 'quota_exhausted')) errors.push(error);
    const why = asked ? `NTS did not answer: ${error?.message ?? 'no answer'}` : failure;
    out.set(rowId, rowValidation(input, answer, why));
  }
  return { validations: out, errors };
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
