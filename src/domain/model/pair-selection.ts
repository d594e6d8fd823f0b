// Which pairs of signals the labels say weigh differently together. As in an explainable boosting
// machine (InterpretML's EBM first fits main effects, then ranks candidate pairs by how much each
// would improve that fit and adds the best few), each candidate is scored on the main-effects
// fit: Rao's score statistic for adding the pair's indicator, with the main effects free to
// adjust (the efficient information), so a pair is chosen for what its two features cannot
// explain alone. The strongest few with enough labels and a clear statistic are kept.
import { designOf, type Example, linear, parametersOf, precisionsOf, solveSpd } from './fit.ts';
import { sigmoid } from './logistic.ts';
import { pairName } from './pairs.ts';
import type { ModelParams } from './types.ts';

export interface PairOptions {
  /** pairs kept at most (default 12) */
  max?: number;
  /** labels that must hold both features (default 30) */
  minCount?: number;
  /** the score statistic a pair must reach (χ² with 1 degree of freedom; default 10.8, p < 0.001) */
  minScore?: number;
}

/**
 * The pairs worth adding to `model` (fitted on these labels without pairs), strongest first.
 * Only indicator features (value 1) pair. A pair that always comes with one of its features
 * (closed_recent with status_closed) says nothing that feature does not, and is skipped.
 */
export function selectPairs(model: ModelParams, examples: readonly Example[], opts: PairOptions = {}): [string, string][] {
  const max = opts.max ?? 12;
  const minCount = opts.minCount ?? 30;
  const minScore = opts.minScore ?? 10.8;
  const d = designOf(model, examples);
  const n = d.names.length + 1;
  const theta = parametersOf(model, d);
  // the main-effects fit's information: the labels' curvature and the prior's
  const info = new Float64Array(n * n);
  precisionsOf(d, { now: model.createdAt }).forEach((p, j) => (info[j * n + j] = p));
  const single = new Int32Array(n);
  const stats = new Map<string, { a: number; b: number; n: number; g: number; h: number; cross: Float64Array }>();
  for (const row of d.rows) {
    if (!(row.w > 0)) continue;
    const p = sigmoid(linear(theta, row));
    const c = row.w * p * (1 - p);
    const r = row.w * (row.y - p);
    const params = [0, ...row.idx];
    const values = [1, ...row.val];
    for (let x = 0; x < params.length; x++) for (let y = 0; y < params.length; y++) info[params[x]! * n + params[y]!]! += c * values[x]! * values[y]!;
    const ones: number[] = [];
    row.idx.forEach((j, k) => {
      if (row.val[k] === 1) ones.push(j);
    });
    for (const j of ones) single[j]!++;
    for (let x = 0; x < ones.length; x++) {
      for (let y = x + 1; y < ones.length; y++) {
        const [a, b] = ones[x]! < ones[y]! ? [ones[x]!, ones[y]!] : [ones[y]!, ones[x]!];
        const key = `${a},${b}`;
        let s = stats.get(key);
        if (!s) stats.set(key, (s = { a, b, n: 0, g: 0, h: 0, cross: new Float64Array(n) }));
        s.n++;
        s.g += r;
        s.h += c;
        for (let k = 0; k < params.length; k++) s.cross[params[k]!]! += c * values[k]!;
      }
    }
  }
  const scored: { pair: [string, string]; score: number }[] = [];
  for (const s of stats.values()) {
    if (s.n < minCount || s.n >= single[s.a]! || s.n >= single[s.b]!) continue;
    // the information left for the pair once the main effects have taken what they can explain
    const solved = solveSpd(Float64Array.from(info), Float64Array.from(s.cross), n);
    const efficient = s.h - s.cross.reduce((t, v, j) => t + v * solved[j]!, 0);
    if (!(efficient > 1e-9)) continue;
    const score = (s.g * s.g) / efficient;
    if (score >= minScore) scored.push({ pair: [d.names[s.a - 1]!, d.names[s.b - 1]!], score });
  }
  return scored
    .toSorted((x, y) => y.score - x.score || (pairName(...x.pair) < pairName(...y.pair) ? -1 : 1))
    .slice(0, max)
    .map((s) => s.pair);
}
