// The sandbox registry: a synthetic, deterministic stand-in for NTS so the service runs (and
// tests pass) on a machine with no service key and no internet. SANDBOX.md documents the world.

import { createHash } from 'node:crypto';
import { checkDigitOf, entityKindOf, hasValidCheckDigit, isCorporate } from '../domain/bizno.ts';
import { NTS_STATUS_TEXT, NTS_UNREGISTERED_TEXT } from './nts-wire.ts';
import type { NtsRecord, NtsStatusCode, Registry } from '../domain/status.ts';
import { NTS_NOT_CONFIRMED_TEXT, type ValidateAnswer, type ValidateQuery, validateKey } from '../domain/validation.ts';
import type { Settled } from './coalescer.ts';

export type SandboxStatus = 'active' | 'suspended' | 'closed' | 'unregistered';

export interface SandboxFixed {
  bno: string;
  status: SandboxStatus;
  /** closure date for `closed`, else '' */
  endDt: string;
  note: string;
  /** a tax type other than the one the digits and the hash give */
  tax?: { tax_type: string; tax_type_cd: string };
  /** closed on conversion to 사업자단위과세 (utcc_yn "Y") */
  utcc?: boolean;
  /** what 진위확인 confirms for this number (else the hash decides) */
  owner?: { start_dt: string; p_nm: string };
}

const withCheckDigit = (firstNine: string): string => firstNine + String(checkDigitOf(firstNine));

/** Numbers that always give the same status, whatever the hash says. Documented in SANDBOX.md. */
export const SANDBOX_FIXED: readonly SandboxFixed[] = Object.freeze([
  { bno: '1248100998', status: 'active', endDt: '', note: '법인 (81), 일반과세자', owner: { start_dt: '19960214', p_nm: '홍길동' } },
  { bno: withCheckDigit('111111111'), status: 'active', endDt: '', note: '개인 (11), 일반과세자' },
  { bno: withCheckDigit('101900000'), status: 'active', endDt: '', note: '개인 면세사업자 (90)' },
  { bno: withCheckDigit('222222222'), status: 'suspended', endDt: '', note: '개인 (22), 일반과세자' },
  { bno: withCheckDigit('202020202'), status: 'suspended', endDt: '', note: '개인 (02), 간이과세자' },
  { bno: withCheckDigit('333333333'), status: 'closed', endDt: '20240301', note: '개인 (33), 간이과세자' },
  { bno: withCheckDigit('303030303'), status: 'closed', endDt: '20191231', note: '개인 (03), 일반과세자' },
  { bno: withCheckDigit('301810000'), status: 'closed', endDt: '20260115', note: '법인 (81), 일반과세자' },
  { bno: withCheckDigit('215850000'), status: 'closed', endDt: '20250701', utcc: true, note: '법인 지점 (85), 사업자단위과세 전환으로 폐업' },
  { bno: withCheckDigit('131130000'), status: 'active', endDt: '', tax: { tax_type: '부가가치세 간이과세자(세금계산서 발급사업자)', tax_type_cd: '07' }, note: '개인 (13), 간이 (세금계산서 발급)' },
  { bno: withCheckDigit('138820000'), status: 'active', endDt: '', tax: { tax_type: '수익사업을 영위하지 않는 비영리법인이거나 고유번호가 부여된 단체,국가기관 등', tax_type_cd: '05' }, note: '비영리법인 (82), 고유번호' },
  { bno: withCheckDigit('109890000'), status: 'active', endDt: '', tax: { tax_type: '고유번호가 부여된 단체', tax_type_cd: '06' }, note: '단체 (89), 고유번호' },
  { bno: withCheckDigit('444444444'), status: 'unregistered', endDt: '', note: 'never registered' },
  { bno: withCheckDigit('404040404'), status: 'unregistered', endDt: '', note: 'never registered' },
]);

const FIXED_BY_BNO = new Map(SANDBOX_FIXED.map((f) => [f.bno, f]));

