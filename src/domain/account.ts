// An account, its API keys and its monthly usage, as the service and the store share them.
import type { PlanName } from './plans.ts';

export interface Account {
  id: string;
  email: string;
  plan: PlanName;
  /** custom monthly limit (enterprise contracts); null = the plan's */
  quotaLimit: number | null;
  /** days its batch jobs' rows and results are kept (the operator's override); null = BATCH_RETENTION_DAYS */
  batchRetentionDays: number | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** the visible part, e.g. bzk_Ab3dE9xQ: enough to recognise a key, useless to use it */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Usage {
  used: number;
  overage: number;
}

export type Reservation = { granted: true; used: number } | { granted: false; used: number };
