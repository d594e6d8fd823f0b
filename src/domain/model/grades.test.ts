import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionOf, GRADE_BANDS, gradeOf, type ActionFacts } from './grades.ts';

test('grade bands: A < 0.05 ≤ B < 0.15 ≤ C < 0.35 ≤ D < 0.60 ≤ E', () => {
  const cases: [number, string][] = [
    [0, 'A'], [0.0499, 'A'], [0.05, 'B'], [0.1499, 'B'], [0.15, 'C'], [0.3499, 'C'],
    [0.35, 'D'], [0.5999, 'D'], [0.6, 'E'], [1, 'E'], [Number.NaN, 'E'],
  ];
  for (const [p, g] of cases) assert.equal(gradeOf(p), g, String(p));
});

test('the bands are one ascending table ending in E', () => {
  const bounds = GRADE_BANDS.map((b) => b.below);
  assert.deepEqual(bounds, bounds.toSorted((a, b) => a - b));
  assert.deepEqual(GRADE_BANDS.map((b) => b.grade), ['A', 'B', 'C', 'D', 'E']);
});

const facts = (over: Partial<ActionFacts>): ActionFacts => ({ status: 'active', addressQuality: 'exact', grade: 'A', ...over });

test('actions: the business decides first', () => {
  for (const status of ['closed', 'unregistered'] as const) {
    assert.equal(actionOf(facts({ status, grade: 'B', addressQuality: 'corrected' })), 'do_not_send', status);
  }
  for (const status of ['suspended', 'unknown', 'invalid'] as const) {
    assert.equal(actionOf(facts({ status, addressQuality: 'not_found' })), 'hold', status);
  }
});

test('actions: grade E is never sent; grade D is held unless the address is what to confirm', () => {
  assert.equal(actionOf(facts({ grade: 'E' })), 'do_not_send');
  assert.equal(actionOf(facts({ grade: 'E', status: 'suspended' })), 'do_not_send');
  assert.equal(actionOf(facts({ grade: 'D' })), 'hold');
  assert.equal(actionOf(facts({ grade: 'D', addressQuality: 'corrected' })), 'hold');
  assert.equal(actionOf(facts({ grade: 'D', addressQuality: 'ambiguous' })), 'confirm_address');
});

test('actions: then the address', () => {
  assert.equal(actionOf(facts({ addressQuality: 'ambiguous', grade: 'C' })), 'confirm_address');
  assert.equal(actionOf(facts({ addressQuality: 'not_found', grade: 'C' })), 'confirm_address');
  assert.equal(actionOf(facts({ addressQuality: 'corrected', grade: 'B' })), 'send_fixed_address');
  assert.equal(actionOf(facts({ addressQuality: 'exact', grade: 'C' })), 'send');
  assert.equal(actionOf(facts({ addressQuality: 'no_address', grade: 'B' })), 'send');
});
