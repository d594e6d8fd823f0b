// Learns the bounce model from labelled outcomes: maximum a posteriori logistic regression with
// a Gaussian prior centred on a base model's weights (not on zero). The base is what we believe
// without data; labels pull away from it in proportion to how much they say, so a handful
// barely moves it and thousands let the data decide. Solved by Newton–Raphson (IRLS) on the
// log-posterior, which is strictly concave, so it converges to the one optimum.
import { sigmoid, weightOf } from './score.ts';
import { pairParts } from './pairs.ts';
import type { AccountAdjustment, ModelParams } from './types.ts';
import { MODEL_SCORE, modelScoreOf } from './score.ts';

export interface Example {
  features: ReadonlyMap<string, number>;
  bounced: boolean;
  /** how much the example counts (default 1): pooled fits weigh accounts (pooled-fit.ts) */
  weight?: number;
}

/**
 * Default precision (1/variance) of the prior on each feature weight: σ = 1 in log-odds, i.e.
 * a judged weight is trusted to about ±2 (×7 in odds) at 95 %, which is as much as hand-set
 * weights deserve. One label at probability p carries p(1−p) ≤ 0.25 of information, so a
 * feature seen on n labels is pulled towards its data with weight n·p(1−p) against 1: rare
 * features (invalid numbers, closed × not found) stay near the judgement until they have tens
 * of labels, common ones are decided by a few hundred. On the eval world (scripts/eval-model.ts)
 * σ = 0.5 kept 2,000 labels from fixing judged weights that were off by 2 or more.
 */
export const DEFAULT_PRIOR_PRECISION = 1;
/**
 * The intercept's prior is tighter (σ ≈ 0.32, the base rate known to within about ×0.5–×2):
 * every label informs it, so a few hundred settle it regardless, but with a handful of labels
 * (typically someone reporting only their bounces) it is the parameter that would swing
 * furthest and move every mailing's probability at once. Five bounces on clean mailings move
 * it by about 0.45 (at the prior's clean-mailing 7 %, to ~10 %); on the eval world it costs 2,000 labels ~0.5 % of log loss.
 */
export const DEFAULT_INTERCEPT_PRECISION = 10;
/**
 * Pair terms (pairs.ts) start at 0 with σ = 0.5: a pair is added because the labels show it, and
 * it takes some hundred labels holding both features before it weighs as much as either alone.
 */
export const DEFAULT_PAIR_PRECISION = 4;
/**
 * Default precision of an account's intercept shift: σ ≈ 0.32, so a typical account's bounce
 * rate sits within about ×0.5–×2 of the global model's at 95 %. At a 3 % bounce rate it takes
 * ~10/0.03 ≈ 330 labelled mailings for an account's own data to weigh as much as this prior.
 */
export const DEFAULT_ACCOUNT_PRIOR_PRECISION = 10;

const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-9;

export interface FitOptions {
  /** stamps the version and createdAt; the only source of time, so fits are reproducible */
  now: Date | string;
  /** precision of the prior on each feature weight (default DEFAULT_PRIOR_PRECISION) */
  priorPrecision?: number;
  /** precision of the prior on the intercept (default DEFAULT_INTERCEPT_PRECISION) */
  interceptPrecision?: number;
}

function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

