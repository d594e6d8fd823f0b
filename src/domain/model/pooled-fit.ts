// The shared model, learned from every account's labels without letting any one account steer
// what the others are told: no account may move another account's bounce probability by more
// than `maxCrossEffect` (0.02), however many labels it posts. The bound holds by construction,
// for every row, not by an estimate checked afterwards:
//  - each account's labels are fitted alone, centred on the base like any fit; its shift Δ_a from
//    the base is measured in a norm that bounds what it does to any row's logit, ‖Δ‖ = |Δ₀| +
//    Σ over groups of terms a row carries at most one of (one status, one trade, …) of the
//    largest X_j |Δ_j| (X_j the largest value term j takes: 1 for an indicator, 3 for
//    address_changes);
//  - the shared model is the base plus the accounts' mean shift, each account's part capped:
//    D = Σ_a Δ_a · min(1/K, c₀/‖Δ_a‖) over the K accounts with labels. So K accounts that agree
//    teach the shared model what they show, in full once K·c₀ exceeds their shifts' size, and
//    no account ever adds more than c₀ to any row's logit;
//  - leaving an account out changes its own part (≤ c₀) and everyone else's 1/K (together < c₀,
//    bench/RESULTS.md, session 24): under 2·c₀ in logit, at most a quarter of that in probability;
//    and the shared model stays at its base until `minAccounts` accounts have labels, where
//    leaving one out returns it to the base (a change of at most minAccounts·c₀). c₀ is set so
//    the larger of the two is the bound.
// Each account's part depends on its own labels alone (and K), so one account's labels cannot
// change how much another's count. The price: with few accounts the shared model moves little
// (three accounts: at most ~0.08 in log-odds on any row) and what labels teach is learned in each
// account's own adjustment (fit.ts), which is not bounded; as accounts join, the shared model
// learns what they agree on. Measured on the eval worlds (3–4 accounts each), a shared model that
// learned nothing at all scored the same as the estimate-based rule this replaces, which broke
// the bound in three of six seeded runs of an attacker among honest accounts (0.020–0.022).
//
// What is shared: the base's terms but the account-history signals (biz_history…), whose values
// are each account's own outcomes, unbounded, and learned per account. Pairs the labels call for
// (pair-selection.ts) are chosen from all labels, so they are left out of the accounts' own fits
// here (which pairs exist would otherwise let one account change how another's labels read) and
// carried at weight 0 for each account's adjustment to learn.
import { FEATURE_NAMES } from './feature-text.ts';
import { ADDRESS_CHANGES_CAP, ADDRESS_FEATURE, STATUS_FEATURE } from './features.ts';
import { type Example, fitGlobal, type FitOptions } from './fit.ts';
import { pairParts } from './pairs.ts';
import type { ModelParams } from './types.ts';

export interface PooledOptions extends FitOptions {
  /** accounts with labels needed before the shared model leaves its base (default 3) */
  minAccounts?: number;
  /** the most one account's labels may move another account's probability (default 0.02) */
  maxCrossEffect?: number;
}

export interface PooledFit {
  model: ModelParams;
  /** the share of its own shift each account's labels were given in the shared model (1 = in full, its mean share) */
  weights: Map<string, number>;
  /** the largest change leaving any one account out makes to any row's probability (an upper bound, exact in the norm) */
  maxEffect: number;
}

/** Signals whose values are an account's own recorded outcomes: learned per account, never shared. */
export const ACCOUNT_OWN_SIGNALS: ReadonlySet<string> = new Set(['biz_history', 'biz_history_gone', 'biz_history_absent', 'address_history']);

/** The largest value a shared signal takes (featurize): address_changes counts up to its cap, the rest are indicators. */
const LARGEST: Readonly<Record<string, number>> = { address_changes: ADDRESS_CHANGES_CAP };
export const largestValueOf = (name: string): number => {
  const parts = pairParts(name);
  return parts ? largestValueOf(parts[0]) * largestValueOf(parts[1]) : (LARGEST[name] ?? 1);
};

/** Signals of which a mailing carries at most one (featurize): one status, one address quality, … */
const EXCLUSIVE: readonly (readonly string[])[] = [
  Object.values(STATUS_FEATURE).filter((f) => f !== null),
  ['closed_recent', 'closed_old'],
  ['closed_fresh', 'closed_long_ago'],
  // the first only with a closure, the second only with an unregistered number
  ['closed_individual', 'unregistered_near_live'],
  ['tax_simplified', 'tax_exempt', 'tax_nonprofit'],
  Object.values(ADDRESS_FEATURE).filter((f) => f !== null),
  FEATURE_NAMES.filter((f) => f.startsWith('trade_')),
];
const GROUP = new Map(EXCLUSIVE.flatMap((names, i) => names.map((n) => [n, `#${i}`] as const)));

/**
 * The group of a shared term, of which a mailing carries at most one: a signal's exclusive group
 * (or itself); a pair's, the pair of its parts' groups (one of each part's group at most).
 */
export const exclusiveGroupOf = (name: string): string => {
  const parts = pairParts(name);
  if (!parts) return GROUP.get(name) ?? name;
  return parts.map(exclusiveGroupOf).toSorted().join('×');
};

