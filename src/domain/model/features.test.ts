import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FEATURE_NAMES, FEATURE_TEXT, textOf } from './feature-text.ts';
import { daysBetween, featurize, historyScore } from './features.ts';
import { PRIOR_WEIGHTS } from './prior.ts';
import type { AssessmentInput } from './types.ts';

const clean = (over: Partial<AssessmentInput> = {}): AssessmentInput => ({
  status: 'active',
  closedOn: null,
  taxTypeCode: '01',
  entityKind: 'corporate_head',
  addressQuality: 'exact',
  addressChanges: 0,
  missingBuildingNumber: false,
  missingUnit: false,
  zipMismatch: false,
  outdatedZip: false,
  formerRoad: false,
  liveNeighbour: null,
  addressForm: 'road',
  notFound: null,
  buildingKind: 'office',
  rural: false,
  name: { entityMismatch: false, closureHint: false, trade: null, branch: false },
  history: { bizBounced: 0, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 0 },
  asOf: '2026-11-21',
  ...over,
});

const keys = (input: AssessmentInput): string[] => [...featurize(input).keys()].toSorted();

test('the reference case (active, corporate, general VAT, exact address, no history) has no features', () => {
  assert.deepEqual(keys(clean()), []);
});

test('each status is one indicator; active is the reference', () => {
  const cases = [
    ['active', []],
    ['suspended', ['status_suspended']],
    ['closed', ['status_closed']],
    ['unregistered', ['status_unregistered']],
    ['unknown', ['status_unknown']],
    ['invalid', ['status_invalid']],
  ] as const;
  for (const [status, expected] of cases) assert.deepEqual(keys(clean({ status })), expected, status);
});

test('closure recency as a curve: 3 months, 12 months, 3 years, 5 years', () => {
  const closed = (closedOn: string | null) => keys(clean({ status: 'closed', closedOn }));
  assert.deepEqual(closed('2026-09-01'), ['closed_fresh', 'closed_recent', 'status_closed']);
  assert.deepEqual(closed('2026-03-01'), ['closed_recent', 'status_closed']);
  assert.deepEqual(closed('2025-11-21'), ['closed_recent', 'status_closed']);
  assert.deepEqual(closed('2024-06-01'), ['status_closed']);
  assert.deepEqual(closed('2023-11-20'), ['closed_old', 'status_closed']);
  assert.deepEqual(closed('2022-11-21'), ['closed_old', 'status_closed']);
  assert.deepEqual(closed('2016-01-01'), ['closed_long_ago', 'closed_old', 'status_closed']);
  // a date after asOf is data skew, treated as the freshest closure; no date says nothing
  assert.deepEqual(closed('2026-12-01'), ['closed_fresh', 'closed_recent', 'status_closed']);
  assert.deepEqual(closed(null), ['status_closed']);
  assert.deepEqual(closed('2024-13-45'), ['status_closed']);
  // a closure date on a business that is not closed (reopened) is ignored
  assert.deepEqual(keys(clean({ closedOn: '2026-03-01' })), []);
});

test('a number closed on conversion is its own status: no closure recency, no closed_individual', () => {
  assert.deepEqual(keys(clean({ status: 'converted', closedOn: '2026-10-01', entityKind: 'individual_taxable' })), ['entity_individual', 'status_converted']);
});

test('days between two dates; not-dates give null', () => {
  assert.equal(daysBetween('2024-02-28', '2024-03-01'), 2);
  assert.equal(daysBetween('2026-11-21', '2026-11-21'), 0);
  assert.equal(daysBetween('20240301', '2026-11-21'), null);
});

