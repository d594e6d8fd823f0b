// 진위확인: whether the details a customer holds (opening date, representative, name…) are the
// ones NTS registered for a number. The question and the answer as NTS's validate API frames
// them; pure, so the client, the sandbox and the batch path share one definition.
import type { NtsRecord, UpstreamError } from './status.ts';

/** The fields NTS checks, in the order NTS documents them. Absent optional fields are ''. */
export const VALIDATE_FIELDS = ['b_no', 'start_dt', 'p_nm', 'p_nm2', 'b_nm', 'corp_no', 'b_sector', 'b_type', 'b_adr'] as const;
export type ValidateQuery = Record<(typeof VALIDATE_FIELDS)[number], string>;

/** NTS's answer to one question: 01 the details match (with the status record), 02 they do not. */
export interface ValidateAnswer {
  valid: '01' | '02';
  /** NTS's text when it could not confirm ("확인할 수 없습니다."), else '' */
  valid_msg: string;
  /** the status record NTS nests in a 01 answer; null for 02 */
  status: NtsRecord | null;
}

/** What NTS says when the details do not match a registration. */
export const NTS_NOT_CONFIRMED_TEXT = '확인할 수 없습니다.';

/**
 * One question as a key: equal questions (after trimming) share a key, so concurrent identical
 * questions share one upstream answer, and a key holds everything needed to ask again.
 */
export function validateKey(q: ValidateQuery): string {
  return JSON.stringify(VALIDATE_FIELDS.map((f) => q[f].trim()));
}

export function queryOfKey(key: string): ValidateQuery {
  const values = JSON.parse(key) as string[];
  return Object.fromEntries(VALIDATE_FIELDS.map((f, i) => [f, values[i] ?? ''])) as ValidateQuery;
}

/** A question with its optional fields filled in as '' (how NTS expects absent ones). */
export function validateQuery(input: Partial<ValidateQuery> & Pick<ValidateQuery, 'b_no' | 'start_dt' | 'p_nm'>): ValidateQuery {
  return Object.fromEntries(VALIDATE_FIELDS.map((f) => [f, (input[f] ?? '').trim()])) as ValidateQuery;
}

/**
 * YYYYMMDD, or YYYY-MM-DD / YYYY.MM.DD as spreadsheets hold dates, → YYYYMMDD when it is a real
 * calendar date; otherwise null.
 */
export function openingDate(text: string): string | null {
  const m = /^(\d{4})[-./]?(\d{2})[-./]?(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return null;
  if (Number(y) < 1900) return null;
  return `${y}${mo}${d}`;
}

/** One question's answer as the service hands it on: when and from where. */
export interface ValidatedAnswer {
  answer: ValidateAnswer;
  source: 'nts' | 'sandbox';
  checkedAt: string;
}

/** The one way the service asks 진위확인 questions (the registry, the sandbox or a stand-in). */
export interface Validator {
  /** Keyed by validateKey; a question the upstream did not answer is in `unanswered` with why. */
  validate(queries: readonly ValidateQuery[]): Promise<{ answers: Map<string, ValidatedAnswer>; unanswered: Map<string, UpstreamError> }>;
}

