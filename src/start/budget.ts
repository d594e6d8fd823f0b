// The NTS calls-per-second budget the configuration asks for: shared through PostgreSQL by every
// process on it, or kept in memory by the one process of the embedded store.
import type { Config } from '../config.ts';
import { InProcessBudget, type UpstreamBudget } from '../registry/budget.ts';
import { PostgresUpstreamBudget } from '../store/upstream-budget-postgres.ts';

export function openUpstreamBudget(config: Config): UpstreamBudget | undefined {
  const perSecond = config.upstream.maxCallsPerSecond;
  // the sandbox makes no calls, and 0 means no limit
  if (perSecond <= 0 || !config.nts.serviceKey) return undefined;
  if (config.store.kind === 'postgres') return new PostgresUpstreamBudget({ url: config.store.url, schema: config.store.schema, perSecond });
  return new InProcessBudget(perSecond);
}
