// The distinct numbers of an upload, counted while it streams in: what is charged, and which
// numbers occur in more than one chunk (their answer is then recorded once per job, in the store).
// A million numbers in a Map or Set cost ~50 MB of heap; this table of typed arrays costs 9 bytes
// a slot (≤ 4 slots per 2 numbers, ~19 MB for a million) and no garbage.
//
// Only check-digit-valid numbers are counted, and for those the tenth digit follows from the first
// nine, so the first nine digits (< 2^30) are the key; 0 marks an empty slot (0000000000 is never
// valid).

import { checkDigitOf } from '../domain/bizno.ts';

const EMPTY = 0;
/** bit in `flags`: seen in a chunk other than its first */
const SHARED = 1;

export class NumberTally {
  #keys: Uint32Array;
  #firstChunk: Uint32Array;
  #flags: Uint8Array;
  #size = 0;
  #shared = 0;
  readonly #sharedChunks = new Set<number>();

  constructor(initialCapacity = 1 << 12) {
    const cap = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.#keys = new Uint32Array(cap);
    this.#firstChunk = new Uint32Array(cap);
    this.#flags = new Uint8Array(cap);
  }

  /** distinct numbers added */
  get size(): number {
    return this.#size;
  }

  /** Counts one row's valid ten-digit number, found in chunk `chunkNo` (≥ 1). */
  add(bno: string, chunkNo: number): void {
    const key = Math.floor(Number(bno) / 10);
    let i = this.#slot(key);
    if (this.#keys[i] === EMPTY) {
      if ((this.#size + 1) * 2 > this.#keys.length) {
        this.#grow();
        i = this.#slot(key);
      }
      this.#keys[i] = key;
      this.#firstChunk[i] = chunkNo;
      this.#size++;
      return;
    }
    const first = this.#firstChunk[i]!;
    if (first === chunkNo) return;
    this.#sharedChunks.add(first);
    this.#sharedChunks.add(chunkNo);
    if (!(this.#flags[i]! & SHARED)) {
      this.#flags[i] = this.#flags[i]! | SHARED;
      this.#shared++;
    }
  }

  /**
   * Numbers found in more than one chunk, as ten-digit strings in ascending order: the store
   * reads each one's cache entry, and in key order those reads walk the cache's pages in turn
   * instead of jumping about it (the table's slots are in hash order).
   */
  sharedNumbers(): string[] {
    const out: string[] = [];
    if (this.#shared === 0) return out;
    const keys = new Uint32Array(this.#shared);
    let n = 0;
    for (let i = 0; i < this.#keys.length; i++) if (this.#flags[i]! & SHARED) keys[n++] = this.#keys[i]!;
    for (const key of keys.toSorted()) {
      const nine = String(key).padStart(9, '0');
      out.push(`${nine}${checkDigitOf(nine)}`);
    }
    return out;
  }

  /** Chunks holding any shared number. */
  sharedChunks(): number[] {
    return [...this.#sharedChunks].toSorted((a, b) => a - b);
  }

  /** Linear probing from a multiplicative hash of the key. */
  #slot(key: number): number {
    const mask = this.#keys.length - 1;
    let i = Math.imul(key, 0x9e3779b1) >>> 0 & mask;
    while (this.#keys[i] !== EMPTY && this.#keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  #grow(): void {
    const keys = this.#keys;
    const first = this.#firstChunk;
    const flags = this.#flags;
    this.#keys = new Uint32Array(keys.length * 2);
    this.#firstChunk = new Uint32Array(keys.length * 2);
    this.#flags = new Uint8Array(keys.length * 2);
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === EMPTY) continue;
      const i = this.#slot(keys[j]!);
      this.#keys[i] = keys[j]!;
      this.#firstChunk[i] = first[j]!;
      this.#flags[i] = flags[j]!;
    }
  }
}
