// Address checks kept by the text as written, while the directory stays at one version: a
// customer's systems look the same customers up again and again (POST /verify before each
// mailing), and parsing, the directory's questions and matching are most of a named lookup's
// cost. Two generations of at most half the bound each, swapped rather than evicted entry by
// entry (a Map whose first key is deleted again and again gets slower at finding the next one);
// an entry read from the older generation moves to the newer.
import type { AddressCheck } from '../domain/address/types.ts';

export class CheckMemo {
  readonly #half: number;
  #current = new Map<string, AddressCheck>();
  #previous = new Map<string, AddressCheck>();
  #version = Number.NaN;

  /** `most`: checks kept at most */
  constructor(most: number) {
    this.#half = Math.max(1, Math.floor(most / 2));
  }

  /** The directory is now at `version`: what was checked under another is forgotten. */
  at(version: number): void {
    if (version === this.#version) return;
    this.#current = new Map();
    this.#previous = new Map();
    this.#version = version;
  }

  get(raw: string): AddressCheck | undefined {
    const c = this.#current.get(raw);
    if (c) return c;
    const p = this.#previous.get(raw);
    if (p) this.#put(raw, p);
    return p;
  }

  /** Keeps a check made under `version`, unless the directory has moved on since. */
  set(raw: string, check: AddressCheck, version: number): void {
    if (version === this.#version) this.#put(raw, check);
  }

  #put(raw: string, check: AddressCheck): void {
    if (this.#current.size >= this.#half) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(raw, check);
  }
}
