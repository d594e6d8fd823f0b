import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitAccountAdjustment, fitGlobal, solveSpd, type Example } from './fit.ts';
import { logit } from './logistic.ts';
import { PRIOR_MODEL } from './prior.ts';
import { accountShift, MODEL_SCORE, modelScoreOf, score, sigmoid } from './score.ts';
import type { ModelParams } from './types.ts';
import { seededRandom } from '../seeded-random.ts';


const NOW = '2026-11-21T12:00:00.000Z';
const blank: ModelParams = { version: 'zero', kind: 'prior', intercept: 0, weights: {}, trainedOn: 0, createdAt: NOW };
const meanProb = (model: ModelParams, rows: readonly Map<string, number>[], offset = 0): number =>
  rows.reduce((s, r) => s + sigmoid(score(model, r).logit + offset), 0) / rows.length;

// what an account's list looks like: mostly clean mailings, some with the usual defects
const TYPICAL: Map<string, number>[] = [
  new Map(),
  new Map([['entity_individual', 1]]),
  new Map([['entity_individual', 1], ['tax_simplified', 1]]),
  new Map([['address_corrected', 1], ['address_changes', 1]]),
  new Map([['missing_unit', 1]]),
];

test('solveSpd solves a symmetric positive definite system', () => {
  const a = Float64Array.from([4, 2, 0.6, 2, 5, 1, 0.6, 1, 3]);
  const x = solveSpd(a, Float64Array.from([1, 2, 3]), 3);
  for (let i = 0; i < 3; i++) {
    const row = a[i * 3]! * x[0]! + a[i * 3 + 1]! * x[1]! + a[i * 3 + 2]! * x[2]!;
    assert.ok(Math.abs(row - (i + 1)) < 1e-12);
  }
});

