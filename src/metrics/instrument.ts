// Counting around the parts that do the work, so they need not know about metrics: status
// lookups by where the answer came from, batch chunks and rows as a worker commits them.
import type { StatusService } from '../domain/status.ts';
import type { CompleteOutcome } from '../store/batch-store.ts';
import type { ChunkCompletion } from '../domain/batch.ts';
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

/** What the batch worker reports of each chunk it commits: every committed chunk counts its rows. */
export function chunkCommits(metrics: Metrics): (outcome: CompleteOutcome, done: ChunkCompletion) => void {
  return (outcome, done) => {
    // a conflict is redone by the worker with the answers another chunk recorded first
    metrics.batchChunks.inc({ outcome: outcome.status === 'done' ? 'committed' : outcome.status === 'lost' ? 'lease_lost' : 'conflict' });
    if (outcome.status !== 'done') return;
    metrics.batchRows.inc(done.rows);
    // a chunk answered from the cache in SQL made no status lookup that observedStatus saw
    if ('encoded' in done.output && done.output.cacheHits > 0) metrics.statusLookups.inc({ source: 'cache' }, done.output.cacheHits);
  };
}
