// A job's chunks as batch/ works with them: rows and outputs decoded, completions encoded, on
// top of the store, which keeps only their text (see chunk-codec.ts).
import type { BatchRowInput, ChosenHeaders, ChunkCompletion, ChunkLease, StoredChunk } from '../domain/batch.ts';
import type { CompleteOutcome, DeletedJob } from '../store/batch-store.ts';
import { lookupNumber } from './job-rows.ts';
import type { BatchStore } from '../store/batches.ts';
import { batchDoneEvent } from './batch-events.ts';
import type { CachedGroup } from './cached-chunk.ts';
import { chunkText, decodeChunk, decodeRows, encodeFacts, encodeOutput, toCachedGroup } from './chunk-codec.ts';
import { json } from '../store/rows.ts';

/**
 * Stores rows (in order, none missing) as chunk `chunkNo`; `columns`: the headers read so far,
 * in file order; `chosen`: the columns read as what (whether rows ask 진위확인).
 */
export async function appendChunk(store: BatchStore, jobId: string, chunkNo: number, rows: readonly BatchRowInput[], columns: readonly string[], chosen: ChosenHeaders): Promise<void> {
  if (rows.length > 0) await store.appendChunk(jobId, chunkNo, chunkText(rows, columns, chosen));
}

export async function chunkRows(store: BatchStore, jobId: string, chunkNo: number): Promise<BatchRowInput[]> {
  const c = await store.chunkRows(jobId, chunkNo);
  return c ? decodeRows(c.rows, json<string[]>(c.columns)) : [];
}

export async function cachedGroups(store: BatchStore, jobId: string, chunkNo: number): Promise<CachedGroup[] | null> {
  return (await store.cachedGroups(jobId, chunkNo))?.map(toCachedGroup) ?? null;
}

/** Chunks in file order whose rows come after `afterRowId`, at most `limit` chunks. */
export async function chunksAfter(store: BatchStore, jobId: string, afterRowId: number, limit: number): Promise<StoredChunk[]> {
  return (await store.chunksAfter(jobId, afterRowId, limit)).map(decodeChunk);
}

/**
 * Deletes the account's job (see BatchStore.deleteJob): the numbers of its unfinished chunks that
 * no other chunk shares were charged and will now never be answered, so they are given back.
 */
export function deleteJob(store: BatchStore, accountId: string, jobId: string, day?: string): Promise<DeletedJob> {
  return store.deleteJob(accountId, jobId, (pending, shared) => {
    const unanswered = new Set<string>();
    for (const c of pending) {
      for (const row of decodeRows(c.rows, json<string[]>(c.columns))) {
        const bno = lookupNumber(row);
        if (bno !== null && !shared.has(bno)) unanswered.add(bno);
      }
    }
    return unanswered.size;
  }, day);
}

/** Commits a processed chunk (see BatchStore.completeChunk); the job's last chunk sends batch.done. */
export function completeChunk(store: BatchStore, lease: ChunkLease, holder: string, done: ChunkCompletion, now: Date): Promise<CompleteOutcome> {
  return store.completeChunk(lease, holder, { ...done, output: encodeOutput(done.output), facts: encodeFacts(done.output), doneEvent: batchDoneEvent }, now);
}
