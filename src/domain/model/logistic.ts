// The logistic link, on its own so that every model module can use it without importing score.ts.

export function sigmoid(z: number): number {
  // two branches keep exp() from overflowing for large |z|
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

export function logit(p: number): number {
  return Math.log(p / (1 - p));
}
