import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NtsRecord, StatusAnswer } from './status.ts';
import { localeFrom } from './locale.ts';
import { buildVerification, formatReason, ntsDate, statusFromNts } from './verification.ts';

const rec = (over: Partial<NtsRecord>): NtsRecord => ({
  b_no: '1248100998', b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '',
  utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '', rbf_tax_type_cd: '', ...over,
});
const answer = (record: NtsRecord): StatusAnswer => ({ record, source: 'nts', checkedAt: '2026-11-21T00:00:00.000Z', fromCache: false, stale: false });
const REASON = /^\[[a-z_]+ [+-]\d+\.\d{2}\] .+ \([a-z]+\)$/;

test('NTS codes map to stable lowercase statuses', () => {
  assert.equal(statusFromNts({ b_stt_cd: '01', utcc_yn: 'N' }), 'active');
  assert.equal(statusFromNts({ b_stt_cd: '02', utcc_yn: 'N' }), 'suspended');
  assert.equal(statusFromNts({ b_stt_cd: '03', utcc_yn: 'N' }), 'closed');
  assert.equal(statusFromNts({ b_stt_cd: '03', utcc_yn: '' }), 'closed');
  assert.equal(statusFromNts({ b_stt_cd: '', utcc_yn: '' }), 'unregistered');
});

test('a number closed on conversion to unit VAT filing (utcc_yn Y) is converted, never closed', () => {
  const v = buildVerification('1248100998', answer(rec({ b_stt: '폐업자', b_stt_cd: '03', end_dt: '20250701', utcc_yn: 'Y' })), { invalid: false, locale: 'ko' });
  assert.equal(v.biz_status, 'converted');
  assert.equal(v.closed_on, null);
  assert.equal(v.nts?.end_dt, '20250701');
  assert.equal(v.nts?.utcc_yn, 'Y');
  assert.deepEqual(v.reasons, ['[converted +0.00] 국세청 상태: 사업자단위과세 전환으로 이 번호만 폐업 (사업은 본점 번호로 계속) (2025-07-01 전환) (nts)']);
});

test('nts is the record as NTS sent it, the refund-related fields included', () => {
  const v = buildVerification('1248100998', answer(rec({ rbf_tax_type: '해당없음', rbf_tax_type_cd: '99', tax_type_change_dt: '20240101' })), { invalid: false, locale: 'ko' });
  assert.deepEqual(v.nts, rec({ rbf_tax_type: '해당없음', rbf_tax_type_cd: '99', tax_type_change_dt: '20240101' }));
});

test('a closed business carries its closure date in the result and the reason', () => {
  const v = buildVerification('1248100998', answer(rec({ b_stt: '폐업자', b_stt_cd: '03', end_dt: '20240301' })), { invalid: false, locale: 'ko' });
  assert.equal(v.biz_status, 'closed');
  assert.equal(v.closed_on, '2024-03-01');
  assert.equal(v.nts?.end_dt, '20240301');
  assert.deepEqual(v.reasons, ['[closed +0.00] 국세청 상태: 폐업자 (2024-03-01 폐업) (nts)']);
  assert.match(v.reasons[0]!, REASON);
});

test('without a name the assessment fields are null, not placeholders', () => {
  const v = buildVerification('1248100998', answer(rec({})), { invalid: false, locale: 'en' });
  for (const k of ['bounce_prob', 'grade', 'action', 'fixed_zipcode', 'fixed_address', 'model_version'] as const) assert.equal(v[k], null, k);
  assert.deepEqual(v.reasons, ['[active +0.00] NTS status: operating (nts)']);
  assert.equal(v.entity_type, 'corporate_head');
});

test('an unregistered number does not pretend NTS text is a tax type', () => {
  const v = buildVerification('1234567891', answer(rec({ b_no: '1234567891', b_stt: '', b_stt_cd: '', tax_type: '국세청에 등록되지 않은 사업자등록번호입니다.' })), { invalid: false, locale: 'ko' });
  assert.equal(v.biz_status, 'unregistered');
  assert.equal(v.tax_type, null);
});

test('invalid and unknown have their own reasons and sources', () => {
  const inv = buildVerification('1234567890', null, { invalid: true, locale: 'ko' });
  assert.equal(inv.biz_status, 'invalid');
  assert.match(inv.reasons[0]!, /\(input\)$/);
  assert.equal(inv.nts, null);
  assert.equal(buildVerification('1248100998', null, { invalid: false, locale: 'en' }).biz_status, 'unknown');
});

test('reason weights are signed with two decimals', () => {
  assert.equal(formatReason('closed', 2.4, 't', 'nts'), '[closed +2.40] t (nts)');
  assert.equal(formatReason('exact', -0.804, 't', 'address'), '[exact -0.80] t (address)');
  assert.equal(formatReason('x', -0.001, 't', 'model'), '[x +0.00] t (model)');
});

test('dates from NTS are YYYYMMDD or nothing', () => {
  assert.equal(ntsDate('20240301'), '2024-03-01');
  assert.equal(ntsDate(''), null);
  assert.equal(ntsDate('2024-03-01'), null);
});

test('Accept-Language picks English only when preferred over Korean', () => {
  assert.equal(localeFrom(undefined), 'ko');
  assert.equal(localeFrom('en'), 'en');
  assert.equal(localeFrom('en-US,en;q=0.9'), 'en');
  assert.equal(localeFrom('ko-KR,ko;q=0.9,en;q=0.8'), 'ko');
  assert.equal(localeFrom('en;q=0.5,ko;q=0.9'), 'ko');
  assert.equal(localeFrom('fr, de'), 'ko');
  assert.equal(localeFrom('*'), 'ko');
});
