// The one table that says, for every model feature, which reason label it shows under, where the
// evidence comes from, and how it reads in Korean and English. A feature missing here still
// scores and explains itself (see textOf), so a refit that adds one cannot break the reasons.
import type { AssessmentInput, Contribution } from './types.ts';

export type Source = Contribution['source'];
export interface Text {
  ko: string;
  en: string;
}

export interface FeatureContext {
  input: AssessmentInput;
  /** the feature's value, as featurize produced it */
  value: number;
}

interface FeatureText {
  /** reason label: lowercase letters and underscores only, so reasons stay machine-readable */
  label: string;
  source: Source;
  text: (ctx: FeatureContext) => Text;
}

const closedOn = (c: FeatureContext): string => c.input.closedOn ?? '?';
const counts = (b: number, d: number): Text => ({ ko: `반송 ${b}건, 배달 ${d}건`, en: `${b} bounced, ${d} delivered` });
const fixed = (ko: string, en: string) => (): Text => ({ ko, en });

// Status features use the status code as their label, the same label statusReason gives when
// nothing is scored, so a client sees one name for one fact whether or not it sent a name.
export const FEATURE_TEXT = {
  status_suspended: { label: 'suspended', source: 'nts', text: fixed('국세청 상태: 휴업자', 'NTS status: suspended') },
  status_closed: {
    label: 'closed',
    source: 'nts',
    text: (c) =>
      c.input.closedOn
        ? { ko: `국세청 상태: 폐업자 (${c.input.closedOn} 폐업)`, en: `NTS status: closed (closed ${c.input.closedOn})` }
        : { ko: '국세청 상태: 폐업자', en: 'NTS status: closed' },
  },
  status_unregistered: {
    label: 'unregistered',
    source: 'nts',
    text: fixed('국세청 상태: 국세청에 등록되지 않은 사업자등록번호', 'NTS status: not registered with the NTS'),
  },
  status_unknown: { label: 'unknown', source: 'nts', text: fixed('국세청 상태를 확인하지 못함', 'NTS status could not be obtained') },
  status_invalid: {
    label: 'invalid',
    source: 'input',
    text: fixed('사업자등록번호 검증번호가 맞지 않음 (국세청 조회 안 함)', 'check digit does not match (not sent to the NTS)'),
  },
  closed_recent: {
    label: 'closed_recent',
    source: 'nts',
    text: (c) => ({ ko: `폐업 12개월 이내 (${closedOn(c)})`, en: `closed within the last 12 months (${closedOn(c)})` }),
  },
  closed_old: {
    label: 'closed_old',
    source: 'nts',
    text: (c) => ({ ko: `폐업 후 3년 넘게 지남 (${closedOn(c)})`, en: `closed more than 3 years ago (${closedOn(c)})` }),
  },
  closed_address_not_found: {
    label: 'closed_address_not_found',
    source: 'address',
    text: fixed('폐업했고 주소도 찾지 못함 (철거·재개발 등)', 'closed and the address cannot be found (demolished or redeveloped sites)'),
  },
  tax_simplified: { label: 'tax_simplified', source: 'nts', text: fixed('간이과세자', 'simplified VAT taxpayer (간이과세자)') },
  tax_exempt: { label: 'tax_exempt', source: 'nts', text: fixed('면세사업자', 'VAT-exempt business (면세사업자)') },
  entity_individual: {
    label: 'entity_individual',
    source: 'input',
    text: fixed('개인사업자 (사업자등록번호 기준)', 'individual business (from the registration number)'),
  },
  address_corrected: { label: 'address_corrected', source: 'address', text: fixed('주소를 보정함', 'address was corrected') },
  address_changes: {
    label: 'address_changes',
    source: 'address',
    text: (c) => ({ ko: `주소 구성요소 ${c.input.addressChanges}개 변경`, en: `${c.input.addressChanges} address component(s) changed` }),
  },
  address_ambiguous: { label: 'address_ambiguous', source: 'address', text: fixed('주소 후보가 여러 개임', 'address matches several candidates') },
  address_not_found: { label: 'address_not_found', source: 'address', text: fixed('주소를 찾지 못함', 'address not found') },
  no_address: { label: 'no_address', source: 'input', text: fixed('주소가 없어 배달 가능 여부를 확인하지 못함', 'no address given; deliverability not checked') },
  missing_building_number: { label: 'missing_building_number', source: 'address', text: fixed('건물번호 없음', 'building number missing') },
  missing_unit: { label: 'missing_unit', source: 'address', text: fixed('상세주소(동·층·호) 없음', 'unit (동/층/호) missing') },
  zip_mismatch: { label: 'zip_mismatch', source: 'address', text: fixed('우편번호가 주소와 맞지 않음', 'postal code does not match the address') },
  outdated_zip: { label: 'outdated_zip', source: 'address', text: fixed('옛 6자리 우편번호 사용', 'old 6-digit postal code') },
  name_entity_mismatch: {
    label: 'name_entity_mismatch',
    source: 'input',
    text: fixed('상호의 법인 표기와 사업자 유형이 맞지 않음', 'the name and the registration number disagree on corporate vs individual'),
  },
  name_closure_hint: {
    label: 'name_closure_hint',
    source: 'input',
    text: fixed('상호에 폐업·청산·(구) 등 표시가 있음', 'the name suggests it is no longer current (폐업, 청산, (구) …)'),
  },
  biz_history: {
    label: 'biz_history',
    source: 'labels',
    text: (c) => {
      const t = counts(c.input.history.bizBounced, c.input.history.bizDelivered);
      return { ko: `이 사업자 앞 기록: ${t.ko}`, en: `recorded mail to this business: ${t.en}` };
    },
  },
  address_history: {
    label: 'address_history',
    source: 'labels',
    text: (c) => {
      const t = counts(c.input.history.addressBounced, c.input.history.addressDelivered);
      return { ko: `이 주소 앞 기록: ${t.ko}`, en: `recorded mail to this address: ${t.en}` };
    },
  },
} as const satisfies Record<string, FeatureText>;

export type FeatureName = keyof typeof FEATURE_TEXT;
export const FEATURE_NAMES = Object.keys(FEATURE_TEXT) as FeatureName[];

export function isFeatureName(name: string): name is FeatureName {
  return Object.hasOwn(FEATURE_TEXT, name);
}

export const BASELINE_LABEL = 'baseline';
export const ACCOUNT_LABEL = 'account_history';

export function baselineText(modelVersion: string): Text {
  return { ko: `기본 반송 위험 (모델 ${modelVersion})`, en: `base bounce risk (model ${modelVersion})` };
}

export function accountText(): Text {
  return { ko: '이 계정의 반송 기록에 따른 보정', en: "adjustment from this account's recorded outcomes" };
}

/** Label, source and text for a feature; a feature this table does not know explains itself by name. */
export function textOf(feature: string, ctx: FeatureContext): { label: string; source: Source; text: Text } {
  if (isFeatureName(feature)) {
    const entry: FeatureText = FEATURE_TEXT[feature];
    return { label: entry.label, source: entry.source, text: entry.text(ctx) };
  }
  const label = feature.toLowerCase().replace(/[^a-z_]+/g, '_') || 'feature';
  const shown = Number.isInteger(ctx.value) ? String(ctx.value) : ctx.value.toFixed(2);
  return { label, source: 'model', text: { ko: `${feature} = ${shown}`, en: `${feature} = ${shown}` } };
}