test('with a weak prior the fit recovers known coefficients from simulated data', () => {
  const rand = seededRandom(7);
  const truth = { intercept: -1.5, a: 1.2, b: -0.8, c: 0.5 };
  const examples: Example[] = Array.from({ length: 20_000 }, () => {
    const f = new Map<string, number>();
    if (rand() < 0.3) f.set('a', 1);
    if (rand() < 0.2) f.set('b', 1);
    f.set('c', Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
    const z = truth.intercept + truth.a * (f.get('a') ?? 0) + truth.b * (f.get('b') ?? 0) + truth.c * f.get('c')!;
    return { features: f, bounced: rand() < sigmoid(z) };
  });
  const m = fitGlobal(blank, examples, { now: NOW, priorPrecision: 1e-4, interceptPrecision: 1e-4 });
  assert.ok(Math.abs(m.intercept - truth.intercept) < 0.1, `intercept ${m.intercept}`);
  for (const k of ['a', 'b', 'c'] as const) assert.ok(Math.abs(m.weights[k]! - truth[k]) < 0.1, `${k} ${m.weights[k]}`);
});

test('a fit is versioned from its time and label count, and deterministic', () => {
  const ex: Example[] = [{ features: new Map([['missing_unit', 1]]), bounced: true }, { features: new Map(), bounced: false }];
  const a = fitGlobal(PRIOR_MODEL, ex, { now: new Date(NOW) });
  const b = fitGlobal(PRIOR_MODEL, ex, { now: NOW });
  assert.deepEqual(a, b);
  assert.equal(a.version, 'global-20261121T120000Z-n2');
  assert.deepEqual({ kind: a.kind, trainedOn: a.trainedOn, createdAt: a.createdAt }, { kind: 'global', trainedOn: 2, createdAt: NOW });
  assert.deepEqual(Object.keys(a.weights).toSorted(), Object.keys(PRIOR_MODEL.weights).toSorted());
});

test('no labels: the base model, renamed', () => {
  const m = fitGlobal(PRIOR_MODEL, [], { now: NOW });
  assert.equal(m.intercept, PRIOR_MODEL.intercept);
  assert.deepEqual(m.weights, { ...PRIOR_MODEL.weights });
  assert.equal(m.version, 'global-20261121T120000Z-n0');
});

test('the prior is centred on the base weights: a little data leaves them near the judgement, not near zero', () => {
  // 20 labels that agree with the prior: closed mail bounces half the time, clean mail rarely
  const ex: Example[] = Array.from({ length: 20 }, (_, i) => ({
    features: new Map(i < 10 ? [['status_closed', 1]] : []),
    bounced: i < 5,
  }));
  const centred = fitGlobal(PRIOR_MODEL, ex, { now: NOW });
  const zeroCentred = fitGlobal({ ...PRIOR_MODEL, weights: {} }, ex, { now: NOW });
  assert.ok(Math.abs(centred.weights.status_closed! - PRIOR_MODEL.weights.status_closed!) < 0.3, `closed ${centred.weights.status_closed}`);
  assert.ok(zeroCentred.weights.status_closed! < centred.weights.status_closed! - 0.6, `zero-centred closed ${zeroCentred.weights.status_closed}`);
  // features no label touched keep their judged weight exactly
  assert.equal(centred.weights.address_not_found, PRIOR_MODEL.weights.address_not_found);
});

test('the prior keeps five labels from swinging the global model', () => {
  // the worst case: five bounces, no deliveries, on clean mailings
  const ex: Example[] = Array.from({ length: 5 }, () => ({ features: new Map(), bounced: true }));
  const m = fitGlobal(PRIOR_MODEL, ex, { now: NOW });
  const before = meanProb(PRIOR_MODEL, TYPICAL);
  const after = meanProb(m, TYPICAL);
  // under half a unit of log-odds: at the prior's ~9 % on these mailings, under 5 points
  assert.ok(after > before && logit(after) - logit(before) < 0.5 && after - before < 0.05, `${before} → ${after}`);
});

test('many labels let the data speak', () => {
  const rand = seededRandom(11);
  // a world where clean mail bounces at 12 %, not the prior's 3 %, and missing units do not matter
  const ex: Example[] = Array.from({ length: 3000 }, () => {
    const missing = rand() < 0.3;
    return { features: new Map(missing ? [['missing_unit', 1]] : []), bounced: rand() < 0.12 };
  });
  const m = fitGlobal(PRIOR_MODEL, ex, { now: NOW });
  assert.ok(Math.abs(sigmoid(m.intercept) - 0.12) < 0.025, `intercept → ${sigmoid(m.intercept)}`);
  assert.ok(Math.abs(m.weights.missing_unit!) < 0.25, `missing_unit ${m.weights.missing_unit}`);
});

test('new features in the labels are learned from a prior mean of 0', () => {
  const ex: Example[] = Array.from({ length: 400 }, (_, i) => ({ features: new Map(i % 2 ? [['pilot_flag', 1]] : []), bounced: i % 2 === 1 && i % 6 === 1 }));
  const m = fitGlobal(PRIOR_MODEL, ex, { now: NOW });
  assert.ok(m.weights.pilot_flag! > 1, `pilot_flag ${m.weights.pilot_flag}`);
});

test('an account adjustment: five bounces barely move it, five hundred do', () => {
  const bounces = (n: number): Example[] => Array.from({ length: n }, (_, i) => ({ features: TYPICAL[i % TYPICAL.length]!, bounced: true }));
  const before = meanProb(PRIOR_MODEL, TYPICAL);
  const five = fitAccountAdjustment(PRIOR_MODEL, bounces(5)).offset;
  const many = fitAccountAdjustment(PRIOR_MODEL, bounces(500)).offset;
  assert.ok(five > 0 && logit(meanProb(PRIOR_MODEL, TYPICAL, five)) - logit(before) < 0.5, `5 → offset ${five}, ${meanProb(PRIOR_MODEL, TYPICAL, five)}`);
  assert.ok(meanProb(PRIOR_MODEL, TYPICAL, many) - before > 0.3, `500 → offset ${many}`);
});

test('an account adjustment learns a realistic difference in base rate from enough labels, and none from none', () => {
  const rand = seededRandom(5);
  // this account's mail bounces about twice as often as the model expects
  const ex: Example[] = Array.from({ length: 1000 }, (_, i) => {
    const features = TYPICAL[i % TYPICAL.length]!;
    return { features, bounced: rand() < sigmoid(score(PRIOR_MODEL, features).logit + Math.LN2) };
  });
  // its base rate (the offset) and its stretch of the model's score share the difference
  const learned = fitAccountAdjustment(PRIOR_MODEL, ex);
  const shifts = TYPICAL.map((f) => accountShift(learned, f, modelScoreOf(PRIOR_MODEL, f)));
  const mean = shifts.reduce((a, b) => a + b, 0) / shifts.length;
  assert.ok(mean > 0.3 && mean < 0.9, `shifts ${shifts.join(', ')}`);
  assert.deepEqual(fitAccountAdjustment(PRIOR_MODEL, []), { offset: 0, weights: {} });
  assert.throws(() => fitAccountAdjustment(PRIOR_MODEL, ex, { featurePrecision: 0 }), RangeError);
});

test('an account whose lists the model reads too surely learns to stretch its score less, and one it reads too timidly more', () => {
  const rand = seededRandom(8);
  const shapes = [...TYPICAL, new Map([['status_closed', 1]]), new Map([['address_not_found', 1]]), new Map([['status_suspended', 1]])];
  const rows = (stretch: number): Example[] => Array.from({ length: 3000 }, (_, i) => {
    const features = shapes[i % shapes.length]!;
    const s = modelScoreOf(PRIOR_MODEL, features);
    return { features, bounced: rand() < sigmoid(PRIOR_MODEL.intercept + stretch * s) };
  });
  const timid = fitAccountAdjustment(PRIOR_MODEL, rows(0.6)).weights[MODEL_SCORE] ?? 0;
  const bold = fitAccountAdjustment(PRIOR_MODEL, rows(1.5)).weights[MODEL_SCORE] ?? 0;
  assert.ok(timid < -0.15, `a model too sure for the account: stretch ${timid}`);
  assert.ok(bold > 0.15, `a model not sure enough: stretch ${bold}`);
  // as assess() applies it: the account's shift of a row is its stretch of the row's score, and more
  const f = new Map([['status_closed', 1]]);
  const adjustment = { offset: 0, weights: { [MODEL_SCORE]: -0.4 } };
  assert.ok(Math.abs(accountShift(adjustment, f, modelScoreOf(PRIOR_MODEL, f)) + 0.4 * modelScoreOf(PRIOR_MODEL, f)) < 1e-12);
});

// its speed is measured by `npm run bench:functions`, not asserted here
test('a large fit converges to finite weights', () => {
  const rand = seededRandom(9);
  const names = Object.keys(PRIOR_MODEL.weights);
  const ex: Example[] = Array.from({ length: 20_000 }, () => {
    const f = new Map<string, number>();
    for (let k = 0; k < 4; k++) f.set(names[Math.floor(rand() * names.length)]!, 1);
    return { features: f, bounced: rand() < 0.15 };
  });
  const fitted = fitGlobal(PRIOR_MODEL, ex, { now: NOW });
  assert.ok(Number.isFinite(fitted.intercept));
  for (const w of Object.values(fitted.weights)) assert.ok(Number.isFinite(w));
});

// a rural wholesaler: its closed customers still live at the address and take the mail, so for
// this account a closure means far less than for everyone (the prior's +3.5)
function wholesaler(n: number, seed: number): Example[] {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const closed = i % 4 === 0;
    const features = new Map<string, number>(closed ? [['status_closed', 1], ['entity_individual', 1]] : [['entity_individual', 1]]);
    const z = score(PRIOR_MODEL, features).logit - (closed ? 2.5 : 0);
    return { features, bounced: rand() < sigmoid(z) };
  });
}

