// What a lookup costs an account: the rules of charging, overage and refunds, written once for
// both stores. The stores only lock, read and add; these functions decide.

/** How many of `n` lookups fit under `limit` when `used` are spent already (possibly none). */
export function grantUpTo(used: number, n: number, limit: number): number {
  return Math.max(0, Math.min(n, limit - used));
}

export type JobCharge = { ok: true; charged: number; overage: number } | { ok: false; needed: number; remaining: number };

/**
 * A batch job is charged its distinct numbers at once: all within the month's limit, or — when
 * the account pays for overage — what fits within it and the rest as overage; otherwise nothing.
 */
export function chargeJob(o: { used: number; limit: number; distinct: number; paid: boolean }): JobCharge {
  const remaining = Math.max(0, o.limit - o.used);
  if (o.distinct > remaining && !o.paid) return { ok: false, needed: o.distinct, remaining };
  const charged = Math.min(o.distinct, remaining);
  return { ok: true, charged, overage: o.distinct - charged };
}

/**
 * A refund takes back what was billed beyond the plan before the plan's own lookups: of
 * `refunds` lookups given back to a job that still carries `overage`, this many of each.
 */
export function splitRefund(refunds: number, overage: number): { overage: number; used: number } {
  const fromOverage = Math.max(0, Math.min(refunds, overage));
  return { overage: fromOverage, used: refunds - fromOverage };
}
