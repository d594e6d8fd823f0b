import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runFit } from '../../jobs/refit-worker.ts';
import { logLoss } from './metrics.ts';
import { pairName, pairParts, withPairs } from './pairs.ts';
import { selectPairs } from './pair-selection.ts';
import { fitGlobal } from './fit.ts';
import { PRIOR_MODEL } from './prior.ts';
import { accountShift, assess, logit, modelScoreOf, score, sigmoid } from './score.ts';
import type { AssessmentInput } from './types.ts';

const NOW = '2026-11-25T00:00:00.000Z';

function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32);
}

test('a pair has one name whichever way round, and reads back', () => {
  assert.equal(pairName('trade_food', 'missing_unit'), pairName('missing_unit', 'trade_food'));
  assert.deepEqual(pairParts(pairName('trade_food', 'missing_unit')), ['missing_unit', 'trade_food']);
  assert.equal(pairParts('status_closed'), null);
  const f = new Map([['missing_unit', 1], ['trade_food', 1], ['biz_history', 0.7]]);
  assert.equal(withPairs([['missing_unit', 'trade_food'], ['status_closed', 'trade_food']], f).get('missing_unit__and__trade_food'), 1);
  assert.equal(withPairs([['status_closed', 'trade_food']], f), f, 'no pair present: the same map');
});

// A world whose bounces depend on a pair the prior does not know: a food business with a missing
// unit bounces far more than the two signals' weights add up to; everything else as the prior says.
const SHAPES: Record<string, number>[] = [
  {}, { trade_food: 1 }, { missing_unit: 1 }, { trade_food: 1, missing_unit: 1 }, { entity_individual: 1 }, { entity_individual: 1, trade_food: 1 },
  { status_closed: 1, closed_recent: 1 }, { entity_individual: 1, trade_food: 1, missing_unit: 1 }, { tax_simplified: 1, missing_unit: 1 },
];
const planted = (f: Record<string, number>) => score(PRIOR_MODEL, new Map(Object.entries(f))).logit + (f.trade_food && f.missing_unit ? 2 : 0);

function world(n: number, seed: number, accounts = 4) {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const features = SHAPES[Math.floor(rand() * SHAPES.length)]!;
    const p = sigmoid(planted(features));
    return { accountId: `acct_${i % accounts}`, features, bounced: rand() < p, p };
  });
}

test('selectPairs finds a planted interaction in the residuals and nothing in a world without one', () => {
  const examples = world(6000, 1).map((e) => ({ features: new Map(Object.entries(e.features)), bounced: e.bounced }));
  const pairs = selectPairs(fitGlobal(PRIOR_MODEL, examples, { now: NOW }), examples);
  assert.deepEqual(pairs[0], ['missing_unit', 'trade_food']);
  // closed_recent always comes with status_closed: never a pair
  assert.ok(!pairs.some(([a, b]) => a === 'closed_recent' && b === 'status_closed'));
  const rand = seededRandom(2);
  const plain = Array.from({ length: 6000 }, () => {
    const features = new Map(Object.entries(SHAPES[Math.floor(rand() * SHAPES.length)]!));
    return { features, bounced: rand() < sigmoid(score(PRIOR_MODEL, features).logit) };
  });
  assert.deepEqual(selectPairs(fitGlobal(PRIOR_MODEL, plain, { now: NOW }), plain), [], 'labels that follow the main effects call for no pair');
});

test('a refit learns the pair: its accounts rank held-out mail close to the truth, and it is one more reason that adds up', () => {
  const train = world(8000, 3);
  const heldOut = world(4000, 4);
  const { model, offsets } = runFit({ base: PRIOR_MODEL, examples: train, now: NOW });
  const pair = pairName('missing_unit', 'trade_food');
  assert.ok(model.pairs?.some(([a, b]) => a === 'missing_unit' && b === 'trade_food'), JSON.stringify(model.pairs));
  // a pair chosen from everyone's labels is not a term of the shared model (pooled-fit.ts: which
  // pairs exist must not let one account change how another's labels count): each account's own
  // adjustment learns it from its own labels
  assert.equal(model.weights[pair] ?? 0, 0);
  for (const o of offsets) assert.ok((o.weights[pair] ?? 0) > 1, `${o.accountId}: pair shift ${o.weights[pair]}`);
  const adjustment = new Map(offsets.map((o) => [o.accountId, o]));
  const probOf = (e: (typeof heldOut)[number]) => {
    const f = withPairs(model.pairs, new Map(Object.entries(e.features)));
    return sigmoid(score(model, f).logit + accountShift(adjustment.get(e.accountId), f, modelScoreOf(model, f)));
  };
  // the planted pair barely reorders the shapes, so it shows in calibration (log loss), not in AUC
  const y = heldOut.map((e) => e.bounced);
  const learned = logLoss(heldOut.map(probOf), y);
  const prior = logLoss(heldOut.map((e) => sigmoid(score(PRIOR_MODEL, new Map(Object.entries(e.features))).logit)), y);
  const truth = logLoss(heldOut.map((e) => e.p), y);
  assert.ok(learned < prior - 0.01 && learned < truth + 0.005, `log loss learned ${learned.toFixed(4)}, prior ${prior.toFixed(4)}, truth ${truth.toFixed(4)}`);

  const input: AssessmentInput = {
    status: 'active', closedOn: null, taxTypeCode: '01', entityKind: 'corporate_head', addressQuality: 'exact', addressChanges: 0,
    missingBuildingNumber: false, missingUnit: true, zipMismatch: false, outdatedZip: false, formerRoad: false, liveNeighbour: null, addressForm: 'road', notFound: null, buildingKind: 'office', rural: false,
    name: { entityMismatch: false, closureHint: false, trade: 'food', branch: false },
    history: { bizBounced: 0, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 0 }, asOf: '2026-11-25',
  };
  const a = assess(model, input, { account: adjustment.get('acct_0') });
  // the account's own weight of the pair is in its adjustment's reason, which carries it
  assert.ok(!a.contributions.some((c) => c.label === 'missing_unit_and_trade_food'), 'a pair at shared weight 0 is no reason of its own');
  const own = a.contributions.find((c) => c.label === 'account_history');
  assert.ok(own && own.weight > 1, `account_history ${own?.weight}`);
  const sum = a.contributions.reduce((t, c) => t + c.weight, 0);
  assert.ok(Math.abs(sum - logit(a.bounceProb)) < 1e-9);
});
