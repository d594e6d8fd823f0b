import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RoadNumberRow } from '../store/address-rows.ts';
import { RoadNumbers } from './road-numbers.ts';

const ROWS: RoadNumberRow[] = [
  ['중앙로', 1, 0, 11],
  ['중앙로', 7, 0, 12],
  ['중앙로', 7, 0, 13],
  ['중앙로', 7, 2, 14],
  ['테헤란로', 152, 0, 21],
  ['테헤란로', 99_999, 9_999, 22],
];

test('which road has which number, and the rows of each, in the order given', () => {
  const n = new RoadNumbers(ROWS);
  assert.deepEqual([...n.roads()], ['중앙로', '테헤란로']);
  assert.equal(n.has('중앙로', 7, 0), true);
  assert.equal(n.has('중앙로', 7, 1), false);
  assert.equal(n.has('중앙로', 8, 0), false);
  assert.equal(n.has('없는로', 1, 0), false);
  assert.deepEqual(n.refsAt('중앙로', 7, 0), [12, 13]);
  assert.deepEqual(n.refsAt('중앙로', 1, 0), [11]);
  assert.deepEqual(n.refsAt('테헤란로', 99_999, 9_999), [22]);
  assert.deepEqual(n.refsAt('테헤란로', 153, 0), []);
  assert.deepEqual(n.refsAt('없는로', 1, 0), []);
  assert.equal(n.bytes, 6 * 8 + 3 * 4);
});

test('without rows (PostgreSQL) it still says what is not there, and leaves which to the store', () => {
  const n = new RoadNumbers(ROWS.map(([road, main, sub]) => [road, main, sub, null]));
  assert.equal(n.has('중앙로', 7, 2), true);
  assert.equal(n.refsAt('중앙로', 7, 2), null);
  assert.deepEqual(n.refsAt('중앙로', 7, 3), []);
});

test('a number too large to pack leaves every question about its road to the store', () => {
  const n = new RoadNumbers([['큰로', 1, 0, 1], ['큰로', 200_000, 0, 2], ['작은로', 5, 0, 3]]);
  assert.equal(n.has('큰로', 1, 0), true);
  assert.equal(n.has('큰로', 2, 0), true, 'may be');
  assert.equal(n.refsAt('큰로', 1, 0), null);
  assert.deepEqual(n.refsAt('작은로', 5, 0), [3]);
  assert.equal(n.has('작은로', 200_000, 0), false, 'no number of 작은로 is that large');
});

test('nothing at all', () => {
  const n = new RoadNumbers([]);
  assert.deepEqual([...n.roads()], []);
  assert.equal(n.has('중앙로', 1, 0), false);
  assert.deepEqual(n.refsAt('중앙로', 1, 0), []);
});

test('rows out of the index order are refused rather than misread', () => {
  assert.throws(() => new RoadNumbers([['가로', 1, 0, 1], ['나로', 1, 0, 2], ['가로', 2, 0, 3]]), /not together/);
  assert.throws(() => new RoadNumbers([['가로', 2, 0, 1], ['가로', 1, 0, 2]]), /out of order/);
});
