// One 진위확인, charged exactly like a lookup: the check digit first (free, nothing sent), then
// one lookup reserved, NTS asked, and the lookup given back if NTS did not answer.
import { hasValidCheckDigit } from '../domain/bizno.ts';
import type { Locale } from '../domain/locale.ts';
import { buildVerification, formatReason, type Verification } from '../domain/verification.ts';
import { openingDate, type ValidateQuery, validateKey, type ValidatedAnswer, type Validator, validateQuery } from '../domain/validation.ts';
import { AppError } from '../errors.ts';
import { unansweredProblem } from '../registry/daily-budget.ts';
import type { Account } from '../domain/account.ts';
import type { Quota, QuotaState } from '../accounts/quota.ts';
import type { EvidenceService } from '../evidence/evidence-service.ts';

export interface ValidateInput {
  b_no: string;
  start_dt: string;
  p_nm: string;
  p_nm2?: string | undefined;
  b_nm?: string | undefined;
  corp_no?: string | undefined;
  b_sector?: string | undefined;
  b_type?: string | undefined;
  b_adr?: string | undefined;
}

type StatusPart = Pick<Verification, 'biz_status' | 'closed_on' | 'tax_type' | 'nts' | 'entity_type' | 'reasons' | 'checked_at' | 'source'>;

export interface ValidationResult extends Omit<StatusPart, 'biz_status'> {
  b_no: string;
  /** NTS confirmed the details (valid "01") */
  valid: boolean;
  /** NTS's code: "01" confirmed, "02" not; null when nothing was asked (check digit fails) */
  valid_code: '01' | '02' | null;
  /** NTS's text when it could not confirm ("확인할 수 없습니다."), else null */
  valid_msg: string | null;
  /** the status NTS returned with a confirmation; `invalid` for a bad check digit; null when not confirmed */
  biz_status: Verification['biz_status'] | null;
  /** the kept record of NTS's answer (GET /verifications/{id}); null when nothing was asked */
  verification_id: string | null;
}

/** The question NTS is asked, or a 400 naming what is wrong with the input. */
export function queryFromInput(input: ValidateInput): ValidateQuery {
  const start = openingDate(input.start_dt);
  if (start === null) throw new AppError('bad_request', `start_dt must be the opening date as YYYYMMDD (a real date), got ${JSON.stringify(input.start_dt)}`);
  if (input.p_nm.trim() === '') throw new AppError('bad_request', 'p_nm (the representative\'s name) must not be empty');
  const corpNo = input.corp_no?.replace(/-/g, '').trim() ?? '';
  if (corpNo !== '' && !/^\d{13}$/.test(corpNo)) throw new AppError('bad_request', 'corp_no must be the 13-digit 법인등록번호');
  return validateQuery({ ...input, start_dt: start, corp_no: corpNo });
}

/** The result for one question, from NTS's answer (or none: check digit fails). */
export function validationResult(bno: string, validated: ValidatedAnswer | null, locale: Locale): ValidationResult {
  if (validated === null) {
    const v = buildVerification(bno, null, { invalid: true, locale });
    return { ...statusPart(v), b_no: bno, valid: false, valid_code: null, valid_msg: null, verification_id: null };
  }
  const { answer } = validated;
  if (answer.valid === '01' && answer.status) {
    const v = buildVerification(bno, { record: answer.status, source: validated.source, checkedAt: validated.checkedAt, fromCache: false, stale: false }, { invalid: false, locale });
    const confirmed = formatReason('confirmed', 0, locale === 'ko' ? '국세청 진위확인: 입력한 사업자 정보가 등록 내용과 일치함' : 'NTS authenticity check: the details match the registration', 'nts');
    return { ...statusPart(v), reasons: [confirmed, ...v.reasons], b_no: bno, valid: true, valid_code: '01', valid_msg: null, verification_id: null };
  }
  const text = answer.valid_msg || '확인할 수 없습니다.';
  return {
    b_no: bno,
    valid: false,
    valid_code: answer.valid,
    valid_msg: text,
    // NTS says nothing about a business whose details it could not confirm
    biz_status: null,
    closed_on: null,
    tax_type: null,
    nts: null,
    entity_type: buildVerification(bno, null, { invalid: false, locale }).entity_type,
    reasons: [formatReason('not_confirmed', 0, locale === 'ko' ? `국세청 진위확인: ${text}` : `NTS authenticity check: the details could not be confirmed (${text})`, 'nts')],
    checked_at: validated.checkedAt,
    source: validated.source,
    verification_id: null,
  };
}

function statusPart(v: Verification): StatusPart {
  return {
    biz_status: v.biz_status, closed_on: v.closed_on, tax_type: v.tax_type, nts: v.nts, entity_type: v.entity_type,
    reasons: v.reasons, checked_at: v.checked_at, source: v.source,
  };
}

export class ValidateService {
  readonly #validator: Validator;
  readonly #quota: Quota;
  readonly #evidence: EvidenceService;

  constructor(validator: Validator, quota: Quota, evidence: EvidenceService) {
    this.#validator = validator;
    this.#quota = quota;
    this.#evidence = evidence;
  }

  async validate(account: Account, input: ValidateInput, locale: Locale): Promise<{ result: ValidationResult; quota: QuotaState }> {
    const query = queryFromInput(input);
    if (!hasValidCheckDigit(query.b_no)) {
      return { result: validationResult(query.b_no, null, locale), quota: await this.#quota.current(account) };
    }
    const reservation = await this.#quota.reserveOne(account);
    let asked;
    try {
      asked = await this.#validator.validate([query]);
    } catch (err) {
      await this.#quota.refund(reservation);
      throw err;
    }
    const validated = asked.answers.get(validateKey(query));
    if (!validated) {
      await this.#quota.refund(reservation);
      const p = unansweredProblem(asked.unanswered.get(validateKey(query)), 'this authenticity check');
      throw new AppError(p.code, p.detail, { headers: { 'retry-after': String(p.retryAfterS) } });
    }
    const [kept] = await this.#evidence.record([
      { accountId: account.id, bno: query.b_no, api: 'validate', source: validated.source, checkedAt: validated.checkedAt, record: { request: query, ...validated.answer } },
    ]);
    return { result: { ...validationResult(query.b_no, validated, locale), verification_id: kept!.id }, quota: reservation.state };
  }
}
