// Counting around the parts that do the work, so they need not know about metrics: status
// lookups by where the answer came from, batch chunks and rows as a worker commits them.
import type { StatusService } from '../registry/types.ts';
import type { BatchStore } from '../store/batch-store.ts';
import type { Store } from '../store/store.ts';
import type { Metrics } from './metrics.ts';

export function observedStatus(status: StatusService, metrics: Metrics): StatusService {
  return {
    ...status,
    lookup: async (bnos, opts) => {
      const result = await status.lookup(bnos, opts);
      let cache = 0;
      let stale = 0;
      let upstream = 0;
      for (const a of result.answers.values()) {
        if (a.stale) stale++;
        else if (a.fromCache) cache++;
        else upstream++;
      }
      if (cache) metrics.statusLookups.inc({ source: 'cache' }, cache);
      if (stale) metrics.statusLookups.inc({ source: 'stale_cache' }, stale);
      if (upstream) metrics.statusLookups.inc({ source: 'upstream' }, upstream);
      if (result.unanswered.size) metrics.statusLookups.inc({ source: 'unanswered' }, result.unanswered.size);
      return result;
    },
  };
}

/** The store as the batch worker sees it: every committed chunk counts its rows. */
export function observedWorkerStore(store: Store, metrics: Metrics): Store {
  const batches = bindAll(store.batches, {
    completeChunk: async (...args: Parameters<BatchStore['completeChunk']>) => {
      const outcome = await store.batches.completeChunk(...args);
      // a conflict is redone by the worker with the answers another chunk recorded first
      metrics.batchChunks.inc({ outcome: outcome.status === 'done' ? 'committed' : outcome.status === 'lost' ? 'lease_lost' : 'conflict' });
      if (outcome.status === 'done') {
        const { rows, output } = args[2];
        metrics.batchRows.inc(rows);
        // a chunk answered from the cache in SQL made no status lookup that observedStatus saw
        if ('encoded' in output && output.cacheHits > 0) metrics.statusLookups.inc({ source: 'cache' }, output.cacheHits);
      }
      return outcome;
    },
  });
  return bindAll(store, { batches });
}

/** A view of `target` with some members replaced; its own methods still run on `target` (private fields). */
function bindAll<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof T];
      const value: unknown = Reflect.get(t, prop);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}
