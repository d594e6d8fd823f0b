import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigitOf } from '../domain/bizno.ts';
import { NumberTally } from './number-tally.ts';

const valid = (i: number) => {
  const nine = String(100_000_000 + ((i * 7_919) % 899_999_999)).padStart(9, '0');
  return `${nine}${checkDigitOf(nine)}`;
};

test('counts distinct numbers, and which occur in more than one chunk, through growth', () => {
  const tally = new NumberTally(16);
  const expectShared = new Set<string>();
  const chunksWithShared = new Set<number>();
  const firstChunk = new Map<string, number>();
  // 5,000 numbers over chunks of 100; every 7th row repeats an earlier number, sometimes in its own chunk
  for (let row = 0; row < 20_000; row++) {
    const chunk = Math.floor(row / 100) + 1;
    const bno = row % 7 === 0 ? valid((row * 31) % 5_000) : valid(row % 5_000);
    tally.add(bno, chunk);
    const first = firstChunk.get(bno);
    if (first === undefined) firstChunk.set(bno, chunk);
    else if (first !== chunk) {
      expectShared.add(bno);
      chunksWithShared.add(first).add(chunk);
    }
  }
  assert.equal(tally.size, firstChunk.size);
  assert.deepEqual(tally.sharedNumbers(), [...expectShared].toSorted());
  assert.deepEqual(tally.sharedChunks(), [...chunksWithShared].toSorted((a, b) => a - b));
});

test('a number repeated only within its own chunk is not shared', () => {
  const tally = new NumberTally();
  tally.add(valid(1), 1);
  tally.add(valid(1), 1);
  tally.add(valid(2), 1);
  tally.add(valid(2), 2);
  assert.equal(tally.size, 2);
  assert.deepEqual(tally.sharedNumbers(), [valid(2)]);
  assert.deepEqual(tally.sharedChunks(), [1, 2]);
});

test('numbers with leading zeros keep them', () => {
  const tally = new NumberTally();
  const bno = `000000001${checkDigitOf('000000001')}`;
  tally.add(bno, 1);
  tally.add(bno, 3);
  assert.deepEqual(tally.sharedNumbers(), [bno]);
});
