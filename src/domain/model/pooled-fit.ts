// The shared model, learned from every account's labels without letting any one account steer
// what the others are told: no account may move another account's bounce probability by more
// than `maxCrossEffect` (0.02), however many labels it posts. The bound holds by construction,
// for every row, not by an estimate checked afterwards:
//  - each account's labels are fitted alone, centred on the base like any fit; its shift Δ_a from
//    the base is measured in a norm that bounds what it does to any row's logit, ‖Δ‖ = |Δ₀| +
//    Σ_j X_j |Δ_j| (X_j the largest value feature j takes: 1 for an indicator, 3 for
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

/** The largest value a signal takes (featurize): address_changes counts up to 3, the rest are indicators. */
const LARGEST: Readonly<Record<string, number>> = { address_changes: 3 };
const largest = (name: string): number => {
  const parts = pairParts(name);
  return parts ? largest(parts[0]) * largest(parts[1]) : (LARGEST[name] ?? 1);
};

/** A shift from the base: the intercept's and each shared term's. */
interface Shift {
  intercept: number;
  weights: Map<string, number>;
}

/** ‖Δ‖: the most Δ can add to or take from any row's logit. */
function size(d: Shift): number {
  let s = Math.abs(d.intercept);
  for (const [name, v] of d.weights) s += largest(name) * Math.abs(v);
  return s;
}

/** The probability a change of `logit` in log-odds can make at most (σ′ ≤ 1/4). */
const inProbability = (logit: number): number => logit / 4;

/** The shared shift of some accounts' shifts, each part capped at c0: Σ Δ_a · min(1/K, c0/‖Δ_a‖). */
function meanCapped(shifts: readonly Shift[], c0: number): { shift: Shift; shares: number[] } {
  const k = shifts.length;
  const out: Shift = { intercept: 0, weights: new Map() };
  const shares = shifts.map((d) => {
    const n = size(d);
    const part = n === 0 ? 1 / k : Math.min(1 / k, c0 / n);
    out.intercept += part * d.intercept;
    for (const [name, v] of d.weights) out.weights.set(name, (out.weights.get(name) ?? 0) + part * v);
    return part * k;
  });
  return { shift: out, shares };
}

const minus = (a: Shift, b: Shift): Shift => {
  const weights = new Map(a.weights);
  for (const [name, v] of b.weights) weights.set(name, (weights.get(name) ?? 0) - v);
  return { intercept: a.intercept - b.intercept, weights };
};

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
  const own = new Set(Object.keys(base.weights).filter((name) => !ACCOUNT_OWN_SIGNALS.has(name)));
  const terms = new Set(Object.keys(base.weights));
  const shifts = accounts.map(([, ex]): Shift => {
    // the account's labels alone, on the base's terms (history included: it is the account's own
    // and explains some of its outcomes; pairs chosen from everyone's labels left out)
    const fitted = fitGlobal(base, ex.map((e) => ({ ...e, features: new Map([...e.features].filter(([name]) => terms.has(name))) })), opts);
    const weights = new Map<string, number>();
    for (const name of own) {
      const d = (fitted.weights[name] ?? 0) - (base.weights[name] ?? 0);
      if (d !== 0) weights.set(name, d);
    }
    return { intercept: fitted.intercept - base.intercept, weights };
  });
  const { shift, shares } = meanCapped(shifts, c0);

  // what leaving each account out would change, by the same rule (an upper bound over every row)
  let maxEffect = 0;
  shifts.forEach((_, i) => {
    const rest = shifts.filter((__, j) => j !== i);
    const without = rest.length < minAccounts ? { intercept: 0, weights: new Map<string, number>() } : meanCapped(rest, c0).shift;
    maxEffect = Math.max(maxEffect, inProbability(size(minus(shift, without))));
  });

  const weights: Record<string, number> = { ...base.weights };
  for (const [name, d] of shift.weights) weights[name] = (base.weights[name] ?? 0) + d;
  return {
    model: { ...unmoved, intercept: base.intercept + shift.intercept, weights },
    weights: new Map(accounts.map(([a], i) => [a, shares[i]!])),
    maxEffect,
  };
}