test('tax type and entity kind', () => {
  assert.deepEqual(keys(clean({ taxTypeCode: '02' })), ['tax_simplified']);
  assert.deepEqual(keys(clean({ taxTypeCode: '03' })), ['tax_simplified']);
  assert.deepEqual(keys(clean({ taxTypeCode: '04' })), ['tax_exempt']);
  // 07: a 간이과세자 that issues tax invoices is still 간이
  assert.deepEqual(keys(clean({ taxTypeCode: '07' })), ['tax_simplified']);
  assert.deepEqual(keys(clean({ taxTypeCode: '05' })), ['tax_nonprofit']);
  assert.deepEqual(keys(clean({ taxTypeCode: '06' })), ['tax_nonprofit']);
  assert.deepEqual(keys(clean({ taxTypeCode: '' })), []);
  assert.deepEqual(keys(clean({ entityKind: 'individual_taxable' })), ['entity_individual']);
  assert.deepEqual(keys(clean({ entityKind: 'individual_exempt' })), ['entity_individual']);
  for (const entityKind of ['corporate_head', 'corporate_branch', 'foreign_corporate', 'nonprofit', 'other'] as const) {
    assert.deepEqual(keys(clean({ entityKind })), [], entityKind);
  }
});

test('each address quality is one indicator; exact is the reference', () => {
  assert.deepEqual(keys(clean({ addressQuality: 'corrected', addressChanges: 2 })), ['address_changes', 'address_corrected']);
  assert.deepEqual(keys(clean({ addressQuality: 'ambiguous' })), ['address_ambiguous']);
  assert.deepEqual(keys(clean({ addressQuality: 'not_found' })), ['address_not_found']);
  assert.deepEqual(keys(clean({ addressQuality: 'no_address' })), ['no_address']);
});

test('address changes are counted when the address matched, capped at 3', () => {
  assert.equal(featurize(clean({ addressQuality: 'corrected', addressChanges: 1 })).get('address_changes'), 1);
  assert.equal(featurize(clean({ addressQuality: 'corrected', addressChanges: 7 })).get('address_changes'), 3);
  assert.equal(featurize(clean({ addressQuality: 'ambiguous', addressChanges: 2 })).get('address_changes'), undefined);
  assert.equal(featurize(clean({ addressQuality: 'corrected', addressChanges: -1 })).get('address_changes'), undefined);
});

test('address defects are indicators, and mean nothing without an address', () => {
  const defects = { missingBuildingNumber: true, missingUnit: true, zipMismatch: true, outdatedZip: true, formerRoad: true };
  assert.deepEqual(keys(clean(defects)), ['former_road_name', 'missing_building_number', 'missing_unit', 'outdated_zip', 'zip_mismatch']);
  assert.deepEqual(keys(clean({ ...defects, addressQuality: 'no_address' })), ['no_address']);
});

test('closed at an address that cannot be found is its own feature, on top of both', () => {
  assert.deepEqual(keys(clean({ status: 'closed', addressQuality: 'not_found' })), ['address_not_found', 'closed_address_not_found', 'status_closed']);
});

test('name signals', () => {
  assert.deepEqual(keys(clean({ name: { entityMismatch: true, closureHint: false, trade: null, branch: false } })), ['name_entity_mismatch']);
  assert.deepEqual(keys(clean({ name: { entityMismatch: false, closureHint: true, trade: null, branch: false } })), ['name_closure_hint']);
});

test('history is 0 without records and signed by whether bounces or deliveries dominate', () => {
  assert.equal(historyScore(0, 0), 0);
  assert.equal(historyScore(2, 2), 0);
  assert.ok(Math.abs(historyScore(1, 0) - Math.LN2) < 1e-12);
  assert.ok(historyScore(0, 5) < 0);
  assert.ok(historyScore(3, 0) > historyScore(1, 0));
  assert.equal(historyScore(-4, Number.NaN), 0);
  const f = featurize(clean({ history: { bizBounced: 2, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 3 } }));
  assert.ok(Math.abs(f.get('biz_history')! - Math.log(3)) < 1e-12);
  // what the returned letters said, beside how many came back
  const said = featurize(clean({ history: { bizBounced: 3, bizDelivered: 0, bizGone: 2, bizAbsent: 1, addressBounced: 0, addressDelivered: 0 } }));
  assert.deepEqual([said.get('biz_history_gone'), said.get('biz_history_absent')], [Math.log(3), Math.log(2)]);
  assert.ok(Math.abs(f.get('address_history')! + Math.log(4)) < 1e-12);
});

