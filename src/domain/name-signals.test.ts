import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasCorporateMarker, nameSignals } from './name-signals.ts';

test('corporate legal forms are recognised however they are written', () => {
  for (const n of ['주식회사 한빛', '(주)한빛', '㈜한빛', '한빛 주식회사', '（주） 한빛', '유한회사 한빛', 'Hanbit Co., Ltd.', 'HANBIT INC', '사단법인 한빛']) {
    assert.equal(hasCorporateMarker(n), true, n);
  }
  for (const n of ['한빛상사', '김철수 세무사무소', '한빛식당', 'Incheon Bakery']) assert.equal(hasCorporateMarker(n), false, n);
});

test('a corporate name on an individual number is a mismatch; the reverse is common and is not', () => {
  assert.equal(nameSignals('(주)한빛', 'individual_taxable').entityMismatch, true);
  assert.equal(nameSignals('(주)한빛', 'corporate_head').entityMismatch, false);
  assert.equal(nameSignals('한빛', 'corporate_head').entityMismatch, false);
});

test('closure words in the name are a hint', () => {
  assert.equal(nameSignals('한빛상사(폐업)', 'individual_taxable').closureHint, true);
  assert.equal(nameSignals('(구)한빛상사', 'individual_taxable').closureHint, true);
  assert.equal(nameSignals('한빛상사', 'individual_taxable').closureHint, false);
  assert.deepEqual(nameSignals('  ', 'corporate_head'), { entityMismatch: false, closureHint: false });
  assert.deepEqual(nameSignals(undefined, 'corporate_head'), { entityMismatch: false, closureHint: false });
});
