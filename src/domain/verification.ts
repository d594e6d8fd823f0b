// What a verification answers, built from an NTS record. Pure: the same inputs give the same
// result, so every rule here is unit-tested without I/O.
import { entityKindOf, type EntityKind } from './bizno.ts';
import type { Locale } from './locale.ts';
import type { NtsRecord, StatusAnswer } from './status.ts';
import type { AddressChange, MatchQuality } from './address/types.ts';

/**
 * `converted`: NTS reports the number 폐업 with `utcc_yn` "Y" (단위과세전환폐업). The branch number
 * was closed because the company moved to 사업자단위과세 (one number for all its places); the
 * place of business goes on under the head office's number, so it is not a closure to act on.
 */
export const BIZ_STATUSES = ['active', 'suspended', 'closed', 'converted', 'unregistered', 'invalid', 'unknown'] as const;
export type BizStatus = (typeof BIZ_STATUSES)[number];

export function statusFromNts(record: Pick<NtsRecord, 'b_stt_cd' | 'utcc_yn'>): BizStatus {
  switch (record.b_stt_cd) {
    case '01':
      return 'active';
    case '02':
      return 'suspended';
    case '03':
      return record.utcc_yn === 'Y' ? 'converted' : 'closed';
    case '':
      return 'unregistered';
  }
}

