import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PRIOR_MODEL, PRIOR_VERSION } from './prior.ts';
import { pairName } from './pairs.ts';
import { featurize } from './features.ts';
import { assess, logit, reasonsOf, score, sigmoid } from './score.ts';
import type { AssessmentInput, ModelParams } from './types.ts';

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

const REASON = /^\[[a-z_]+ [+-]\d+\.\d{2}\] .+ \((nts|address|labels|model|input)\)$/;

// a spread of mailings touching every feature, so every text and every sum is exercised
const MAILINGS: AssessmentInput[] = [
  clean(),
  clean({ status: 'closed', closedOn: '2024-03-01', entityKind: 'individual_taxable', taxTypeCode: '02' }),
  clean({ status: 'closed', closedOn: '2026-05-01', addressQuality: 'not_found', name: { entityMismatch: true, closureHint: true, trade: null, branch: false } }),
  clean({ status: 'closed', closedOn: '2019-05-01', addressQuality: 'corrected', addressChanges: 2, outdatedZip: true }),
  clean({ status: 'suspended', addressQuality: 'ambiguous', missingBuildingNumber: true, taxTypeCode: '04' }),
  clean({ status: 'unregistered', taxTypeCode: '', addressQuality: 'no_address' }),
  clean({ status: 'unknown', missingUnit: true, zipMismatch: true }),
  clean({ status: 'invalid', history: { bizBounced: 3, bizDelivered: 0, bizGone: 2, bizAbsent: 0, addressBounced: 0, addressDelivered: 4 } }),
];

const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);

test('score: the logit is the intercept plus weight × value, and prob is its sigmoid', () => {
  const model: ModelParams = { version: 't', kind: 'global', intercept: -2, weights: { a: 1.5, b: -0.5 }, trainedOn: 0, createdAt: '' };
  const s = score(model, new Map([['a', 1], ['b', 2], ['unknown_feature', 5]]));
  assert.equal(s.logit, -2 + 1.5 - 1);
  assert.equal(s.prob, sigmoid(-1.5));
  assert.deepEqual(s.contributions, [
    { feature: 'a', value: 1, weight: 1.5 },
    { feature: 'b', value: 2, weight: -1 },
  ]);
});

test('score ignores inherited keys: a feature named like an Object method weighs nothing', () => {
  const s = score(PRIOR_MODEL, new Map([['constructor', 1], ['toString', 1]]));
  assert.equal(s.logit, PRIOR_MODEL.intercept);
});

test('sigmoid is stable at the extremes and logit inverts it', () => {
  assert.equal(sigmoid(1000), 1);
  assert.equal(sigmoid(-1000), 0);
  assert.ok(Math.abs(logit(sigmoid(2.5)) - 2.5) < 1e-12);
});

test('contributions (baseline included) add up to the logit of bounceProb', () => {
  for (const input of MAILINGS) {
    const a = assess(PRIOR_MODEL, input);
    const total = sum(a.contributions.map((c) => c.weight));
    assert.ok(Math.abs(total - logit(a.bounceProb)) < 1e-9, `${input.status}: ${total} vs ${logit(a.bounceProb)}`);
    assert.equal(a.contributions.filter((c) => c.label === 'baseline').length, 1);
    assert.equal(a.modelVersion, PRIOR_MODEL.version);
  }
});

test('the reference mailing is the baseline alone: about 8 %', () => {
  const a = assess(PRIOR_MODEL, clean());
  assert.deepEqual(a.contributions.map((c) => c.label), ['baseline']);
  assert.ok(Math.abs(a.bounceProb - 0.084) < 0.001, `${a.bounceProb}`);
  assert.equal(a.grade, 'B');
  assert.equal(a.action, 'send');
});

test('an account offset is its own contribution and moves the probability', () => {
  const base = assess(PRIOR_MODEL, clean());
  const shifted = assess(PRIOR_MODEL, clean(), { account: { offset: 0.7, weights: {} } });
  const acct = shifted.contributions.find((c) => c.label === 'account_history');
  assert.deepEqual({ weight: acct?.weight, source: acct?.source }, { weight: 0.7, source: 'labels' });
  assert.ok(Math.abs(logit(shifted.bounceProb) - logit(base.bounceProb) - 0.7) < 1e-9);
  assert.equal(assess(PRIOR_MODEL, clean(), { account: { offset: 0, weights: {} } }).contributions.length, 1);
});

