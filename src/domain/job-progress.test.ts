import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterChunk, progressOf } from './job-progress.ts';

test('the last chunk ends the job; any failure makes it failed, the first reason sticks', () => {
  assert.deepEqual(afterChunk({ chunksDone: 0, chunksTotal: 2, failureReason: null }, null), { chunksDone: 1, failureReason: null, end: null });
  assert.deepEqual(afterChunk({ chunksDone: 1, chunksTotal: 2, failureReason: null }, null), { chunksDone: 2, failureReason: null, end: 'done' });
  assert.deepEqual(afterChunk({ chunksDone: 0, chunksTotal: 2, failureReason: null }, 'upstream'), { chunksDone: 1, failureReason: 'upstream', end: null });
  assert.deepEqual(afterChunk({ chunksDone: 1, chunksTotal: 2, failureReason: 'first' }, 'second'), { chunksDone: 2, failureReason: 'first', end: 'failed' });
});

test('progress: processed over total to four decimals; an empty job is complete', () => {
  assert.equal(progressOf({ processed: 1, total: 3 }), 0.3333);
  assert.equal(progressOf({ processed: 0, total: 0 }), 1);
  assert.equal(progressOf({ processed: 5, total: 5 }), 1);
});