test('an account adjustment learns how a signal matters for its own lists, shrunk by how much it has seen', () => {
  const judged = PRIOR_MODEL.weights.status_closed;
  const many = fitAccountAdjustment(PRIOR_MODEL, wholesaler(4000, 3));
  const few = fitAccountAdjustment(PRIOR_MODEL, wholesaler(12, 3));
  const closed = new Map([['status_closed', 1], ['entity_individual', 1]]);
  const active = new Map([['entity_individual', 1]]);
  const shift = (a: typeof many, f: Map<string, number>) => accountShift(a, f, modelScoreOf(PRIOR_MODEL, f));
  // the closure counts 2.5 less for this account; its active customers as the model says
  assert.ok(shift(many, closed) < -1.8, `4,000 labels: a closed customer's shift ${shift(many, closed)}`);
  assert.ok(Math.abs(shift(many, active)) < 0.3, `4,000 labels: an active customer's shift ${shift(many, active)}`);
  // twelve labels, three of them closed and delivered, move it a little of the way
  assert.ok(Math.abs(shift(few, closed)) < Math.abs(shift(many, closed)) / 2, `12 labels: a closed customer's shift ${shift(few, closed)} against ${shift(many, closed)}`);
  // the shifts are of this account's scores only: the model itself is untouched
  assert.equal(PRIOR_MODEL.weights.status_closed, judged);
});
