// The plans, as data. Everything that depends on a plan reads it from here.

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

export interface Plan {
  name: PlanName;
  /** lookups per calendar month (Asia/Seoul) */
  monthlyLookups: number;
  /** may call the HTTP API (X-API-Key) at all */
  api: boolean;
  /** GET /watch/{watch_id}/history */
  history: boolean;
  /** how often watched businesses are re-checked; null where the plan has no API watch list */
  watchIntervalHours: number | null;
  /** most businesses one account may watch at once (0: no watch list) */
  watchLimit: number;
}

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: { name: 'free', monthlyLookups: 100, api: false, history: false, watchIntervalHours: null, watchLimit: 0 },
  pro: { name: 'pro', monthlyLookups: 2_000, api: false, history: false, watchIntervalHours: null, watchLimit: 0 },
  business: { name: 'business', monthlyLookups: 50_000, api: true, history: true, watchIntervalHours: 24, watchLimit: 10_000 },
  enterprise: { name: 'enterprise', monthlyLookups: 1_000_000, api: true, history: true, watchIntervalHours: 1, watchLimit: 200_000 },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}

/** A contract may set its own monthly limit; otherwise the plan's applies. */
export function monthlyLimit(plan: PlanName, customLimit: number | null): number {
  return customLimit ?? PLANS[plan].monthlyLookups;
}
