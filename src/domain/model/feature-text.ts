// The one table that says, for every model feature, which reason label it shows under, where the
// evidence comes from, and how it reads in Korean and English. A feature missing here still
// scores and explains itself (see textOf), so a refit that adds one cannot break the reasons.
import type { NotFoundWhy } from '../address/types.ts';
import { formatWithHyphens } from '../bizno.ts';
import { pairParts } from './pairs.ts';
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
  /** a pair the prior carries (causes that combine as either one): a judgement, not something labels taught */
  judgedPair?: boolean;
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
/** A bin of the closure-recency curve, with the closure date: "폐업 12개월 이내 (2026-03-01)". */
const recency = (label: string, ko: string, en: string): FeatureText => ({ label, source: 'nts', text: (c) => ({ ko: `${ko} (${closedOn(c)})`, en: `${en} (${closedOn(c)})` }) });

const NOT_FOUND_TEXT: Record<NotFoundWhy, Text> = {
  unknown_road: { ko: '주소를 찾지 못함: 주소록에 없는 도로명', en: 'address not found: the directory does not know the road' },
  no_such_number: { ko: '주소를 찾지 못함: 도로에 그 건물번호가 없음', en: 'address not found: no such building number on the road' },
  unknown_lot: { ko: '주소를 찾지 못함: 그런 지번이 없음', en: 'address not found: no such lot' },
  unreadable: { ko: '주소를 찾지 못함: 도로명도 지번도 읽을 수 없음', en: 'address not found: neither a road nor a lot could be read' },
};

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
  status_converted: {
    label: 'converted',
    source: 'nts',
    text: (c) => {
      const on = c.input.closedOn ? ` (${c.input.closedOn})` : '';
      return {
        ko: `국세청 상태: 사업자단위과세 전환으로 이 번호만 폐업${on}, 사업장은 본점 번호로 계속`,
        en: `NTS status: this number closed on conversion to unit VAT filing${on}; the place of business goes on under the head office number`,
      };
    },
  },
  status_unregistered: {
    label: 'unregistered',
    source: 'nts',
    text: fixed('국세청 상태: 국세청에 등록되지 않은 사업자등록번호', 'NTS status: not registered with the NTS'),
  },
  unregistered_near_live: {
    label: 'unregistered_near_live',
    source: 'nts',
    text: (c) => {
      const n = c.input.liveNeighbour ? formatWithHyphens(c.input.liveNeighbour) : '';
      return {
        ko: `두 자리가 바뀐 번호 ${n}는 계속사업자: 번호를 잘못 적은 것으로 보이며 주소가 맞으면 배달됨`,
        en: `two swapped digits give ${n}, an operating business: most likely a mistyped number; mail to its address arrives`,
      };
    },
  },
  status_unknown: { label: 'unknown', source: 'nts', text: fixed('국세청 상태를 확인하지 못함', 'NTS status could not be obtained') },
  status_invalid: {
    label: 'invalid',
    source: 'input',
    text: fixed('유효한 사업자등록번호가 아님: 10자리 숫자가 아니거나 검증번호가 맞지 않음 (국세청 조회 안 함)', 'not a valid business number: not ten digits, or the check digit does not match (not sent to the NTS)'),
  },
  closed_recent: recency('closed_recent', '폐업 12개월 이내', 'closed within the last 12 months'),
  closed_old: recency('closed_old', '폐업 후 3년 넘게 지남', 'closed more than 3 years ago'),
  closed_fresh: recency('closed_fresh', '폐업 3개월 이내', 'closed within the last 3 months'),
  closed_long_ago: recency('closed_long_ago', '폐업 후 5년 넘게 지남', 'closed more than 5 years ago'),
  closed_individual: {
    label: 'closed_individual',
    source: 'nts',
    text: fixed('폐업한 개인사업자: 사업장이 대표자의 집인 경우가 많아 우편을 받는 사람이 남아 있기 쉬움', "a closed individual business: often the owner's home, where someone still takes the mail"),
  },
  closed_address_not_found: {
    label: 'closed_address_not_found',
    source: 'address',
    text: fixed('폐업했고 주소도 찾지 못함 (철거·재개발 등)', 'closed and the address cannot be found (demolished or redeveloped sites)'),
  },
  tax_simplified: { label: 'tax_simplified', source: 'nts', text: fixed('간이과세자', 'simplified VAT taxpayer (간이과세자)') },
  tax_exempt: { label: 'tax_exempt', source: 'nts', text: fixed('면세사업자', 'VAT-exempt business (면세사업자)') },
  tax_nonprofit: {
    label: 'tax_nonprofit',
    source: 'nts',
    text: fixed('고유번호 단체 (비영리법인·국가기관 등)', 'a non-profit body or public agency with a 고유번호'),
  },
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
  address_not_found: { label: 'address_not_found', source: 'address', text: (c) => NOT_FOUND_TEXT[c.input.notFound ?? 'unreadable'] },
  not_found_unknown_road: {
    label: 'not_found_unknown_road',
    source: 'address',
    text: fixed('주소록에 없는 도로명: 오타나 바뀐 도로명이면 집배원은 찾아가기도 함', 'a road the directory does not know: a typo or a renamed road that carriers may still find'),
  },
  no_address: { label: 'no_address', source: 'input', text: fixed('주소가 없어 배달 가능 여부를 확인하지 못함', 'no address given; deliverability not checked') },
  missing_building_number: { label: 'missing_building_number', source: 'address', text: fixed('건물번호 없음', 'building number missing') },
  missing_unit: { label: 'missing_unit', source: 'address', text: fixed('상세주소(동·층·호) 없음', 'unit (동/층/호) missing') },
  missing_unit_apartment: {
    label: 'missing_unit_apartment',
    source: 'address',
    text: fixed('아파트·오피스텔인데 동·호가 없음', 'an apartment or officetel address without its 동/호'),
  },
  building_officetel: {
    label: 'building_officetel',
    source: 'address',
    text: fixed('오피스텔: 작은 사업장과 공유오피스가 자주 들고 남', 'an officetel: small businesses and shared offices come and go'),
  },
  building_knowledge_center: {
    label: 'building_knowledge_center',
    source: 'address',
    text: fixed('지식산업센터: 작은 업체가 자주 들고 남', 'a 지식산업센터 (knowledge industry centre): small firms come and go'),
  },
  area_rural: {
    label: 'area_rural',
    source: 'address',
    text: fixed('읍·면 지역: 집배원이 받는 사람을 알고 사업장이 잘 옮기지 않음', 'a 읍 or 면: the rural carrier knows the people on the round, and businesses there move less'),
  },
  closed_residential: {
    label: 'closed_residential',
    source: 'address',
    text: fixed('주거용 건물(아파트·빌라)에서 폐업: 사는 사람이 남아 우편을 받기 쉬움', 'closed at a home (an apartment or villa): the household is still there to take the mail'),
  },
  jibun_form: { label: 'jibun_form', source: 'input', text: fixed('지번 주소로 적힘 (2014년 이전 기록일 가능성)', 'written as a lot (지번) address: a record likely older than 2014') },
  zip_mismatch: { label: 'zip_mismatch', source: 'address', text: fixed('우편번호가 주소와 맞지 않음', 'postal code does not match the address') },
  outdated_zip: { label: 'outdated_zip', source: 'address', text: fixed('옛 6자리 우편번호 사용', 'old 6-digit postal code') },
  former_road_name: {
    label: 'former_road_name',
    source: 'address',
    text: fixed('바뀌기 전 도로명으로 적힘 (이전도로명주소): 한동안 갱신되지 않은 기록', 'written with the road name used before a renaming: a record not updated for a while'),
  },
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
  trade_food: { label: 'trade_food', source: 'input', text: fixed('상호로 본 업종: 음식·카페', 'trade from the name: food and drink') },
  trade_beauty: { label: 'trade_beauty', source: 'input', text: fixed('상호로 본 업종: 미용', 'trade from the name: beauty') },
  trade_retail: { label: 'trade_retail', source: 'input', text: fixed('상호로 본 업종: 소매', 'trade from the name: retail') },
  trade_education: { label: 'trade_education', source: 'input', text: fixed('상호로 본 업종: 학원·교육', 'trade from the name: education') },
  trade_realestate: { label: 'trade_realestate', source: 'input', text: fixed('상호로 본 업종: 부동산 중개', 'trade from the name: real-estate agency') },
  trade_medical: { label: 'trade_medical', source: 'input', text: fixed('상호로 본 업종: 의료·약국 (오래 머무름)', 'trade from the name: clinic or pharmacy (stays for years)') },
  trade_professional: { label: 'trade_professional', source: 'input', text: fixed('상호로 본 업종: 세무·법무 등 전문직', 'trade from the name: professional office (tax, law …)') },
  trade_industrial: { label: 'trade_industrial', source: 'input', text: fixed('상호로 본 업종: 제조·공업', 'trade from the name: manufacturing') },
  trade_wholesale: { label: 'trade_wholesale', source: 'input', text: fixed('상호로 본 업종: 도매·유통', 'trade from the name: wholesale and distribution') },
  name_branch: { label: 'name_branch', source: 'input', text: fixed('지점·영업소·대리점 (본사보다 자주 옮기거나 닫음)', 'a branch, sales office or agency (moves and closes more often than a head office)') },
  biz_history: {
    label: 'biz_history',
    source: 'labels',
    text: (c) => {
      const t = counts(c.input.history.bizBounced, c.input.history.bizDelivered);
      return { ko: `이 사업자 앞 기록: ${t.ko}`, en: `recorded mail to this business: ${t.en}` };
    },
  },
  biz_history_gone: {
    label: 'biz_history_gone',
    source: 'labels',
    text: (c) => ({ ko: `이 사업자 앞 우편이 이사·수취인불명·폐업으로 ${c.input.history.bizGone}건 반송됨`, en: `${c.input.history.bizGone} letter(s) to this business came back moved, unknown or closed` }),
  },
  biz_history_absent: {
    label: 'biz_history_absent',
    source: 'labels',
    text: (c) => ({ ko: `이 사업자 앞 우편이 폐문부재·수취거절로 ${c.input.history.bizAbsent}건 반송됨 (사업장은 있음)`, en: `${c.input.history.bizAbsent} letter(s) to this business came back with nobody in or refused (it is still there)` }),
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
  const pair = pairParts(feature);
  if (pair) {
    const [a, b] = pair.map((f) => textOf(f, { ...ctx, value: 1 }).label);
    if (ctx.judgedPair) {
      return { label: `${a}_and_${b}`, source: 'model', text: { ko: `두 반송 원인이 함께 있음 (어느 하나로도 반송): ${a} × ${b}`, en: `two causes of return together (either one returns the letter): ${a} with ${b}` } };
    }
    return { label: `${a}_and_${b}`, source: 'labels', text: { ko: `반송 기록에서 배운 조합: ${a} × ${b}`, en: `learned from outcomes: ${a} together with ${b}` } };
  }
  const label = feature.toLowerCase().replace(/[^a-z_]+/g, '_') || 'feature';
  const shown = Number.isInteger(ctx.value) ? String(ctx.value) : ctx.value.toFixed(2);
  return { label, source: 'model', text: { ko: `${feature} = ${shown}`, en: `${feature} = ${shown}` } };
}
