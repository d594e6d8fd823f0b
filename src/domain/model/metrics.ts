// How well predicted bounce probabilities match outcomes: ranking (AUC), sharpness and
// calibration together (log loss), and calibration alone (ECE). Pure; used by the eval and tests.

function checkLengths(probs: readonly number[], bounced: readonly boolean[]): void {
  if (probs.length !== bounced.length) throw new RangeError(`${probs.length} probabilities but ${bounced.length} outcomes`);
}

/**
 * Area under the ROC curve as the Mann–Whitney statistic: the chance that a random bounce is
 * ranked above a random delivery, ties counting one half (average ranks). NaN when either
 * class is absent, because then there is nothing to rank.
 */
export function auc(probs: readonly number[], bounced: readonly boolean[]): number {
  checkLengths(probs, bounced);
  const order = probs.map((_, i) => i).toSorted((a, b) => probs[a]! - probs[b]!);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && probs[order[j + 1]!] === probs[order[i]!]) j++;
    const avgRank = (i + j + 2) / 2; // ranks are 1-based
    for (let k = i; k <= j; k++) {
      if (bounced[order[k]!]) {
        positives++;
        rankSum += avgRank;
      }
    }
    i = j + 1;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Probabilities are clipped so one confident mistake costs a lot but not infinity. */
export const LOG_LOSS_EPS = 1e-15;

/** Mean negative log-likelihood (natural log). */
export function logLoss(probs: readonly number[], bounced: readonly boolean[]): number {
  checkLengths(probs, bounced);
  if (probs.length === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = Math.min(1 - LOG_LOSS_EPS, Math.max(LOG_LOSS_EPS, probs[i]!));
    sum -= bounced[i] ? Math.log(p) : Math.log(1 - p);
  }
  return sum / probs.length;
}

/**
 * Expected calibration error over equal-width bins: Σ (n_b / N) · |mean predicted − observed
 * rate| per bin. Bin b holds [b/B, (b+1)/B); a probability of exactly 1 goes in the last bin.
 */
export function expectedCalibrationError(probs: readonly number[], bounced: readonly boolean[], bins = 10): number {
  checkLengths(probs, bounced);
  if (probs.length === 0) return NaN;
  const n = new Float64Array(bins);
  const sumP = new Float64Array(bins);
  const sumY = new Float64Array(bins);
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i]!;
    const b = Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
    n[b]!++;
    sumP[b]! += p;
    if (bounced[i]) sumY[b]!++;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (n[b]! > 0) ece += Math.abs(sumP[b]! - sumY[b]!) / probs.length;
  return ece;
}
