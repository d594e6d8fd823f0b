// Applies a logistic model and explains the answer: the contributions (baseline, one per
// non-zero feature, the account's shift) add up to the logit exactly, so the reasons a client
// reads are the arithmetic that produced the probability.
import type { Locale } from '../locale.ts';
import { formatReason } from '../verification.ts';
import { ACCOUNT_LABEL, accountText, BASELINE_LABEL, baselineText, textOf } from './feature-text.ts';
import { featurize } from './features.ts';
import { actionOf, gradeOf } from './grades.ts';
import type { AccountAdjustment, Assessment, AssessmentInput, Contribution, ModelParams } from './types.ts';
import { sigmoid } from './logistic.ts';
import { pairName, withPairs } from './pairs.ts';
import { PRIOR_MODEL } from './prior.ts';

/** The prior's own pairs: their reasons say they are a judgement, whatever model weighs them now. */
const JUDGED_PAIRS: ReadonlySet<string> = new Set((PRIOR_MODEL.pairs ?? []).map(([a, b]) => pairName(a, b)));

export interface FeatureContribution {
  feature: string;
  value: number;
  /** weight × value: this feature's share of the logit */
  weight: number;
}

export interface Score {
  prob: number;
  logit: number;
  /** non-zero feature contributions, in the order the features came; the intercept is not among them */
  contributions: FeatureContribution[];
}

export { logit, sigmoid } from './logistic.ts';

/** The model's weight for a feature; absent (or inherited) keys weigh 0. */
export function weightOf(model: ModelParams, feature: string): number {
  return Object.hasOwn(model.weights, feature) ? (model.weights[feature] ?? 0) : 0;
}

/** The model's logit for a mailing's features (its pair terms added from them). */
export function score(model: ModelParams, features: ReadonlyMap<string, number>): Score {
  let z = model.intercept;
  const contributions: FeatureContribution[] = [];
  for (const [feature, value] of withPairs(model.pairs, features)) {
    const weight = weightOf(model, feature) * value;
    if (weight === 0 || !Number.isFinite(weight)) continue;
    z += weight;
    contributions.push({ feature, value, weight });
  }
  return { prob: sigmoid(z), logit: z, contributions };
}

/** Largest |weight| first; the baseline last, because it is the same for every mailing. */
function byImpact(a: Contribution, b: Contribution): number {
  const ab = a.label === BASELINE_LABEL ? 1 : 0;
  const bb = b.label === BASELINE_LABEL ? 1 : 0;
  return ab - bb || Math.abs(b.weight) - Math.abs(a.weight) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

/**
 * `opts.account`: the account's own adjustment (fit.ts), shown as one contribution, its shift of
 * the baseline plus its shifts of the weights of this mailing's features. `opts.shown`: the input
 * the reasons' texts are written from, when not `input` (mailing-score.ts writes texts to be
 * filled in later); it must have the same features.
 */
export function assess(model: ModelParams, input: AssessmentInput, opts: { account?: AccountAdjustment | null; shown?: AssessmentInput } = {}): Assessment {
  const features = withPairs(model.pairs, featurize(input));
  const s = score(model, features);
  const shown = opts.shown ?? input;
  const contributions: Contribution[] = s.contributions.map((c) => ({
    ...textOf(c.feature, { input: shown, value: c.value, judgedPair: JUDGED_PAIRS.has(c.feature) }),
    weight: c.weight,
  }));
  let z = s.logit;
  const offset = accountShift(opts.account, features, s.logit - model.intercept);
  if (offset !== 0 && Number.isFinite(offset)) {
    z += offset;
    contributions.push({ label: ACCOUNT_LABEL, weight: offset, text: accountText(), source: 'labels' });
  }
  contributions.push({ label: BASELINE_LABEL, weight: model.intercept, text: baselineText(model.version), source: 'model' });
  contributions.sort(byImpact);
  const bounceProb = sigmoid(z);
  const grade = gradeOf(bounceProb);
  return {
    bounceProb,
    grade,
    action: actionOf({ status: input.status, addressQuality: input.addressQuality, grade }),
    contributions,
    modelVersion: model.version,
  };
}

/** The account's part of a mailing's logit: its intercept shift and its shifts of the mailing's features. */
/** The pseudo-feature an account's adjustment stretches the model's score by (fit.ts). */
export const MODEL_SCORE = 'model_score';

/** The model's logit for these features less its baseline: what MODEL_SCORE's value is. */
export function modelScoreOf(model: ModelParams, features: ReadonlyMap<string, number>): number {
  return score(model, features).logit - model.intercept;
}

/**
 * The account's shift of a mailing's logit: its offset, its shifts of the mailing's features'
 * weights, and its stretch of the model's score (`modelScore`, modelScoreOf).
 */
export function accountShift(a: AccountAdjustment | null | undefined, features: ReadonlyMap<string, number>, modelScore = 0): number {
  if (!a) return 0;
  let z = Number.isFinite(a.offset) ? a.offset : 0;
  const stretch = Object.hasOwn(a.weights, MODEL_SCORE) ? (a.weights[MODEL_SCORE] ?? 0) : 0;
  if (Number.isFinite(stretch * modelScore)) z += stretch * modelScore;
  for (const [feature, value] of features) {
    const w = Object.hasOwn(a.weights, feature) ? (a.weights[feature] ?? 0) : 0;
    if (Number.isFinite(w * value)) z += w * value;
  }
  return z;
}

/** `[label ±w.ww] text (source)` per contribution, most influential first, baseline last. */
export function reasonsOf(assessment: Assessment, locale: Locale): string[] {
  return assessment.contributions.toSorted(byImpact).map((c) => formatReason(c.label, c.weight, c.text[locale], c.source));
}
