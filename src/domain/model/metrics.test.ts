import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auc, expectedCalibrationError, logLoss } from './metrics.ts';

const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('AUC: perfect, reversed, and a hand-counted case', () => {
  assert.equal(auc([0.1, 0.2, 0.8, 0.9], [false, false, true, true]), 1);
  assert.equal(auc([0.9, 0.8, 0.2, 0.1], [false, false, true, true]), 0);
  // pairs (pos, neg): (0.8 > 0.1) (0.8 > 0.4) (0.35 > 0.1) (0.35 < 0.4) → 3 of 4
  assert.equal(auc([0.1, 0.4, 0.35, 0.8], [false, false, true, true]), 0.75);
});

test('AUC: ties count one half', () => {
  assert.equal(auc([0.5, 0.5], [true, false]), 0.5);
  assert.equal(auc([0.5, 0.5, 0.5, 0.5], [true, false, true, false]), 0.5);
  // pos 0.3 vs negs {0.3, 0.1}: 0.5 + 1; pos 0.7: 1 + 1 → 3.5 / 4
  assert.equal(auc([0.3, 0.3, 0.1, 0.7], [true, false, false, true]), 0.875);
});

test('AUC: undefined with one class only', () => {
  assert.ok(Number.isNaN(auc([0.1, 0.2], [true, true])));
  assert.ok(Number.isNaN(auc([], [])));
});

test('log loss: hand-computed', () => {
  close(logLoss([0.5, 0.5], [true, false]), Math.LN2);
  close(logLoss([0.8, 0.1], [true, false]), -(Math.log(0.8) + Math.log(0.9)) / 2);
  close(logLoss([1, 0], [true, false]), -Math.log(1 - 1e-15), 1e-12);
  // a certain, wrong answer costs a lot, but a finite amount
  close(logLoss([0], [true]), -Math.log(1e-15), 1e-9);
});

test('ECE: calibrated bins score 0; a hand-computed miscalibration', () => {
  close(expectedCalibrationError([0.25, 0.25, 0.25, 0.25], [true, false, false, false]), 0);
  // bin [0.1,0.2): two at 0.1, one bounced → |0.1 − 0.5| = 0.4 with weight 2/4;
  // bin [0.9,1.0]: 0.95 and 1.0, both bounced → |0.975 − 1| = 0.025 with weight 2/4
  close(expectedCalibrationError([0.1, 0.1, 0.95, 1], [true, false, true, true]), 0.5 * 0.4 + 0.5 * 0.025);
  // everything predicted 0.2, half bounce → 0.3
  close(expectedCalibrationError([0.2, 0.2], [true, false]), 0.3);
});

test('metrics refuse mismatched lengths', () => {
  assert.throws(() => auc([0.1], []), RangeError);
  assert.throws(() => logLoss([0.1], [true, false]), RangeError);
  assert.throws(() => expectedCalibrationError([0.1, 0.2], [true]), RangeError);
});
