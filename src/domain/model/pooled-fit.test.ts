import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Example } from './fit.ts';
import { ACCOUNT_OWN_SIGNALS, exclusiveGroupOf, fitPooled, largestValueOf } from './pooled-fit.ts';
import { featurize } from './features.ts';
import { withPairs } from './pairs.ts';
import { PRIOR_MODEL } from './prior.ts';
import { score, sigmoid } from './score.ts';
import type { AssessmentInput, ModelParams } from './types.ts';
import { seededRandom } from '../seeded-random.ts';

const NOW = '2026-11-24T12:00:00.000Z';

// rows as lists hold them: clean mailings, the usual defects, now and then a closed business
const SHAPES: Map<string, number>[] = [
  new Map(),
  new Map([['entity_individual', 1]]),
  new Map([['entity_individual', 1], ['tax_simplified', 1]]),
  new Map([['address_corrected', 1], ['address_changes', 1]]),
  new Map([['missing_unit', 1]]),
  new Map([['missing_building_number', 1]]),
  new Map([['status_closed', 1], ['closed_old', 1]]),
  new Map([['address_not_found', 1]]),
];

/** `n` labels drawn from a world whose true log-odds are the prior's plus `shift` per feature. */
function honest(seed: number, n: number, shift: Record<string, number> = {}): Example[] {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const features = SHAPES[Math.floor(rand() * SHAPES.length)]!;
    let z = score(PRIOR_MODEL, features).logit;
    for (const [k, v] of features) z += (shift[k] ?? 0) * v;
    return { features, bounced: rand() < sigmoid(z) };
  });
}

/** Labels that say the opposite of everything: clean rows bounce, closed and unfound ones arrive. */
function adversarial(n: number): Example[] {
  return Array.from({ length: n }, (_, i) => {
    const features = SHAPES[i % SHAPES.length]!;
    return { features, bounced: score(PRIOR_MODEL, features).logit < -1 };
  });
}

const prob = (m: ModelParams, f: ReadonlyMap<string, number>) => sigmoid(score(m, f).logit);

/** The largest difference two models make to any row shape, or any one feature alone. */
function largestDifference(a: ModelParams, b: ModelParams): number {
  const rows = [...SHAPES, ...Object.keys(PRIOR_MODEL.weights).map((k) => new Map([[k, 1]]))];
  return Math.max(...rows.map((f) => Math.abs(prob(a, f) - prob(b, f))));
}

test('fewer than three accounts with labels leave the shared model at its base', () => {
  const fit = fitPooled(PRIOR_MODEL, new Map([['a', honest(1, 3000, { missing_unit: 2 })], ['b', honest(2, 3000, { missing_unit: 2 })]]), { now: NOW });
  assert.equal(fit.model.intercept, PRIOR_MODEL.intercept);
  assert.deepEqual(fit.model.weights, PRIOR_MODEL.weights);
});

test('one account posting thousands of adversarial labels moves no other account\'s probability by more than 0.02', () => {
  const others = new Map([['b', honest(11, 400)], ['c', honest(12, 400)], ['d', honest(13, 400)]]);
  const without = fitPooled(PRIOR_MODEL, others, { now: NOW }).model;
  for (const n of [500, 5000, 20_000]) {
    const fit = fitPooled(PRIOR_MODEL, new Map([...others, ['attacker', adversarial(n)]]), { now: NOW });
    const moved = largestDifference(fit.model, without);
    assert.ok(moved <= 0.02, `${n} adversarial labels moved a probability by ${moved.toFixed(4)}`);
    assert.ok(fit.weights.get('attacker')! < 1, 'the attacker\'s labels were weighed down');
  }
});

