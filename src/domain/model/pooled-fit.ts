// The shared model, learned from every account's labels without letting any one account steer
// what the others are told. Two rules:
//  - it leaves its base (the prior) only once labels come from at least `minAccounts` accounts;
//  - no account may move another's bounce probability by more than `maxCrossEffect`. After each
//    fit, the effect of each account's labels is estimated by one Newton step of the fit without
//    them (an influence function: exact for a quadratic, close for a small share), on every
//    feature combination the labels hold plus each feature alone; an account over the bound has
//    its labels' weight scaled down and the fit runs again. A fit that cannot be brought within
//    the bound keeps the base. An account's own labels still shape its own offset fully.
import { DEFAULT_INTERCEPT_PRECISION, DEFAULT_PRIOR_PRECISION, type Example, fitGlobal, type FitOptions, solveSpd } from './fit.ts';
import { sigmoid, weightOf } from './score.ts';
import type { ModelParams } from './types.ts';

export interface PooledOptions extends FitOptions {
  /** accounts with labels needed before the shared model leaves its base (default 3) */
  minAccounts?: number;
  /** the most one account's labels may move another account's probability (default 0.02) */
  maxCrossEffect?: number;
}

export interface PooledFit {
  model: ModelParams;
  /** the weight each account's labels were given in the shared fit (1 = in full) */
  weights: Map<string, number>;
  /** the largest estimated effect of one account on another's probability, after weighing */
  maxEffect: number;
}

const ROUNDS = 24;
// aim below the bound: the one-step estimate is close, not exact
const AIM = 0.5;

interface Sparse {
  idx: number[];
  val: number[];
}

export function fitPooled(base: ModelParams, byAccount: ReadonlyMap<string, readonly Example[]>, opts: PooledOptions): PooledFit {
  const minAccounts = opts.minAccounts ?? 3;
  const bound = opts.maxCrossEffect ?? 0.02;
  const accounts = [...byAccount].filter(([, ex]) => ex.length > 0);
  const weights = new Map(accounts.map(([a]) => [a, 1]));
  if (accounts.length < minAccounts) return { model: fitGlobal(base, [], opts), weights: new Map(accounts.map(([a]) => [a, 0])), maxEffect: 0 };

  for (let round = 0; round < ROUNDS; round++) {
    const examples = accounts.flatMap(([a, ex]) => ex.map((e) => ({ ...e, weight: weights.get(a)! })));
    const model = fitGlobal(base, examples, opts);
    const effects = crossEffects(model, accounts, weights, opts);
    const maxEffect = Math.max(0, ...effects.values());
    if (maxEffect <= bound * AIM) return { model, weights, maxEffect };
    // only the accounts near the largest effect: one account far over the bound distorts the fit
    // so much that the others' effects, measured there, mean little until it is weighed down
    for (const [a, e] of effects) if (e > bound * AIM && e >= maxEffect / 2) weights.set(a, (weights.get(a)! * bound * AIM * AIM) / e);
  }
  return { model: fitGlobal(base, [], opts), weights: new Map(accounts.map(([a]) => [a, 0])), maxEffect: 0 };
}

/** Per account: the largest change its labels make to the probability of any reference row. */
function crossEffects(model: ModelParams, accounts: readonly (readonly [string, readonly Example[]])[], weights: ReadonlyMap<string, number>, opts: FitOptions): Map<string, number> {
  const names = [...new Set([...Object.keys(model.weights), ...accounts.flatMap(([, ex]) => ex.flatMap((e) => [...e.features.keys()]))])].toSorted();
  const index = new Map(names.map((n, i) => [n, i + 1]));
  const n = names.length + 1;
  const theta = Float64Array.from([model.intercept, ...names.map((name) => weightOf(model, name))]);
  const sparse = (f: ReadonlyMap<string, number>): Sparse => {
    const s: Sparse = { idx: [0], val: [1] };
    for (const [k, v] of f) {
      if (v === 0 || !Number.isFinite(v)) continue;
      s.idx.push(index.get(k)!);
      s.val.push(v);
    }
    return s;
  };
  const dot = (w: Float64Array, x: Sparse) => x.idx.reduce((z, j, k) => z + w[j]! * x.val[k]!, 0);

  // the rows an effect is measured on: every distinct feature combination labelled, each feature alone, and none
  const reference = new Map<string, Sparse>([['', { idx: [0], val: [1] }]]);
  for (let j = 1; j < n; j++) reference.set(`#${j}`, { idx: [0, j], val: [1, 1] });
  for (const [, ex] of accounts) {
    for (const e of ex) {
      const x = sparse(e.features);
      reference.set(x.idx.map((j, k) => `${j}:${x.val[k]}`).join(','), x);
    }
  }

  // the fit's curvature, in total and per account
  const prec = [opts.interceptPrecision ?? DEFAULT_INTERCEPT_PRECISION, ...names.map(() => opts.priorPrecision ?? DEFAULT_PRIOR_PRECISION)];
  const total = new Float64Array(n * n);
  prec.forEach((p, j) => (total[j * n + j] = p));
  const parts = accounts.map(([a, ex]) => {
    const w = weights.get(a)!;
    const h = new Float64Array(n * n);
    const g = new Float64Array(n);
    for (const e of ex) {
      const x = sparse(e.features);
      const p = sigmoid(dot(theta, x));
      const r = w * ((e.bounced ? 1 : 0) - p);
      const c = w * p * (1 - p);
      x.idx.forEach((i, k) => {
        g[i]! += r * x.val[k]!;
        x.idx.forEach((j, l) => (h[i * n + j]! += c * x.val[k]! * x.val[l]!));
      });
    }
    h.forEach((v, i) => (total[i]! += v));
    return { a, h, g };
  });

  const out = new Map<string, number>();
  for (const { a, h, g } of parts) {
    // what the fit would move by without this account: one Newton step of the others' objective
    const delta = solveSpd(total.map((v, i) => v - h[i]!), g, n);
    let worst = 0;
    for (const x of reference.values()) {
      const z = dot(theta, x);
      worst = Math.max(worst, Math.abs(sigmoid(z) - sigmoid(z - dot(delta, x))));
    }
    out.set(a, worst);
  }
  return out;
}
