import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eitherCausePairWeight, PRIOR_MODEL } from './prior.ts';
import { pairName, withPairs } from './pairs.ts';
import { score, sigmoid } from './score.ts';

const p = (features: Record<string, number>): number => sigmoid(score(PRIOR_MODEL, withPairs(PRIOR_MODEL.pairs, new Map(Object.entries(features)))).logit);

test('a closure and an address the carrier cannot place combine as either one returning the letter', () => {
  const p0 = p({});
  const closed = p({ status_closed: 1 });
  const lost = p({ address_not_found: 1 });
  const both = p({ status_closed: 1, address_not_found: 1 });
  assert.ok(Math.abs(both - (1 - ((1 - closed) * (1 - lost)) / (1 - p0))) < 0.005, `${both}`);
  assert.ok(both > closed && both > lost, 'each cause still adds to the other');
  // a missing 동/호 in a block comes with missing_unit: the pair takes both into account
  const block = p({ missing_unit: 1, missing_unit_apartment: 1 });
  const closedInBlock = p({ status_closed: 1, missing_unit: 1, missing_unit_apartment: 1 });
  assert.ok(Math.abs(closedInBlock - (1 - ((1 - closed) * (1 - block)) / (1 - p0))) < 0.005, `${closedInBlock}`);
});

test('what makes an operating business likely to leave adds next to nothing once it has closed', () => {
  const closed = p({ status_closed: 1 });
  const active = p({});
  assert.ok(p({ trade_food: 1 }) - active > 0.01, 'a restaurant is likelier to have left unnoticed');
  // a closed restaurant is about as closed as any closed business: the two combine as either cause, far below their sum
  const p0 = active;
  const food = p({ trade_food: 1 });
  const both = p({ status_closed: 1, trade_food: 1 });
  assert.ok(Math.abs(both - (1 - ((1 - closed) * (1 - food)) / (1 - p0))) < 0.005 && both - closed < 0.02, `${closed} → ${both}`);
});

test('eitherCausePairWeight: nothing to take off when one cause is absent; more the surer both are', () => {
  assert.ok(Math.abs(eitherCausePairWeight(-3.48, 0, 2)) < 1e-12);
  assert.ok(eitherCausePairWeight(-3.48, 3.5, 2) < eitherCausePairWeight(-3.48, 1, 1));
  assert.ok(Object.hasOwn(PRIOR_MODEL.weights, pairName('status_closed', 'address_not_found')));
});