/** YYYYMMDD → YYYY-MM-DD; anything else → null. */
export function ntsDate(value: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** `nts` in a result: the record exactly as NTS sent it (dates YYYYMMDD, '' for none). */
export type NtsDetail = NtsRecord;

/** The address analysis returned with an assessed result, component by component. */
export interface AddressReport {
  quality: MatchQuality | 'unavailable';
  changes: AddressChange[];
  candidates: number;
  missing_building_number: boolean;
  missing_unit: boolean;
  zip_mismatch: boolean;
  outdated_zip: boolean;
  /** the matched building's 25-digit 건물관리번호, its lot address and its 참고항목; null without a match */
  building_id: string | null;
  jibun_address: string | null;
  reference: string | null;
}

export interface Verification {
  b_no: string;
  biz_status: BizStatus;
  bounce_prob: number | null;
  grade: string | null;
  action: string | null;
  fixed_zipcode: string | null;
  fixed_address: string | null;
  reasons: string[];
  entity_type: EntityKind;
  closed_on: string | null;
  tax_type: string | null;
  nts: NtsDetail | null;
  /** when the status was obtained from the registry (ISO-8601 UTC) */
  checked_at: string | null;
  source: 'nts' | 'sandbox' | null;
  /** the kept record of the NTS answer this result rests on (GET /verifications/{id}); null without one */
  verification_id: string | null;
  cached: boolean;
  stale: boolean;
  model_version: string | null;
  /** null unless an address was assessed */
  address: AddressReport | null;
}

const STATUS_TEXT: Record<Locale, Record<Exclude<BizStatus, 'invalid' | 'unknown'>, string>> = {
  ko: {
    active: '계속사업자', suspended: '휴업자', closed: '폐업자', unregistered: '국세청에 등록되지 않은 사업자등록번호',
    converted: '사업자단위과세 전환으로 이 번호만 폐업 (사업은 본점 번호로 계속)',
  },
  en: {
    active: 'operating', suspended: 'suspended', closed: 'closed', unregistered: 'not registered with the NTS',
    converted: 'this number closed on conversion to single-number (unit) VAT filing; the business goes on under the head office number',
  },
};

/**
 * `[label ±w.ww] text (source)`. The weight is the factor's contribution to the bounce model's
 * log-odds; with no assessment requested, status reasons carry 0.00 because nothing was scored.
 */
export function formatReason(label: string, weight: number, text: string, source: string): string {
  const w = Math.abs(weight) < 0.005 ? 0 : weight;
  const sign = w < 0 ? '-' : '+';
  return `[${label} ${sign}${Math.abs(w).toFixed(2)}] ${text} (${source})`;
}

export function statusReason(status: BizStatus, record: NtsRecord | null, locale: Locale): string {
  switch (status) {
    case 'invalid':
      return formatReason(
        'invalid', 0,
        locale === 'ko' ? '유효한 사업자등록번호가 아님: 10자리 숫자가 아니거나 검증번호가 맞지 않음 (국세청 조회 안 함)' : 'not a valid business number: not ten digits, or the check digit does not match (not sent to the NTS)',
        'input',
      );
    case 'unknown':
      return formatReason('unknown', 0, locale === 'ko' ? '국세청 상태를 확인하지 못함' : 'NTS status could not be obtained', 'nts');
    case 'active':
    case 'suspended':
    case 'unregistered':
    case 'converted':
    case 'closed': {
      const closedOn = record ? ntsDate(record.end_dt) : null;
      const head = locale === 'ko' ? '국세청 상태' : 'NTS status';
      const tail = status === 'closed' && closedOn ? (locale === 'ko' ? ` (${closedOn} 폐업)` : ` (closed ${closedOn})`)
        : status === 'converted' && closedOn ? (locale === 'ko' ? ` (${closedOn} 전환)` : ` (converted ${closedOn})`) : '';
      return formatReason(status, 0, `${head}: ${STATUS_TEXT[locale][status]}${tail}`, 'nts');
    }
  }
}

/** What the assessment reads of a verification (mailing-score.ts): the status and what it rests on, no texts. */
export type ScoredVerification = Pick<Verification, 'b_no' | 'biz_status' | 'closed_on' | 'entity_type'> & { nts: Pick<NtsDetail, 'end_dt' | 'tax_type_cd'> | null };

const statusOfAnswer = (answer: StatusAnswer | null, invalid: boolean): BizStatus => (invalid ? 'invalid' : answer ? statusFromNts(answer.record) : 'unknown');
const closedOnOf = (status: BizStatus, record: NtsRecord | null): string | null => (status === 'closed' && record ? ntsDate(record.end_dt) : null);

/**
 * buildVerification's fields the assessment reads, and only those: a batch chunk's named rows
 * are assessed on these (in an address thread), and the rest of their results is rebuilt from
 * the answer when read, so formatting the status reason and filling a whole result for each row
 * was work and garbage the chunk did not use.
 */
export function scoredVerification(bno: string, answer: StatusAnswer | null, opts: { invalid: boolean }): ScoredVerification {
  const status = statusOfAnswer(answer, opts.invalid);
  const record = answer?.record ?? null;
  return {
    b_no: bno, biz_status: status, closed_on: closedOnOf(status, record), entity_type: entityKindOf(bno),
    nts: record ? { end_dt: record.end_dt, tax_type_cd: record.tax_type_cd } : null,
  };
}

/** The result for a number: `answer` null means invalid (when `invalid`) or unknown. */
export function buildVerification(bno: string, answer: StatusAnswer | null, opts: { invalid: boolean; locale: Locale }): Verification {
  const status = statusOfAnswer(answer, opts.invalid);
  const record = answer?.record ?? null;
  return {
    b_no: bno,
    biz_status: status,
    bounce_prob: null,
    grade: null,
    action: null,
    fixed_zipcode: null,
    fixed_address: null,
    reasons: [statusReason(status, record, opts.locale)],
    entity_type: entityKindOf(bno),
    closed_on: closedOnOf(status, record),
    // for an unregistered number NTS puts its explanation in tax_type; that is not a tax type
    tax_type: record && status !== 'unregistered' && record.tax_type ? record.tax_type : null,
    nts: record,
    checked_at: answer?.checkedAt ?? null,
    source: answer?.source ?? null,
    verification_id: null,
    cached: answer?.fromCache ?? false,
    stale: answer?.stale ?? false,
    model_version: null,
    address: null,
  };
}
