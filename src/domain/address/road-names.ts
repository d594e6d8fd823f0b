// Road names as they are mistyped: how far a written name is from a directory one
// (roadNameDistance, with the matcher's limits), what such a typo costs a candidate
// (roadTypoCost), and an index of a 시군구's road names that finds the names a typo may be of
// (RoadNameIndex) — asked for every address whose road is not found as written, so each step is
// written to touch as little as it can.

// rows of editDistance, reused: it runs for every road of a typo scan
let rowA = new Int32Array(32);
let rowB = new Int32Array(32);

/** Levenshtein distance over UTF-16 units; each Hangul syllable is one unit. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (b.length + 1 > rowA.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
// vowels spoken alike and swapped in writing: ㅐ/ㅔ, ㅒ/ㅖ, ㅙ/ㅚ/ㅞ; the group of each of the 21
// medials (0: none), a table because a typo scan asks it for every letter of every near road
const ALIKE_VOWEL_GROUP = Int8Array.from({ length: 21 }, (_, m) => (m === 1 || m === 5 ? 1 : m === 3 || m === 7 ? 2 : m === 10 || m === 11 || m === 15 ? 3 : 0));

/** jamoDistance of two UTF-16 units. */
function unitDistance(a: number, b: number): number {
  if (a === b) return 0;
  const x = a - HANGUL_FIRST;
  const y = b - HANGUL_FIRST;
  if (x < 0 || y < 0 || x > HANGUL_LAST - HANGUL_FIRST || y > HANGUL_LAST - HANGUL_FIRST) return 3;
  const xm = ((x % 588) / 28) | 0;
  const ym = ((y % 588) / 28) | 0;
  const vowel = xm === ym ? 0 : ALIKE_VOWEL_GROUP[xm] !== 0 && ALIKE_VOWEL_GROUP[xm] === ALIKE_VOWEL_GROUP[ym] ? 0.5 : 1;
  return Number(((x / 588) | 0) !== ((y / 588) | 0)) + vowel + Number(x % 28 !== y % 28);
}

/**
 * How far apart two letters are in jamo: one per differing 초성, 중성 or 종성, a half for vowels
 * spoken alike; 3 for letters that are not both Hangul syllables and differ.
 */
export function jamoDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length !== 1 || b.length !== 1) return 3;
  return unitDistance(a.charCodeAt(0), b.charCodeAt(0));
}

// rows of jamoEdits, reused like editDistance's
let jamoA = new Float64Array(32);
let jamoB = new Float64Array(32);

/**
 * Edits between two names counted in jamo (jamoDistance per substituted letter, 3 per letter
 * added or left out): how a reader would rank two typos that are each one letter off.
 */
export function jamoEdits(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === b.length) {
    // of one length: letter by letter, unless that costs more than adding one letter and leaving
    // one out (6), the least any other way of lining them up costs
    let sum = 0;
    for (let i = 0; i < a.length && sum <= 6; i++) sum += unitDistance(a.charCodeAt(i), b.charCodeAt(i));
    if (sum <= 6) return sum;
  }
  if (b.length + 1 > jamoA.length) {
    jamoA = new Float64Array(b.length + 1);
    jamoB = new Float64Array(b.length + 1);
  }
  let prev = jamoA;
  let cur = jamoB;
  for (let j = 0; j <= b.length; j++) prev[j] = j * 3;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i * 3;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + unitDistance(ca, b.charCodeAt(j - 1));
      const gap = Math.min(prev[j]!, cur[j - 1]!) + 3;
      cur[j] = sub < gap ? sub : gap;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/**
 * What a road-name typo costs a candidate: the letters changed, each at most 1 and a slip of one
 * jamo a half (ㅐ/ㅔ a quarter), so the road one slip away outranks one a whole letter away;
 * doubled for names of ≤ 3 letters. Only for names roadNameDistance accepts.
 */
export function roadTypoCost(written: string, actual: string): number {
  return typoCostAt(written, actual, roadNameDistance(written, actual));
}