test('every feature has a prior weight, a lowercase label and texts in both languages', () => {
  for (const name of FEATURE_NAMES) {
    assert.equal(typeof PRIOR_WEIGHTS[name], 'number', name);
    assert.match(FEATURE_TEXT[name].label, /^[a-z_]+$/, name);
    const t = textOf(name, { input: clean({ status: 'closed', closedOn: '2024-03-01' }), value: 1 });
    assert.ok(t.text.ko.length > 0 && t.text.en.length > 0, name);
  }
  assert.deepEqual(Object.keys(PRIOR_WEIGHTS).toSorted(), [...FEATURE_NAMES].toSorted());
});

test('texts carry values: the closure date, the counts', () => {
  const input = clean({ status: 'closed', closedOn: '2024-03-01', history: { bizBounced: 2, bizDelivered: 1, bizGone: 1, bizAbsent: 1, addressBounced: 0, addressDelivered: 0 } });
  assert.equal(textOf('status_closed', { input, value: 1 }).text.ko, '국세청 상태: 폐업자 (2024-03-01 폐업)');
  assert.equal(textOf('closed_old', { input, value: 1 }).text.en, 'closed more than 3 years ago (2024-03-01)');
  assert.equal(textOf('biz_history', { input, value: 1 }).text.ko, '이 사업자 앞 기록: 반송 2건, 배달 1건');
});

test('a feature the table does not know still explains itself', () => {
  const t = textOf('region-Seoul2', { input: clean(), value: 0.5 });
  assert.equal(t.label, 'region_seoul_');
  assert.equal(t.source, 'model');
  assert.equal(t.text.en, 'region-Seoul2 = 0.50');
});

test('the newer signals: a closed individual, trade and branch from the name, the building, the address form, why not found', () => {
  assert.deepEqual(keys(clean({ status: 'closed', entityKind: 'individual_taxable' })), ['closed_individual', 'entity_individual', 'status_closed']);
  assert.deepEqual(keys(clean({ name: { entityMismatch: false, closureHint: false, trade: 'food', branch: true } })), ['name_branch', 'trade_food']);
  // 동/호 missing in an apartment block weighs more than in an office building
  assert.deepEqual(keys(clean({ missingUnit: true, buildingKind: 'apartment' })), ['missing_unit', 'missing_unit_apartment']);
  assert.deepEqual(keys(clean({ missingUnit: true, buildingKind: 'office' })), ['missing_unit']);
  // an officetel sorts by 호 like a block, and its small tenants come and go; so do a 지식산업센터's
  assert.deepEqual(keys(clean({ missingUnit: true, buildingKind: 'officetel' })), ['building_officetel', 'missing_unit', 'missing_unit_apartment']);
  assert.deepEqual(keys(clean({ buildingKind: 'knowledge_center' })), ['building_knowledge_center']);
  // closed at a home: an apartment or a villa, not an office, a house the directory names nothing, or an unknown building
  assert.deepEqual(keys(clean({ status: 'closed', buildingKind: 'villa' })), ['closed_residential', 'status_closed']);
  assert.deepEqual(keys(clean({ status: 'closed', buildingKind: 'apartment' })), ['closed_residential', 'status_closed']);
  for (const buildingKind of ['office', 'house', 'unknown'] as const) assert.deepEqual(keys(clean({ status: 'closed', buildingKind })), ['status_closed']);
  assert.deepEqual(keys(clean({ status: 'active', buildingKind: 'apartment' })), []);
  // a rural round's carrier knows the people on it
  assert.deepEqual(keys(clean({ rural: true })), ['area_rural']);
  assert.deepEqual(keys(clean({ addressForm: 'jibun' })), ['jibun_form']);
  assert.deepEqual(keys(clean({ addressQuality: 'not_found', notFound: 'unknown_road' })), ['address_not_found', 'not_found_unknown_road']);
  assert.deepEqual(keys(clean({ addressQuality: 'not_found', notFound: 'no_such_number' })), ['address_not_found']);
  // without an address none of the address signals exist
  assert.deepEqual(keys(clean({ addressQuality: 'no_address', addressForm: null, missingUnit: false })), ['no_address']);
  // the reason says why the address was not found
  const text = (notFound: 'unknown_road' | 'no_such_number') => textOf('address_not_found', { input: clean({ addressQuality: 'not_found', notFound }), value: 1 }).text.en;
  assert.match(text('unknown_road'), /does not know the road/);
  assert.match(text('no_such_number'), /no such building number/);
});