test('what many accounts agree on is learned, and more of it the more accounts show it', () => {
  const truth = { missing_unit: 1.5, missing_building_number: 1 };
  const learned = [6, 40].map((k) => {
    const accounts = new Map(Array.from({ length: k }, (_, i) => [`a${i}`, honest(100 + i, 300, truth)] as const));
    const fit = fitPooled(PRIOR_MODEL, accounts, { now: NOW });
    assert.ok(fit.maxEffect <= 0.02, `bound ${fit.maxEffect}`);
    // leaving any one out, refitted: within the bound, and within what the fit says of itself
    for (const left of ['a0', 'a1', 'a2']) {
      const rest = new Map([...accounts].filter(([a]) => a !== left));
      const moved = largestDifference(fit.model, fitPooled(PRIOR_MODEL, rest, { now: NOW }).model);
      assert.ok(moved <= fit.maxEffect + 1e-12, `leaving out ${left} moves a probability by ${moved.toFixed(4)} (bound ${fit.maxEffect.toFixed(4)})`);
    }
    return fit.model.weights.missing_unit! - PRIOR_MODEL.weights.missing_unit!;
  });
  assert.ok(learned[0]! > 0 && learned[1]! > learned[0]! + 0.1, `missing_unit moved ${learned.map((x) => x.toFixed(2)).join(' → ')}`);
});

test('an attacker among honest accounts moves no one by more than 0.02, and counts for less than any of them', () => {
  const truth = { missing_unit: 1.5, missing_building_number: 1 };
  for (const seed of [40, 60, 80, 100, 120, 140]) {
    const honestOnes = new Map(['a', 'b', 'c', 'd', 'e', 'f'].map((a, i) => [a, honest(seed + i, 1500, truth)] as const));
    const accounts = new Map([...honestOnes, ['attacker', adversarial(20_000)]]);
    const fit = fitPooled(PRIOR_MODEL, accounts, { now: NOW });
    const moved = largestDifference(fit.model, fitPooled(PRIOR_MODEL, honestOnes, { now: NOW }).model);
    assert.ok(moved <= 0.02, `seed ${seed}: the attacker moved a probability by ${moved.toFixed(4)}`);
    for (const a of honestOnes.keys()) assert.ok(fit.weights.get('attacker')! < fit.weights.get(a)!, `seed ${seed}: attacker ${fit.weights.get('attacker')} against ${a} ${fit.weights.get(a)}`);
    for (const left of ['a', 'b', 'c']) {
      const rest = new Map([...accounts].filter(([a]) => a !== left));
      const byOne = largestDifference(fit.model, fitPooled(PRIOR_MODEL, rest, { now: NOW }).model);
      assert.ok(byOne <= 0.02, `seed ${seed}: leaving out ${left} moves a probability by ${byOne.toFixed(4)}`);
    }
  }
});

test('the bound holds on rows no one labelled: any combination of signals, whoever is left out', () => {
  const rand = seededRandom(7);
  const names = Object.keys(PRIOR_MODEL.weights).filter((k) => !k.includes('__'));
  // rows of up to twelve signals, drawn at random: none of them is a shape the labels hold
  const rows = Array.from({ length: 2000 }, () => new Map(Array.from({ length: 1 + Math.floor(rand() * 12) }, () => [names[Math.floor(rand() * names.length)]!, 1] as const)));
  const worst = (a: ModelParams, b: ModelParams) => Math.max(...rows.map((f) => Math.abs(prob(a, f) - prob(b, f))));
  for (const k of [3, 4, 7]) {
    const accounts = new Map(Array.from({ length: k }, (_, i) => [`a${i}`, i === 0 ? adversarial(5000) : honest(300 + i, 800, { missing_unit: 2, status_closed: -2 })] as const));
    const fit = fitPooled(PRIOR_MODEL, accounts, { now: NOW });
    for (const left of accounts.keys()) {
      const moved = worst(fit.model, fitPooled(PRIOR_MODEL, new Map([...accounts].filter(([a]) => a !== left)), { now: NOW }).model);
      assert.ok(moved <= fit.maxEffect + 1e-12 && fit.maxEffect <= 0.02, `${k} accounts, leaving out ${left}: ${moved.toFixed(4)} (bound ${fit.maxEffect.toFixed(4)})`);
    }
  }
});

