// A job's rows as the API shows them. Scored rows (with a name, or checked by 진위확인) carry the
// result stored when their chunk was processed; every other row's result is rebuilt from its number's answer, with
// the same function that processing used, so it is what storing it would have given.
import { hasValidCheckDigit } from '../domain/bizno.ts';
import { buildVerification, scoredVerification, statusFromNts, type BizStatus, type ScoredVerification, type Verification } from '../domain/verification.ts';
import { type NtsRecord, recordsAlikeButNumber, type StatusAnswer } from '../domain/status.ts';
import type { BatchStore } from '../store/batches.ts';
import type { BatchJob, BatchRow, BatchRowInput, ChosenHeaders, ChunkOutput, StoredChunk } from '../domain/batch.ts';
import { AppError } from '../errors.ts';
import { rowValidationInput, type RowValidationInput } from '../domain/validation.ts';
import { type EvidenceInput, evidenceOf, recordJsonFor } from '../domain/evidence.ts';
import { chunksAfter } from './chunks.ts';
import type { Locale } from '../domain/locale.ts';

type Answers = ChunkOutput['answers'];

/** 410 for a job whose rows expired at the end of its account's retention: it is still there, its rows are not. */
export function expiredProblem(job: BatchJob): AppError {
  return new AppError('gone', `the rows and results of job ${job.id} were deleted on ${job.expiredAt} at the end of the account's retention; its counts remain (GET /batch/${job.id})`, {
    extra: { expired_at: job.expiredAt },
  });
}

/** The number a row is looked up and charged by, or null when it does not pass the check digit. */
export function lookupNumber(row: BatchRowInput): string | null {
  return row.valid && row.bno && hasValidCheckDigit(row.bno) ? row.bno : null;
}

function answerOf(answers: Answers, bno: string): StatusAnswer | null {
  return answers.get(bno) ?? null;
}

/**
 * What a row brings to 진위확인 when its job reads a representative and an opening-date column:
 * the question to ask, or an unreadable date; null when the row asks nothing (a blank cell, a
 * number that fails its check digit, a job without those columns).
 */
export function validationInputOf(row: BatchRowInput, chosen: ChosenHeaders): RowValidationInput | null {
  if (!chosen.representative || !chosen.opened) return null;
  const bno = lookupNumber(row);
  return bno === null ? null : rowValidationInput(bno, row.cells[chosen.representative], row.cells[chosen.opened]);
}

/** The evidence of a number's answer as served to the job's account (see domain/evidence.ts). */
export function answerEvidence(accountId: string, bno: string, answer: StatusAnswer): EvidenceInput {
  return { accountId, bno, api: 'status', source: answer.source, checkedAt: answer.checkedAt, record: answer.record };
}

/**
 * The unscored result of a row of `accountId`'s job, given the answers of its chunk's numbers;
 * it names the evidence of its number's answer, which processing kept. `ids`: the chunk's
 * evidence ids by number, filled as they are derived (two SHA-256 a number, not a row).
 */
export function verificationOf(row: BatchRowInput, answers: Answers, accountId: string, ids: Map<string, string> | undefined, locale: Locale): Verification {
  const bno = lookupNumber(row);
  if (bno === null) return buildVerification(row.bno ?? row.bnoRaw, null, { invalid: true, locale });
  const answer = answerOf(answers, bno);
  const v = buildVerification(bno, answer, { invalid: false, locale });
  if (!answer) return v;
  let id = ids?.get(bno);
  if (id === undefined) {
    id = evidenceOf(answerEvidence(accountId, bno, answer)).id;
    ids?.set(bno, id);
  }
  return { ...v, verification_id: id };
}

/**
 * The evidence of a chunk's answers as served to `accountId`, each with its record's canonical
 * JSON. Alike answers (most of a chunk's) share it but for the number, so it is made once per
 * kind of record: answers are put in buckets by a few telling fields and compared field by field
 * within them, rather than each record written out as JSON to be looked up by (~1 µs an answer).
 */
