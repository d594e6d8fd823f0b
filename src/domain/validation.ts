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


/** Excel's day 0 (1899-12-30, after its 1900 leap-year bug) in Unix milliseconds. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * An opening date as a customer's file holds it → YYYYMMDD, or null. Beyond openingDate's forms:
 * one-digit months and days and the separators Korean offices type ("1996. 2. 14.", "1996/2/14",
 * "1996년 2월 14일"), a date cell's midnight time ("1996-02-14 00:00:00"), and a date cell
 * Excel stored as a plain number (its day serial, 35109 = 1996-02-14).
 */
export function openingDateFromCell(text: string): string | null {
  const s = text.normalize('NFKC').trim();
  const strict = openingDate(s);
  if (strict) return strict;
  if (/^\d{5}$/.test(s)) {
    const serial = Number(s);
    // five digits are 1927-05-18 … 2099-12-31 as serials (a four-digit year alone is not a date)
    if (serial > 73_050) return null;
    const d = new Date(EXCEL_EPOCH_MS + serial * 86_400_000);
    return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  }
  const m = /^(\d{4})\s*(?:[-./]|년)\s*(\d{1,2})\s*(?:[-./]|월)\s*(\d{1,2})\s*(?:\.|일)?(?:\s+0{1,2}:00(?::00)?)?$/.exec(s);
  return m ? openingDate(`${m[1]}${m[2]!.padStart(2, '0')}${m[3]!.padStart(2, '0')}`) : null;
}

/**
 * What a batch row brings to 진위확인: its representative and opening-date cells. Both blank (or
 * either: mailing lists rarely hold the opening date) is not a question and not an error; a date
 * that cannot be read is said so rather than sent.
 */
export type RowValidationInput =
  | { kind: 'ask'; query: ValidateQuery }
  | { kind: 'unreadable_date'; p_nm: string; start_dt: string };

export function rowValidationInput(bno: string, pNmCell: string | undefined, startCell: string | undefined): RowValidationInput | null {
  const pNm = (pNmCell ?? '').trim();
  const startRaw = (startCell ?? '').trim();
  if (pNm === '' || startRaw === '') return null;
  const start = openingDateFromCell(startRaw);
  if (start === null) return { kind: 'unreadable_date', p_nm: pNm, start_dt: startRaw };
  return { kind: 'ask', query: validateQuery({ b_no: bno, start_dt: start, p_nm: pNm }) };
}

/** A batch row's `validation`: what was asked and what NTS said. */
export interface RowValidation {
  /**
   * `confirmed` (NTS 01), `not_confirmed` (02), `unanswered` (NTS did not answer; nothing is
   * known), `unreadable_date` (the opening-date cell is not a date: nothing was asked)
   */
  status: 'confirmed' | 'not_confirmed' | 'unanswered' | 'unreadable_date';
  valid: boolean | null;
  valid_code: '01' | '02' | null;
  /** NTS's text for 02, or why nothing is known */
  valid_msg: string | null;
  /** the representative and the opening date asked about (the date as YYYYMMDD; as written when unreadable) */
  p_nm: string;
  start_dt: string;
  checked_at: string | null;
}

export function rowValidation(input: RowValidationInput, answer: ValidatedAnswer | null, why?: string): RowValidation {
  if (input.kind === 'unreadable_date') {
    return {
      status: 'unreadable_date', valid: null, valid_code: null, valid_msg: `개업일 "${input.start_dt}"을(를) 날짜로 읽을 수 없어 확인하지 않았습니다`,
      p_nm: input.p_nm, start_dt: input.start_dt, checked_at: null,
    };
  }
  const asked = { p_nm: input.query.p_nm, start_dt: input.query.start_dt };
  if (answer === null) return { status: 'unanswered', valid: null, valid_code: null, valid_msg: why ?? 'NTS did not answer', ...asked, checked_at: null };
  const ok = answer.answer.valid === '01';
  return {
    status: ok ? 'confirmed' : 'not_confirmed', valid: ok, valid_code: answer.answer.valid,
    valid_msg: ok ? null : answer.answer.valid_msg || NTS_NOT_CONFIRMED_TEXT, ...asked, checked_at: answer.checkedAt,
  };
}