/** roadTypoCost given roadNameDistance's answer `d`. */
function typoCostAt(written: string, actual: string, d: number | null): number {
  if (d === null || d === 0) return d ?? Infinity;
  const cost = Math.min(d, jamoEdits(written, actual) / 2);
  return written.length <= 3 ? cost * 2 : cost;
}

/** The ASCII digits of a name, in order ("45번길" → "45"); a loop, as it runs for every road of a typo scan. */
function digits(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) out += s[i];
  }
  return out;
}

/**
 * Edits between a written road name and a directory one when they could be the same road:
 * at most 1 letter for names of ≤ 3 letters, 2 otherwise — or, in a name of three letters or
 * more, two letters each one jamo off (중앙로 → 중양루) — and the numbers must agree ("45길" and
 * "46길" are neighbours, not typos). null when they are different roads.
 */
export function roadNameDistance(written: string, actual: string): number | null {
  if (written === actual) return 0;
  const limit = written.length <= 3 ? 1 : 2;
  if (Math.abs(written.length - actual.length) > limit) return null;
  if (digits(written) !== digits(actual)) return null;
  return distanceWithin(written, actual, limit);
}

/** roadNameDistance of two different names whose digits agree and whose lengths are within `limit`. */
function distanceWithin(written: string, actual: string, limit: number): number | null {
  const w = lettersOf(written);
  return distanceAt(w, written.length, lettersOf(actual, 1), 0, actual.length, limit);
}

// the letters of a written name and of one other, as near() holds every name's: reused
let writtenLetters = new Uint16Array(32);
let otherLetters = new Uint16Array(32);