type Registered = Exclude<SandboxStatus, 'unregistered'>;
const CODE_OF: Readonly<Record<Registered, Exclude<NtsStatusCode, ''>>> = { active: '01', suspended: '02', closed: '03' };

// Status shares, as cumulative upper bounds of a uniform draw in [0, 1).
const ACTIVE_BELOW = 0.82;
const CLOSED_BELOW = 0.9; // 8% 폐업자
const SUSPENDED_BELOW = 0.94; // 4% 휴업자; the remaining 6% are unregistered
/** Share of individual taxable businesses that are 간이과세자. */
const SIMPLIFIED_SHARE = 0.3;

// Closure dates fall in [2015-01-01, 2026-06-30]: a decade of closures, none in the future as of
// writing, and fixed so a number's closure date never changes between runs.
const CLOSURE_FIRST_DAY = Date.UTC(2015, 0, 1) / 86_400_000;
const CLOSURE_DAYS = Date.UTC(2026, 5, 30) / 86_400_000 - CLOSURE_FIRST_DAY + 1;

/** Three independent uniform draws from sha256(bno) bytes 0–3, 4–7 and 8–11 (big-endian). */
function draws(bno: string): [number, number, number] {
  const h = createHash('sha256').update(bno, 'utf8').digest();
  return [h.readUInt32BE(0) / 2 ** 32, h.readUInt32BE(4) / 2 ** 32, h.readUInt32BE(8) / 2 ** 32];
}

/** Opening dates fall in [1985-01-01, 2014-12-31]: always before any sandbox closure. */
const OPENING_FIRST_DAY = Date.UTC(1985, 0, 1) / 86_400_000;
const OPENING_DAYS = Date.UTC(2014, 11, 31) / 86_400_000 - OPENING_FIRST_DAY + 1;
/** The representatives 진위확인 confirms, picked by sha256 bytes 16–17 (big-endian) mod 20. */
export const SANDBOX_OWNERS = [
  '김민준', '이서연', '박지훈', '최수빈', '정예린', '강동현', '조하은', '윤성민', '장미경', '임재원',
  '한지민', '오승우', '서유진', '신동욱', '권나래', '황보영', '안정호', '송다은', '류현석', '전소희',
] as const;

/** The registered opening date and representative of a number: what 진위확인 compares with. */
export function sandboxOwner(bno: string): { start_dt: string; p_nm: string } {
  const fixed = FIXED_BY_BNO.get(bno)?.owner;
  if (fixed) return fixed;
  const h = createHash('sha256').update(bno, 'utf8').digest();
  const day = OPENING_FIRST_DAY + Math.floor((h.readUInt32BE(12) / 2 ** 32) * OPENING_DAYS);
  return {
    start_dt: new Date(day * 86_400_000).toISOString().slice(0, 10).replace(/-/g, ''),
    p_nm: SANDBOX_OWNERS[h.readUInt16BE(16) % SANDBOX_OWNERS.length]!,
  };
}

const sameName = (a: string, b: string): boolean => a.replace(/\s+/g, '') === b.replace(/\s+/g, '');

/**
 * The sandbox's 진위확인: 01 (with the status record) when the number is registered and the
 * opening date and representative are the registered ones (spaces ignored); else 02. The world
 * holds no names, sectors or addresses, so the optional fields are not compared.
 */
export function sandboxValidation(q: ValidateQuery): ValidateAnswer {
  const record = sandboxRecord(q.b_no);
  const owner = sandboxOwner(q.b_no);
  if (record.b_stt_cd !== '' && q.start_dt === owner.start_dt && sameName(q.p_nm, owner.p_nm)) {
    return { valid: '01', valid_msg: '', status: record };
  }
  return { valid: '02', valid_msg: NTS_NOT_CONFIRMED_TEXT, status: null };
}

