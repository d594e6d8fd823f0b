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
  // so does a missing 동/호 outside a block, alone or with the block's
  const noUnit = p({ missing_unit: 1 });
  const closedNoUnit = p({ status_closed: 1, missing_unit: 1 });
  assert.ok(Math.abs(closedNoUnit - (1 - ((1 - closed) * (1 - noUnit)) / (1 - p0))) < 0.005, `${closedNoUnit}`);
  // a missing 동/호 in a block comes with missing_unit: the pair takes both into account
  const block = p({ missing_unit: 1, missing_unit_apartment: 1 });
  const closedInBlock = p({ status_closed: 1, missing_unit: 1, missing_unit_apartment: 1 });
  assert.ok(Math.abs(closedInBlock - (1 - ((1 - closed) * (1 - block)) / (1 - p0))) < 0.005, `${closedInBlock}`);
});

test('what makes an operating business likely to leave adds next to nothing once it has closed', () => {
  const closed = p({ status_closed: 1 });
  const active = p({});
  assert.ok(p({ building_officetel: 1 }) - active > 0.01, "an officetel's tenant is likelier to have left unnoticed");
  // a closed business in an officetel is about as closed as any closed business: the two combine
  // as either cause, far below their sum; so does a closed restaurant
  for (const churn of ['building_officetel', 'trade_food'] as const) {
    const sign = p({ [churn]: 1 });
    const both = p({ status_closed: 1, [churn]: 1 });
    assert.ok(Math.abs(both - (1 - ((1 - closed) * (1 - sign)) / (1 - active))) < 0.005 && both - closed < 0.02, `${churn}: ${closed} → ${both}`);
  }
});

test('eitherCausePairWeight: nothing to take off when one cause is absent; more the surer both are', () => {
  assert.ok(Math.abs(eitherCausePairWeight(-3.48, 0, 2)) < 1e-12);
  assert.ok(eitherCausePairWeight(-3.48, 3.5, 2) < eitherCausePairWeight(-3.48, 1, 1));
  assert.ok(Object.hasOwn(PRIOR_MODEL.weights, pairName('status_closed', 'address_not_found')));
});