test("an account's feature shifts apply to its mailings that have the feature, in the same contribution", () => {
  const account = { offset: 0.2, weights: { status_closed: -1.5, missing_unit: 0.4 } };
  for (const input of MAILINGS) {
    const a = assess(PRIOR_MODEL, input, { account });
    const features = featurize(input);
    const expected = 0.2 + (features.get('status_closed') ?? 0) * -1.5 + (features.get('missing_unit') ?? 0) * 0.4;
    const line = a.contributions.find((c) => c.label === 'account_history');
    assert.ok(Math.abs((line?.weight ?? 0) - expected) < 1e-12, `${JSON.stringify(input)}: ${line?.weight} vs ${expected}`);
    // the reasons still add up to the logit exactly
    assert.ok(Math.abs(sum(a.contributions.map((c) => c.weight)) - logit(a.bounceProb)) < 1e-9);
  }
});

test('reasons: the documented format, in both languages, for every mailing', () => {
  for (const input of MAILINGS) {
    const a = assess(PRIOR_MODEL, input, { account: { offset: -0.25, weights: {} } });
    for (const locale of ['ko', 'en'] as const) {
      const reasons = reasonsOf(a, locale);
      assert.equal(reasons.length, a.contributions.length);
      for (const r of reasons) assert.match(r, REASON);
    }
  }
});

test('reasons: most influential first, baseline last', () => {
  const a = assess(PRIOR_MODEL, MAILINGS[2]!, { account: { offset: 0.1, weights: {} } });
  const reasons = reasonsOf(a, 'ko');
  assert.equal(reasons.at(-1)!, `[baseline -2.39] 기본 반송 위험 (모델 ${PRIOR_VERSION}) (model)`);
  assert.equal(reasons[0], '[closed +2.63] 국세청 상태: 폐업자 (2026-05-01 폐업) (nts)');
  const weights = reasons.slice(0, -1).map((r) => Math.abs(Number(/ ([+-]\d+\.\d{2})\]/.exec(r)![1])));
  assert.deepEqual(weights, weights.toSorted((x, y) => y - x));
});

test('reasons: the weights parsed back from the strings add up to the logit within rounding', () => {
  for (const input of MAILINGS) {
    const a = assess(PRIOR_MODEL, input, { account: { offset: 0.333, weights: {} } });
    for (const locale of ['ko', 'en'] as const) {
      const reasons = reasonsOf(a, locale);
      const parsed = sum(reasons.map((r) => Number(/^\[[a-z_]+ ([+-]\d+\.\d{2})\]/.exec(r)![1])));
      assert.ok(Math.abs(parsed - logit(a.bounceProb)) <= 0.005 * reasons.length + 1e-9, `${parsed} vs ${logit(a.bounceProb)}`);
    }
  }
});

const head = (r: string): string => r.slice(0, r.indexOf(']') + 1);

test('English reasons carry the same labels and weights as Korean ones', () => {
  const a = assess(PRIOR_MODEL, MAILINGS[3]!);
  assert.deepEqual(reasonsOf(a, 'en').map(head), reasonsOf(a, 'ko').map(head));
  assert.ok(reasonsOf(a, 'en').includes('[closed_old +0.15] closed more than 3 years ago (2019-05-01) (nts)'));
});

test("a pair of the prior is a judgement, shown as one whatever model weighs it; a pair labels called for says labels taught it", () => {
  const input = { ...clean(), status: 'closed' as const, addressQuality: 'not_found' as const, name: { ...clean().name, trade: 'food' as const } };
  for (const kind of ['prior', 'global'] as const) {
    const model = { ...PRIOR_MODEL, kind, pairs: [...PRIOR_MODEL.pairs!, ['address_not_found', 'trade_food'] as [string, string]], weights: { ...PRIOR_MODEL.weights, [pairName('address_not_found', 'trade_food')]: 0.4 } };
    const lines = assess(model, input).contributions;
    const judged = lines.find((c) => c.label === 'address_not_found_and_closed');
    assert.equal(judged?.source, 'model');
    assert.doesNotMatch(judged?.text.ko ?? '', /반송 기록/);
    assert.match(judged?.text.en ?? '', /either one returns the letter/);
    const learned = lines.find((c) => c.label === 'address_not_found_and_trade_food');
    assert.equal(learned?.source, 'labels');
    assert.match(learned?.text.ko ?? '', /반송 기록에서 배운 조합/);
  }
});