/** The UTF-16 units of `s` in a reused array (0: the written name's, 1: the other's). */
function lettersOf(s: string, which: 0 | 1 = 0): Uint16Array {
  let out = which === 0 ? writtenLetters : otherLetters;
  if (s.length > out.length) {
    out = new Uint16Array(s.length * 2);
    if (which === 0) writtenLetters = out;
    else otherLetters = out;
  }
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * distanceWithin of a written name (`w`, n letters) and the name at `at` in `letters` (m
 * letters): the letters of both as arrays, so that a scan of a 시군구's roads reads them from
 * one block rather than from every name's string.
 */
function distanceAt(w: Uint16Array, n: number, letters: Uint16Array, at: number, m: number, limit: number): number | null {
  const sameLength = n === m;
  let d = -1;
  if (sameLength) {
    // names of one length 1 or 2 edits apart differ in as many letters (adding a letter takes
    // leaving one out as well), counted without the edit distance's table; more, and they are 2
    // or more apart, which at a limit of 1 only the jamo rule below can take
    let differ = 0;
    for (let i = 0; i < n && differ <= 2; i++) if (w[i] !== letters[at + i]) differ++;
    if (differ <= 2) d = differ;
    else if (limit < 2 && !(n === 3 && sameLengthJamoEdits(w, letters, at, n) <= 2)) return null;
  }
  if (d < 0) d = editDistanceAt(w, n, letters, at, m);
  if (d <= limit) return d;
  return d === 2 && n === 3 && sameLength && sameLengthJamoEdits(w, letters, at, n) <= 2 ? d : null;
}

/** editDistance of letter arrays (see distanceAt). */
function editDistanceAt(a: Uint16Array, n: number, letters: Uint16Array, at: number, m: number): number {
  if (m + 1 > rowA.length) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    const ca = a[i - 1]!;
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1]! + (ca === letters[at + j - 1] ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

/**
 * jamoEdits of two names of one length where it is at most 2, else more than 2: letter by letter,
 * as any alignment that adds a letter also leaves one out, which costs 6.
 */
function sameLengthJamoEdits(a: Uint16Array, letters: Uint16Array, at: number, n: number): number {
  let sum = 0;
  for (let i = 0; i < n && sum <= 2; i++) sum += unitDistance(a[i]!, letters[at + i]!);
  return sum;
}

/**
 * A name's letters as a 64-bit set (by their low six bits, two 32-bit halves) and how many of its
 * letters repeat one already in the set: near() bounds by them the letters two names can share.
 */
function letterSet(letters: Uint16Array, at: number, n: number): [lo: number, hi: number, repeats: number] {
  let lo = 0;
  let hi = 0;
  let distinct = 0;
  for (let i = at; i < at + n; i++) {
    const c = letters[i]!;
    const bit = 1 << (c & 31);
    if (c & 32) {
      if (!(hi & bit)) distinct++;
      hi |= bit;
    } else {
      if (!(lo & bit)) distinct++;
      lo |= bit;
    }
  }
  return [lo, hi, n - distinct];
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The names of one RoadNameIndex key (one length): their letters end to end, and each one's letterSet. */
interface NameGroup {
  length: number;
  names: string[];
  letters: Uint16Array;
  lo: Int32Array;
  hi: Int32Array;
  repeats: Uint8Array;
}

function nameGroup(length: number, names: string[]): NameGroup {
  const letters = new Uint16Array(names.length * length);
  const lo = new Int32Array(names.length);
  const hi = new Int32Array(names.length);
  const repeats = new Uint8Array(names.length);
  for (const [i, name] of names.entries()) {
    for (let j = 0; j < length; j++) letters[i * length + j] = name.charCodeAt(j);
    [lo[i], hi[i], repeats[i]] = letterSet(letters, i * length, length);
  }
  return { length, names, letters, lo, hi, repeats };
}

/**
 * Road names grouped by what roadNameDistance requires of a near one (the same digits, a length
 * within two): a typo is then compared with a few names, not every road of the directory.
 */
export class RoadNameIndex {
  /** by the digits of the names, then by their length */
  readonly #byDigits = new Map<string, (NameGroup | undefined)[]>();

  constructor(names: Iterable<string>) {
    const byDigits = new Map<string, string[][]>();
    for (const name of names) {
      const d = digits(name);
      let byLength = byDigits.get(d);
      if (!byLength) byDigits.set(d, (byLength = []));
      (byLength[name.length] ??= []).push(name);
    }
    for (const [d, byLength] of byDigits) this.#byDigits.set(d, byLength.map((list, length) => (list ? nameGroup(length, list) : undefined)));
  }

  /** The names roadNameDistance accepts as `written` mistyped, nearest first; `written` itself excluded. */
  near(written: string): string[] {
    const out: { name: string; distance: number }[] = [];
    const byLength = this.#byDigits.get(digits(written));
    if (!byLength) return [];
    const n = written.length;
    // roadNameDistance takes lengths within its limit only (1 letter for names of ≤ 3, else 2)
    const limit = n <= 3 ? 1 : 2;
    const w = lettersOf(written);
    const [lo, hi] = letterSet(w, 0, n);
    for (let m = n - limit; m <= n + limit; m++) {
      const group = byLength[m];
      if (!group) continue;
      // a name `most` edits away keeps all but `most` of the longer name's letters, and can keep
      // only letters `written` has (counted by their set, plus the name's repeated letters): most
      // roads of a 시군구 share far fewer, and are passed over on these counts alone; the others are
      // compared letter by letter from the group's block, and only a near one's string is read
      // (a scan of a 시군구's ~900 roads took ~30 µs, most of it reading every name's string)
      const most = n === 3 && m === 3 ? 2 : limit;
      const need = Math.max(n, m) - most;
      for (let i = 0; i < group.names.length; i++) {
        if (bitCount(group.lo[i]! & lo) + bitCount(group.hi[i]! & hi) + group.repeats[i]! < need) continue;
        const distance = distanceAt(w, n, group.letters, i * m, m, limit);
        // 0: `written` itself
        if (distance === null || distance === 0) continue;
        const name = group.names[i]!;
        out.push({ name, distance: typoCostAt(written, name, distance) });
      }
    }
    return out.toSorted((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((x) => x.name);
  }
}
