import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../seeded-random.ts';
import { editDistance, jamoDistance, jamoEdits, RoadNameIndex, roadNameDistance, roadTypoCost } from './road-names.ts';

// The rules written out the plain way (a full table for every distance), for the quick paths to
// be held against: edits counted in letters and in jamo, and what roadNameDistance accepts.
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_row, i) => Array.from({ length: b.length + 1 }, (_cell, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
  }
  return d[a.length]![b.length]!;
}
function jamoTable(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_row, i) => Array.from({ length: b.length + 1 }, (_cell, j) => (i === 0 ? 3 * j : j === 0 ? 3 * i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j - 1]! + jamoDistance(a[i - 1]!, b[j - 1]!), d[i - 1]![j]! + 3, d[i]![j - 1]! + 3);
  }
  return d[a.length]![b.length]!;
}
const digitsOf = (s: string): string => s.replace(/\D/g, '');
function accepted(written: string, actual: string): number | null {
  if (written === actual) return 0;
  const limit = written.length <= 3 ? 1 : 2;
  if (Math.abs(written.length - actual.length) > limit || digitsOf(written) !== digitsOf(actual)) return null;
  const d = levenshtein(written, actual);
  if (d <= limit) return d;
  return d === 2 && written.length === 3 && actual.length === 3 && jamoTable(written, actual) <= 2 ? d : null;
}
function typoCost(written: string, actual: string): number {
  const d = accepted(written, actual)!;
  const cost = d === 0 ? 0 : Math.min(d, jamoTable(written, actual) / 2);
  return written.length <= 3 ? cost * 2 : cost;
}

// names like a 시군구's roads: two or three syllables of a few, 로 or 길, some with a branch number
const SYLLABLES = '가나다라마바사아자하한대신성영진미소정현우태동서남북중앙양안앗얀개게괘궤'.split('');
const random = seededRandom(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const word = (n: number): string => Array.from({ length: n }, () => pick(SYLLABLES)).join('');
const roadName = (): string => `${word(1 + Math.floor(random() * 3))}${pick(['로', '길', '대로'])}${random() < 0.3 ? `${1 + Math.floor(random() * 60)}번길` : ''}`;
/** A name as lists mistype it: a letter changed, left out or added, a jamo off, or two of these. */
function mistyped(name: string): string {
  let s = name;
  for (let k = 0; k < 1 + Math.floor(random() * 2); k++) {
    const at = Math.floor(random() * s.length);
    const c = s.charCodeAt(at);
    const op = random();
    if (op < 0.3) s = s.slice(0, at) + pick(SYLLABLES) + s.slice(at + 1);
    else if (op < 0.45) s = s.slice(0, at) + s.slice(at + 1);
    else if (op < 0.6) s = s.slice(0, at) + pick(SYLLABLES) + s.slice(at);
    else if (c >= 0xac00 && c + 28 <= 0xd7a3) s = s.slice(0, at) + String.fromCharCode(c + (random() < 0.5 ? 28 : 1)) + s.slice(at + 1);
  }
  return s;
}

test('edit distances: the quick paths count as the full tables do', () => {
  for (let i = 0; i < 20_000; i++) {
    const a = roadName();
    const b = random() < 0.2 ? roadName() : mistyped(a);
    assert.equal(editDistance(a, b), levenshtein(a, b), `${a} ${b}`);
    assert.equal(jamoEdits(a, b), jamoTable(a, b), `${a} ${b}`);
    assert.equal(roadNameDistance(a, b), accepted(a, b), `${a} ${b}`);
    if (accepted(a, b) !== null) assert.equal(roadTypoCost(a, b), typoCost(a, b), `${a} ${b}`);
  }
});

test('near(): every name roadNameDistance accepts, by typo cost then name, and no other', () => {
  const names = [...new Set(Array.from({ length: 1_500 }, roadName))];
  const index = new RoadNameIndex(names);
  for (let i = 0; i < 3_000; i++) {
    const written = i % 10 === 0 ? pick(names) : mistyped(pick(names));
    const want = names
      .filter((n) => n !== written && accepted(written, n) !== null)
      .map((n) => ({ n, cost: typoCost(written, n) }))
      .toSorted((a, b) => a.cost - b.cost || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
      .map((x) => x.n);
    assert.deepEqual(index.near(written), want, written);
  }
});