function positive(name: string, v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${name} must be a positive number, got ${v}`);
  return v;
}

/** Solves A x = b for symmetric positive definite A (row-major n×n) by Cholesky; A is not modified. */
export function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      if (i === j) {
        // the prior makes A positive definite; a tiny floor only guards against round-off
        l[i * n + i] = Math.sqrt(Math.max(s, 1e-12));
      } else {
        l[i * n + j] = s / l[j * n + j]!;
      }
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * y[k]!;
    y[i] = s / l[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k * n + i]! * x[k]!;
    x[i] = s / l[i * n + i]!;
  }
  return x;
}

export interface Design {
  /** parameter 0 is the intercept, parameter j ≥ 1 is names[j − 1] */
  names: string[];
  /** `off`: a fixed part of the logit the parameters add to (another model's score), 0 in a plain fit */
  rows: { idx: Int32Array; val: Float64Array; y: number; w: number; off: number }[];
}

/** The parameters (the base's features and any the examples use) and each example as a sparse row. */
export function designOf(base: ModelParams, examples: readonly Example[]): Design {
  const set = new Set(Object.keys(base.weights));
  for (const e of examples) for (const [k, v] of e.features) if (v !== 0 && Number.isFinite(v)) set.add(k);
  const names = [...set].toSorted();
  const index = new Map(names.map((n, i) => [n, i + 1]));
  const rows = examples.map((e) => {
    const idx: number[] = [];
    const val: number[] = [];
    for (const [k, v] of e.features) {
      if (v === 0 || !Number.isFinite(v)) continue;
      idx.push(index.get(k)!);
      val.push(v);
    }
    return { idx: Int32Array.from(idx), val: Float64Array.from(val), y: e.bounced ? 1 : 0, w: e.weight ?? 1, off: 0 };
  });
  return { names, rows };
}

export function linear(theta: Float64Array, row: Design['rows'][number]): number {
  let z = row.off + theta[0]!;
  for (let k = 0; k < row.idx.length; k++) z += theta[row.idx[k]!]! * row.val[k]!;
  return z;
}

function logPosterior(theta: Float64Array, d: Design, mean: Float64Array, prec: Float64Array): number {
  let s = 0;
  for (const row of d.rows) {
    const z = linear(theta, row);
    s += row.w * (row.y * z - softplus(z));
  }
  for (let j = 0; j < theta.length; j++) s -= 0.5 * prec[j]! * (theta[j]! - mean[j]!) ** 2;
  return s;
}

/** The MAP parameters [intercept, ...weights in d.names order]. */
function newton(d: Design, mean: Float64Array, prec: Float64Array): Float64Array {
  const n = mean.length;
  let theta = Float64Array.from(mean);
  let current = logPosterior(theta, d, mean, prec);
  for (let iter = 0; iter < MAX_ITERATIONS; iter++) {
    const g = new Float64Array(n);
    const h = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      g[j] = -prec[j]! * (theta[j]! - mean[j]!);
      h[j * n + j] = prec[j]!;
    }
    for (const row of d.rows) {
      const p = sigmoid(linear(theta, row));
      const r = row.w * (row.y - p);
      const w = row.w * p * (1 - p);
      g[0]! += r;
      h[0]! += w;
      for (let a = 0; a < row.idx.length; a++) {
        const ia = row.idx[a]!;
        const va = row.val[a]!;
        g[ia]! += r * va;
        h[ia]! += w * va; // column 0 of row ia, mirrored below
        for (let b = 0; b <= a; b++) {
          const ib = row.idx[b]!;
          const add = w * va * row.val[b]!;
          h[ia * n + ib]! += add;
          if (ia !== ib) h[ib * n + ia]! += add;
        }
      }
    }
    // h[ia] above accumulated the intercept cross-terms in row 0; copy them to column 0
    for (let j = 1; j < n; j++) h[j * n] = h[j]!;
    const step = solveSpd(h, g, n);
    // Newton on a concave function can still overshoot far from the optimum: halve until it climbs
    let t = 1;
    let next = theta;
    let value = current;
    for (let halvings = 0; halvings < 30; halvings++, t /= 2) {
      next = theta.map((v, j) => v + t * step[j]!);
      value = logPosterior(next, d, mean, prec);
      if (value >= current - 1e-12) break;
    }
    const moved = step.reduce((m, s) => Math.max(m, Math.abs(t * s)), 0);
    theta = next;
    current = value;
    if (moved < TOLERANCE) break;
  }
  return theta;
}

function stamp(now: Date | string): { iso: string; compact: string } {
  const iso = new Date(now).toISOString();
  return { iso, compact: iso.replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '') };
}

/**
 * A new global model from labelled examples, pulled towards `base`. Features the examples use
 * but the base does not know start from a prior mean of 0. Deterministic given its inputs.
 */
/** The prior's precision on each parameter of a design: the intercept, then each feature. */
export function precisionsOf(d: Design, opts: FitOptions): Float64Array {
  const featurePrecision = positive('priorPrecision', opts.priorPrecision ?? DEFAULT_PRIOR_PRECISION);
  const interceptPrecision = positive('interceptPrecision', opts.interceptPrecision ?? DEFAULT_INTERCEPT_PRECISION);
  return Float64Array.from([interceptPrecision, ...d.names.map((name) => (pairParts(name) ? DEFAULT_PAIR_PRECISION : featurePrecision))]);
}

/** A model's parameters in a design's order: the intercept, then each feature's weight. */
export const parametersOf = (m: ModelParams, d: Design): Float64Array => Float64Array.from([m.intercept, ...d.names.map((name) => weightOf(m, name))]);

export function fitGlobal(base: ModelParams, examples: readonly Example[], opts: FitOptions): ModelParams {
  const d = designOf(base, examples);
  const mean = parametersOf(base, d);
  const prec = precisionsOf(d, opts);
  const theta = examples.length > 0 ? newton(d, mean, prec) : mean;
  const weights: Record<string, number> = {};
  d.names.forEach((name, j) => (weights[name] = theta[j + 1]!));
  const { iso, compact } = stamp(opts.now);
  const pairs = d.names.map(pairParts).filter((p) => p !== null);
  return {
    version: `global-${compact}-n${examples.length}`,
    kind: 'global',
    intercept: theta[0]!,
    weights,
    ...(pairs.length > 0 ? { pairs } : {}),
    trainedOn: examples.length,
    createdAt: iso,
  };
}

/**
 * Default precision of an account's adjustment of each feature's weight: σ = 0.5, so an account's
 * lists may differ from everyone's in how a signal matters (a wholesaler's closed customers who
 * still live at the address and take the mail; a bought list whose "active" rows fail) by about
 * ±1 in log-odds at 95 %. A feature seen on n of the account's labels at probability p is pulled
 * towards the account's own data with weight n·p(1−p) against 4: at a 10–30 % bounce rate, some
 * twenty to forty labels with the feature; at 3 %, over a hundred.
 */
export const DEFAULT_ACCOUNT_FEATURE_PRECISION = 4;

/**
 * Precision of an account's stretch of the model's score (σ ≈ 0.14): a row's score is its
 * signals' weights added up (a closure ≈ 3.5), so the stretch moves a row with a strong signal by
 * about as much as a feature's own shift may (3.5 × 0.14 ≈ 0.5), and one with none not at all.
 * An account whose lists the model reads too surely (or too timidly) learns it from its strong
 * rows in some tens of them. On the eval worlds it took ECE after 2,000 labels from 0.045 to
 * 0.035 (four customers) and from 0.031 to 0.024 (independent).
 */
export const DEFAULT_ACCOUNT_SCALE_PRECISION = 50;

/**
 * An account's adjustment of `model`, fitted on its own labels alone with the model's score as a
 * fixed part of the logit and a zero-centred prior on every shift: with few labels it stays near
 * zero (the shared model answers), with many it learns how this account's lists differ, in the
 * base rate and in how each signal matters. It changes only this account's scores.
 */
export function fitAccountAdjustment(
  model: ModelParams,
  examples: readonly Example[],
  opts: { interceptPrecision?: number; featurePrecision?: number } = {},
): AccountAdjustment {
  const interceptPrecision = positive('interceptPrecision', opts.interceptPrecision ?? DEFAULT_ACCOUNT_PRIOR_PRECISION);
  const featurePrecision = positive('featurePrecision', opts.featurePrecision ?? DEFAULT_ACCOUNT_FEATURE_PRECISION);
  if (examples.length === 0) return { offset: 0, weights: {} };
  // each row also carries the shared model's own score (its logit less the baseline), so the
  // account may find the whole model too sure or not sure enough for its lists, as well as
  // each signal: its weight is a stretch of the model's score (MODEL_SCORE)
  const scored = examples.map((e) => ({ ...e, features: new Map([...e.features, [MODEL_SCORE, modelScoreOf(model, e.features)]]) }));
  // the design's parameters are the shifts: only features the account's labels use
  const d = designOf({ ...model, weights: {} }, scored);
  const base = parametersOf(model, d);
  d.rows.forEach((row) => (row.off = linear(base, { ...row, off: 0 })));
  const mean = new Float64Array(d.names.length + 1);
  const prec = Float64Array.from([interceptPrecision, ...d.names.map((name) => (name === MODEL_SCORE ? DEFAULT_ACCOUNT_SCALE_PRECISION : featurePrecision))]);
  const theta = newton(d, mean, prec);
  const weights: Record<string, number> = {};
  d.names.forEach((name, j) => {
    // a shift too small to change a reason's second decimal is not worth keeping
    if (Math.abs(theta[j + 1]!) >= 1e-4) weights[name] = theta[j + 1]!;
  });
  return { offset: theta[0]!, weights };
}
