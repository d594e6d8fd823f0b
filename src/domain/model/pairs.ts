// Pairwise terms: the model stays additive (every term is one contribution, so reasons still add
// up to the logit), but a pair of signals can weigh more or less together than their two weights
// say — a closure at an address the directory cannot find, a food business in an apartment block.
// Which pairs a model has is learned from labels (pair-selection.ts); here, their names and values.

const SEPARATOR = '__and__';

/** The term's name for a pair of features (in name order, so each pair has one name). */
export function pairName(a: string, b: string): string {
  return a < b ? `${a}${SEPARATOR}${b}` : `${b}${SEPARATOR}${a}`;
}

/** The two features of a pair term's name, or null when the name is not a pair's. */
export function pairParts(name: string): [string, string] | null {
  const i = name.indexOf(SEPARATOR);
  return i > 0 ? [name.slice(0, i), name.slice(i + SEPARATOR.length)] : null;
}

/** `features` with each of the model's pairs both of whose features are present (their product). */
export function withPairs(pairs: readonly (readonly [string, string])[] | undefined, features: ReadonlyMap<string, number>): ReadonlyMap<string, number> {
  if (!pairs || pairs.length === 0) return features;
  let out: Map<string, number> | null = null;
  for (const [a, b] of pairs) {
    const va = features.get(a);
    const vb = features.get(b);
    const name = pairName(a, b);
    // already expanded (assess expands once and scores with the result): nothing to copy
    if (va === undefined || vb === undefined || features.has(name)) continue;
    out ??= new Map(features);
    out.set(name, va * vb);
  }
  return out ?? features;
}
