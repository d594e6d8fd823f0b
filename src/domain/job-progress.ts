// How a batch job moves on as its chunks complete, for both stores.

export type JobEnd = 'done' | 'failed';

/**
 * A job after one more of its chunks completed: the first failure reason sticks, and the last
 * chunk ends the job — `failed` when any chunk was given up, else `done`. `end` is null while
 * chunks remain.
 */
export function afterChunk(job: { chunksDone: number; chunksTotal: number; failureReason: string | null }, failure: string | null): { chunksDone: number; failureReason: string | null; end: JobEnd | null } {
  const chunksDone = job.chunksDone + 1;
  const failureReason = job.failureReason ?? failure;
  const end = chunksDone >= job.chunksTotal ? (failureReason === null ? 'done' : 'failed') : null;
  return { chunksDone, failureReason, end };
}

/** The share of a job's rows processed, to four decimals; an empty job is complete. */
export function progressOf(job: { processed: number; total: number }): number {
  return job.total === 0 ? 1 : Math.round((job.processed / job.total) * 10_000) / 10_000;
}