function statusFromDraw(u: number): SandboxStatus {
  if (u < ACTIVE_BELOW) return 'active';
  if (u < CLOSED_BELOW) return 'closed';
  if (u < SUSPENDED_BELOW) return 'suspended';
  return 'unregistered';
}

function closureDate(u: number): string {
  const day = CLOSURE_FIRST_DAY + Math.floor(u * CLOSURE_DAYS);
  return new Date(day * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/** Digits 4–5 decide where they can (corporations are never 간이; 90–99 are 면세); else the hash. */
function taxType(bno: string, u: number): { tax_type: string; tax_type_cd: string } {
  const kind = entityKindOf(bno);
  if (kind === 'individual_exempt') return { tax_type: '부가가치세 면세사업자', tax_type_cd: '04' };
  if (!isCorporate(kind) && u < SIMPLIFIED_SHARE) return { tax_type: '부가가치세 간이과세자', tax_type_cd: '02' };
  return { tax_type: '부가가치세 일반과세자', tax_type_cd: '01' };
}

export function unregisteredRecord(bno: string): NtsRecord {
  return {
    b_no: bno, b_stt: '', b_stt_cd: '', tax_type: NTS_UNREGISTERED_TEXT, tax_type_cd: '', end_dt: '',
    utcc_yn: '', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '', rbf_tax_type_cd: '',
  };
}

/** The sandbox world's answer for one number: pure, so the fake NTS server shares it. */
export function sandboxRecord(bno: string): NtsRecord {
  if (!hasValidCheckDigit(bno)) return unregisteredRecord(bno);
  const [uStatus, uDate, uTax] = draws(bno);
  const fixed = FIXED_BY_BNO.get(bno);
  const status = fixed?.status ?? statusFromDraw(uStatus);
  if (status === 'unregistered') return unregisteredRecord(bno);
  const code = CODE_OF[status];
  return {
    b_no: bno,
    b_stt: NTS_STATUS_TEXT[code],
    b_stt_cd: code,
    ...(fixed?.tax ?? taxType(bno, uTax)),
    end_dt: status === 'closed' ? (fixed?.endDt || closureDate(uDate)) : '',
    utcc_yn: fixed?.utcc ? 'Y' : 'N',
    tax_type_change_dt: '',
    invoice_apply_dt: '',
    rbf_tax_type: '해당없음',
    rbf_tax_type_cd: '99',
  };
}

/**
 * The number's sandbox record with its status changed, as NTS would answer once the business
 * suspends, closes (on `endDt`, YYYYMMDD) or reopens; its tax type stays. For the fake NTS's admin.
 */
export function recordWithStatus(bno: string, status: 'active' | 'suspended' | 'closed' | 'unregistered', endDt = ''): NtsRecord {
  if (status === 'unregistered') return unregisteredRecord(bno);
  const base = sandboxRecord(bno);
  const code = CODE_OF[status];
  const tax = base.b_stt_cd === '' ? taxType(bno, draws(bno)[2]) : { tax_type: base.tax_type, tax_type_cd: base.tax_type_cd };
  return {
    ...base, ...tax, b_stt: NTS_STATUS_TEXT[code], b_stt_cd: code, end_dt: status === 'closed' ? endDt : '',
    utcc_yn: base.utcc_yn || 'N', rbf_tax_type: base.rbf_tax_type || '해당없음', rbf_tax_type_cd: base.rbf_tax_type_cd || '99',
  };
}

export class SandboxRegistry implements Registry {
  readonly source = 'sandbox' as const;

  async lookup(bnos: readonly string[]): Promise<Map<string, NtsRecord>> {
    return new Map(bnos.map((bno) => [bno, sandboxRecord(bno)]));
  }

  async validateSettled(queries: readonly ValidateQuery[]): Promise<Map<string, Settled<ValidateAnswer>>> {
    return new Map(queries.map((q) => [validateKey(q), { ok: true, record: sandboxValidation(q) }]));
  }

  async close(): Promise<void> {}
}
