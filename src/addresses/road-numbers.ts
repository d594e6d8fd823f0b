// The building numbers of one 시군구's roads, as an index-only read of the directory gives them
// (AddressStore.roadNumbersIn): which road has which 본번-부번, and, on the embedded store, each
// building's row. LocalDirectory answers from it the questions that most often find nothing — a
// wrong number, a typo's near roads — in under a microsecond where an indexed statement that
// finds nothing costs 10–20 µs (cold index pages of a national directory), and fetches a building
// it knows by its row rather than through the index again. Compact on purpose: a national
// directory is ~6.4 million buildings, 4 bytes each here (8 with their rows).

import type { RoadNumberRow } from '../store/address-rows.ts';

// 본번 and 부번 in one integer: 부번 < 2^14, 본번 < 2^17 (the parser reads at most 5 and 4 digits)
const SUB_BITS = 16_384;
const MAIN_LIMIT = 131_072;
const packable = (main: number, sub: number): boolean =>
  Number.isInteger(main) && Number.isInteger(sub) && main >= 0 && sub >= 0 && main < MAIN_LIMIT && sub < SUB_BITS;
const REF_LIMIT = 2 ** 31;

export class RoadNumbers {
  /** road → its group: numbers[starts[g] .. starts[g + 1]), ascending */
  readonly #groups = new Map<string, number>();
  readonly #starts: Int32Array;
  readonly #numbers: Int32Array;
  /** each number's row, or null when the store gave none for some building (all are then asked of it) */
  readonly #refs: Int32Array | null;
  /** roads with a number that does not pack: every question about them is left to the store */
  readonly #unpacked = new Set<string>();

  /** `rows` ordered by road, then 본번 and 부번 (the index's order). */
  constructor(rows: readonly RoadNumberRow[]) {
    const starts: number[] = [];
    this.#numbers = new Int32Array(rows.length);
    let refs: Int32Array | null = new Int32Array(rows.length);
    let last: string | null = null;
    let at = 0;
    for (const [road, main, sub, ref] of rows) {
      if (road !== last) {
        if (this.#groups.has(road)) throw new Error(`road numbers of ${road} are not together`);
        this.#groups.set(road, starts.length);
        starts.push(at);
        last = road;
      }
      if (!packable(main, sub)) {
        this.#unpacked.add(road);
        continue;
      }
      const n = main * SUB_BITS + sub;
      if (at > starts[starts.length - 1]! && this.#numbers[at - 1]! > n) throw new Error(`road numbers of ${road} are out of order`);
      this.#numbers[at] = n;
      if (refs && ref !== null && Number.isInteger(ref) && ref >= 0 && ref < REF_LIMIT) refs[at] = ref;
      else refs = null;
      at++;
    }
    starts.push(at);
    this.#starts = Int32Array.from(starts);
    this.#refs = refs;
  }

  /** The roads that have a building. */
  roads(): IterableIterator<string> {
    return this.#groups.keys();
  }

  /** Whether a building of the road may have that number: false is certain, true may be (a number that does not pack). */
  has(road: string, main: number, sub: number): boolean {
    const g = this.#groups.get(road);
    if (g === undefined) return false;
    if (this.#unpacked.has(road)) return true;
    return packable(main, sub) && this.#first(g, main * SUB_BITS + sub) >= 0;
  }

  /**
   * The rows of the road's buildings with that number, in the index's order; empty when there is
   * none; null when this cannot say which (no rows given, or a number that does not pack).
   */
  refsAt(road: string, main: number, sub: number): number[] | null {
    const g = this.#groups.get(road);
    if (g === undefined) return [];
    if (this.#unpacked.has(road)) return null;
    if (!packable(main, sub)) return [];
    const n = main * SUB_BITS + sub;
    const first = this.#first(g, n);
    if (first < 0) return [];
    if (!this.#refs) return null;
    const out: number[] = [];
    for (let i = first; i < this.#starts[g + 1]! && this.#numbers[i] === n; i++) out.push(this.#refs[i]!);
    return out;
  }

  /** The first index of `n` in group g, or -1. */
  #first(g: number, n: number): number {
    let lo = this.#starts[g]!;
    let hi = this.#starts[g + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#numbers[mid]! < n) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.#starts[g + 1]! && this.#numbers[lo] === n ? lo : -1;
  }

  /** Bytes of numbers and rows held (what a national directory's worth costs). */
  get bytes(): number {
    return this.#numbers.byteLength + this.#starts.byteLength + (this.#refs?.byteLength ?? 0);
  }
}