test('with just enough accounts for the shared model, leaving one out returns it to its base: the whole shift stays within the bound', () => {
  const truth = { missing_unit: 1.5, missing_building_number: 1 };
  const accounts = new Map(['a', 'b', 'c'].map((a, i) => [a, honest(20 + i, 1500, truth)] as const));
  const fit = fitPooled(PRIOR_MODEL, accounts, { now: NOW });
  const two = fitPooled(PRIOR_MODEL, new Map([...accounts].slice(1)), { now: NOW }).model;
  assert.deepEqual(two.weights, PRIOR_MODEL.weights);
  const moved = largestDifference(fit.model, two);
  assert.ok(moved <= 0.02, `leaving out a moves a probability by ${moved.toFixed(4)}`);
  assert.ok(fit.model.weights.missing_unit! > PRIOR_MODEL.weights.missing_unit!, 'labels still move it, as far as the bound allows');
});

test('every shared signal a mailing can carry lies within the largest value the bound counts on, and at most one of each group', () => {
  // the bound sizes a shift by the largest X_j |Δ_j| of each group: a signal above its X, below 0,
  // or two of one group on one row would let the row escape it
  const rand = seededRandom(3);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  for (let i = 0; i < 5000; i++) {
    const input: AssessmentInput = {
      status: pick(['active', 'suspended', 'closed', 'converted', 'unregistered', 'unknown', 'invalid'] as const),
      closedOn: pick([null, '2026-11-01', '2025-06-01', '2022-01-01', '2010-01-01', 'not a date']),
      taxTypeCode: pick(['01', '02', '03', '04', '05', '06', '07', '']),
      entityKind: pick(['individual_taxable', 'corporate_head', 'corporate_branch', 'individual_exempt', 'foreign_corporate', 'nonprofit', 'other'] as const),
      addressQuality: pick(['exact', 'corrected', 'ambiguous', 'not_found', 'no_address'] as const),
      addressChanges: pick([0, 1, 2, 3, 7, 1000, -2, Number.NaN]),
      missingBuildingNumber: rand() < 0.5, missingUnit: rand() < 0.5, zipMismatch: rand() < 0.5, outdatedZip: rand() < 0.5, formerRoad: rand() < 0.5,
      liveNeighbour: rand() < 0.5 ? '1248100998' : null,
      addressForm: pick(['road', 'jibun', 'unknown', null] as const),
      notFound: pick([null, 'unknown_road', 'no_such_number', 'unknown_lot', 'unreadable'] as const),
      buildingKind: pick(['apartment', 'officetel', 'knowledge_center', 'office', 'villa', 'house', 'unknown'] as const),
      rural: rand() < 0.5,
      name: { entityMismatch: rand() < 0.5, closureHint: rand() < 0.5, trade: pick([null, 'food', 'medical', 'wholesale'] as const), branch: rand() < 0.5 },
      history: { bizBounced: Math.floor(rand() * 50), bizDelivered: Math.floor(rand() * 50), bizGone: Math.floor(rand() * 9), bizAbsent: Math.floor(rand() * 9), addressBounced: Math.floor(rand() * 9), addressDelivered: Math.floor(rand() * 9) },
      asOf: '2026-11-21',
    };
    const seen = new Map<string, string>();
    for (const [name, v] of withPairs(PRIOR_MODEL.pairs, featurize(input))) {
      if (ACCOUNT_OWN_SIGNALS.has(name)) continue;
      assert.ok(v >= 0 && v <= largestValueOf(name), `${name} = ${v} (largest counted ${largestValueOf(name)})`);
      const group = exclusiveGroupOf(name);
      assert.ok(!seen.has(group), `${seen.get(group)} and ${name} on one row, one group (${group})`);
      seen.set(group, name);
    }
  }
});