export function evidenceInputsOf(accountId: string, answers: Answers): EvidenceInput[] {
  const out: EvidenceInput[] = [];
  const buckets = new Map<string, { record: NtsRecord; json: (bno: string) => string }[]>();
  for (const [bno, answer] of answers) {
    if (!answer) continue;
    const { record } = answer;
    const e: EvidenceInput = answerEvidence(accountId, bno, answer);
    const own: unknown = record.b_no;
    if (typeof own === 'string') {
      const key = `${record.b_stt_cd}|${record.tax_type_cd}|${record.end_dt}`;
      let bucket = buckets.get(key);
      if (!bucket) buckets.set(key, (bucket = []));
      let kind = bucket.find((k) => recordsAlikeButNumber(k.record, record));
      if (!kind) {
        const { b_no: _, ...rest } = record;
        bucket.push((kind = { record, json: recordJsonFor(rest) }));
      }
      e.recordJson = kind.json(own);
    }
    out.push(e);
  }
  return out;
}

/** What the assessment reads of verificationOf(row, answers, …) (a named row of a chunk being processed), without the rest. */
export function scoredVerificationOf(row: BatchRowInput, answers: Answers): ScoredVerification {
  const bno = lookupNumber(row);
  return bno === null ? scoredVerification(row.bno ?? row.bnoRaw, null, { invalid: true }) : scoredVerification(bno, answerOf(answers, bno), { invalid: false });
}

/** Evidence ids derived for a read chunk's output, kept while the output is (a chunk's rows repeat numbers). */
const readIds = new WeakMap<ChunkOutput, Map<string, string>>();

/** verificationOf(row, answers).biz_status without building the result (for the counts). */
export function statusOf(row: BatchRowInput, answers: Answers): BizStatus {
  const bno = lookupNumber(row);
  if (bno === null) return 'invalid';
  const answer = answerOf(answers, bno);
  return answer ? statusFromNts(answer.record) : 'unknown';
}

/** A row as the job shows it, its reasons in the language of the job (its uploader's). */
export function rowOf(chunk: StoredChunk, row: BatchRowInput, job: Pick<BatchJob, 'accountId' | 'locale'>): BatchRow {
  const out = chunk.output;
  if (!out) return { ...row, result: null, features: null, addressKey: null };
  const scored = out.scored.get(row.rowId);
  if (scored && !scored.over) return { ...row, result: scored.result, features: scored.features, addressKey: scored.addressKey };
  let ids = readIds.get(out);
  if (!ids) readIds.set(out, (ids = new Map()));
  const v = verificationOf(row, out.answers, job.accountId, ids, job.locale) as unknown as Record<string, unknown>;
  if (scored) return { ...row, result: { ...v, ...scored.result }, features: scored.features, addressKey: scored.addressKey };
  return { ...row, result: v, features: null, addressKey: null };
}

/** Rows in file order after `afterRowId`, at most `limit`. */
export async function rowsAfter(store: BatchStore, job: Pick<BatchJob, 'id' | 'accountId' | 'locale'>, afterRowId: number, limit: number): Promise<BatchRow[]> {
  const jobId = job.id;
  const out: BatchRow[] = [];
  let after = afterRowId;
  while (out.length < limit) {
    const chunks = await chunksAfter(store, jobId, after, 1);
    const chunk = chunks[0];
    if (!chunk) break;
    for (const row of chunk.rows) {
      if (row.rowId <= after) continue;
      if (out.length >= limit) break;
      out.push(rowOf(chunk, row, job));
    }
    after = chunk.lastRow;
  }
  return out;
}

/**
 * Every row in file order, one chunk at a time (for downloads): a chunk is bounded by rows and
 * by characters, so a download holds one bounded chunk however wide the file.
 */
export async function* allRows(store: BatchStore, job: Pick<BatchJob, 'id' | 'accountId' | 'locale'>): AsyncGenerator<BatchRow> {
  const jobId = job.id;
  for (let after = 0; ; ) {
    const chunks = await chunksAfter(store, jobId, after, 1);
    if (chunks.length === 0) return;
    for (const chunk of chunks) {
      for (const row of chunk.rows) yield rowOf(chunk, row, job);
      after = chunk.lastRow;
    }
  }
}
