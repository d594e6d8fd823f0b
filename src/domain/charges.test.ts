import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chargeJob, grantUpTo, splitRefund } from './charges.ts';

test('grantUpTo: what fits under the limit, never negative', () => {
  assert.equal(grantUpTo(0, 5, 10), 5);
  assert.equal(grantUpTo(8, 5, 10), 2);
  assert.equal(grantUpTo(10, 5, 10), 0);
  assert.equal(grantUpTo(12, 5, 10), 0, 'over the limit already (the limit was lowered)');
});

test('chargeJob: all within the limit, or the excess as overage when paid, or nothing', () => {
  assert.deepEqual(chargeJob({ used: 0, limit: 100, distinct: 40, paid: false }), { ok: true, charged: 40, overage: 0 });
  assert.deepEqual(chargeJob({ used: 90, limit: 100, distinct: 40, paid: false }), { ok: false, needed: 40, remaining: 10 });
  assert.deepEqual(chargeJob({ used: 90, limit: 100, distinct: 40, paid: true }), { ok: true, charged: 10, overage: 30 });
  assert.deepEqual(chargeJob({ used: 120, limit: 100, distinct: 5, paid: true }), { ok: true, charged: 0, overage: 5 });
  assert.deepEqual(chargeJob({ used: 120, limit: 100, distinct: 5, paid: false }), { ok: false, needed: 5, remaining: 0 });
  assert.deepEqual(chargeJob({ used: 100, limit: 100, distinct: 0, paid: false }), { ok: true, charged: 0, overage: 0 });
});

test('splitRefund: overage is given back first', () => {
  assert.deepEqual(splitRefund(3, 5), { overage: 3, used: 0 });
  assert.deepEqual(splitRefund(7, 5), { overage: 5, used: 2 });
  assert.deepEqual(splitRefund(4, 0), { overage: 0, used: 4 });
});