/**
 * ‖Δ‖: the most a shift from the base can add to or take from any row's logit: |Δ₀| and, per group
 * of terms a row carries at most one of, the largest X_j |Δ_j|. Shifts are vectors over [the
 * intercept, ...the shared terms]; `xs` holds each coordinate's X (1 for the intercept), `groups`
 * each one's group index (−1 for the intercept).
 */
function size(d: Float64Array, xs: Float64Array, groups: Int32Array, groupCount: number): number {
  const most = new Float64Array(groupCount);
  let s = Math.abs(d[0]!);
  for (let j = 1; j < d.length; j++) {
    const g = groups[j]!;
    const v = xs[j]! * Math.abs(d[j]!);
    if (v > most[g]!) most[g] = v;
  }
  for (const v of most) s += v;
  return s;
}

/** The probability a change of `logit` in log-odds can make at most (σ′ ≤ 1/4). */
const inProbability = (logit: number): number => logit / 4;

/** An account's part of the mean of k shifts: 1/k, capped so that it adds at most c0 to any row. */
const partOf = (n: number, k: number, c0: number): number => (n === 0 ? 1 / k : Math.min(1 / k, c0 / n));

/** Σ coef_i · shift_i */
function combine(shifts: readonly Float64Array[], coef: readonly number[], dim: number): Float64Array {
  const out = new Float64Array(dim);
  shifts.forEach((d, i) => {
    const c = coef[i]!;
    if (c !== 0) for (let j = 0; j < dim; j++) out[j]! += c * d[j]!;
  });
  return out;
}

export function fitPooled(base: ModelParams, byAccount: ReadonlyMap<string, readonly Example[]>, opts: PooledOptions): PooledFit {
  const minAccounts = Math.max(1, opts.minAccounts ?? 3);
  const bound = opts.maxCrossEffect ?? 0.02;
  const accounts = [...byAccount].filter(([, ex]) => ex.length > 0);
  const all = accounts.flatMap(([, ex]) => ex);
  // the base as it stands, stamped as a fit of these labels (its version names their number)
  const stamped = fitGlobal(base, [], opts);
  const unmoved = { ...stamped, version: stamped.version.replace(/-n0$/, `-n${all.length}`), trainedOn: all.length };
  if (accounts.length < minAccounts) return { model: unmoved, weights: new Map(accounts.map(([a]) => [a, 0])), maxEffect: 0 };

  // the part of one account, in logit: leaving it out moves any row by under 2·c0, and at the
  // threshold (returning to the base) by at most minAccounts·c0
  const logitBound = 4 * bound;
  const c0 = logitBound / Math.max(2, minAccounts);
  const shared = Object.keys(base.weights).filter((name) => !ACCOUNT_OWN_SIGNALS.has(name));
  const xs = Float64Array.from([1, ...shared.map(largestValueOf)]);
  const groupIndex = new Map<string, number>();
  const groups = Int32Array.from([-1, ...shared.map((name) => {
    const g = exclusiveGroupOf(name);
    if (!groupIndex.has(g)) groupIndex.set(g, groupIndex.size);
    return groupIndex.get(g)!;
  })]);
  const sizeOf = (d: Float64Array): number => size(d, xs, groups, groupIndex.size);
  const dim = shared.length + 1;
  const terms = new Set(Object.keys(base.weights));
  const shifts = accounts.map(([, ex]): Float64Array => {
    // the account's labels alone, on the base's terms (history included: it is the account's own
    // and explains some of its outcomes; pairs chosen from everyone's labels left out)
    const fitted = fitGlobal(base, ex.map((e) => ({ ...e, features: new Map([...e.features].filter(([name]) => terms.has(name))) })), opts);
    return Float64Array.from([fitted.intercept - base.intercept, ...shared.map((name) => (fitted.weights[name] ?? 0) - (base.weights[name] ?? 0))]);
  });
  const k = shifts.length;
  const sizes = shifts.map(sizeOf);
  const parts = sizes.map((n) => partOf(n, k, c0));
  const shift = combine(shifts, parts, dim);

  // what leaving each account out would change, by the same rule (an upper bound over every row):
  // D − D₋ₐ = Σ_b (part_b(K) − part_b(K−1)) Δ_b + part_a(K−1) Δ_a, the sum worked out once
  let maxEffect = 0;
  if (k - 1 < minAccounts) {
    maxEffect = inProbability(sizeOf(shift));
  } else {
    const fewer = sizes.map((n) => partOf(n, k - 1, c0));
    const others = combine(shifts, parts.map((p, i) => p - fewer[i]!), dim);
    shifts.forEach((d, i) => {
      const diff = others.map((v, j) => v + fewer[i]! * d[j]!);
      maxEffect = Math.max(maxEffect, inProbability(sizeOf(diff)));
    });
  }

  const weights: Record<string, number> = { ...base.weights };
  shared.forEach((name, j) => (weights[name] = (base.weights[name] ?? 0) + shift[j + 1]!));
  return {
    model: { ...unmoved, intercept: base.intercept + shift[0]!, weights },
    weights: new Map(accounts.map(([a], i) => [a, parts[i]! * k])),
    maxEffect,
  };
}
