// What LocalDirectory keeps of the imported directory in memory, so that the questions most
// addresses ask, and most damaged ones answer with nothing, cost no statement: each 시군구's road
// numbers (RoadNumbers), the names former road addresses have, and each written 시군구's road
// names for typos (RoadNameIndex). All of it is read as questions need it and kept while the
// directory's version (raised by every write to it, in any process) stays the same; the version
// is asked at most once a second. Once it moves, what is kept is dropped, and the numbers and
// former names are not read again until it has stood still for SETTLE_MS — an import writes for
// minutes, and reading every 시군구 again after each of its batches would cost more than it saves
// — so meanwhile LocalDirectory asks the store, as it did without them: every answer is the
// store's either way.
//
// At most the whole directory's worth: at national scale (6.4 million buildings, ~250 시군구)
// ~55 MB of typed arrays for the road numbers with their rows (~30 MB without: on PostgreSQL, or
// where find() is not asked) and ~35 MB of heap, mostly road names; a 시군구's numbers take one
// index-only statement the first time (~8 ms; ~60 ms for 중구, which six 시도 share).

import { sigunguAgrees } from '../domain/address/match.ts';
import { RoadNameIndex } from '../domain/address/road-names.ts';
import type { AddressStore } from '../store/address-store.ts';
import { RoadNumbers } from './road-numbers.ts';

/** How often the directory's version is asked (one row). */
const VERSION_CHECK_MS = 1_000;
/** How long the version must stand still after it moved before numbers are read again. */
const SETTLE_MS = 10_000;
/** Entries kept per written 시군구 (the country has ~250; more are spellings the parser never gives). */
const WRITTEN_KEPT = 256;

const NO_BUILDINGS = new RoadNumbers([]);

/** What is kept of one version of the directory. */
interface Kept {
  version: number;
  /** the 시군구 names the directory holds */
  sigungus: Promise<Set<string>> | null;
  /** the road names of former road addresses */
  formerNames: Promise<Set<string>> | null;
  /** per 시군구 as the directory names it */
  numbers: Map<string, Promise<RoadNumbers>>;
  /** per 시군구 as written: the typo index of its roads (its 일반구's too), and its last answer */
  roads: Map<string, Promise<{ index: RoadNameIndex; written: string | null; near: string[] }>>;
  /** per 시군구 as written: the directory's 시군구 it agrees with (sigunguAgrees) */
  agreeing: Map<string, string[]>;
  /** per 시군구 as written: the typo index of its 동, 읍/면 and 리 names */
  dongs: Map<string, Promise<RoadNameIndex>>;
}

const nothingKept = (version: number): Kept => ({ version, sigungus: null, formerNames: null, numbers: new Map(), roads: new Map(), agreeing: new Map(), dongs: new Map() });

/** Sets a map's entry, the oldest one dropped first when the map holds `most`. */
function boundedSet<V>(map: Map<string, V>, key: string, value: V, most: number): V {
  if (map.size >= most) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** A read kept in `map` under `key` until it fails (then the next question reads again). */
function keptRead<V>(map: Map<string, Promise<V>>, key: string, read: () => Promise<V>, most = Infinity): Promise<V> {
  let value = map.get(key);
  if (!value) {
    value = boundedSet(map, key, read(), most);
    value.catch(() => map.delete(key));
  }
  return value;
}

export class DirectoryMemory {
  readonly #store: AddressStore;
  readonly #now: () => number;
  readonly #rows: boolean;
  #kept: Kept = nothingKept(-1);
  #checkedAt = -Infinity;
  /** when the numbers and former names may be read and used again */
  #usableFrom = -Infinity;
  #usable = true;

  /** `rows`: keep each building's row with its number (see RoadNumbers.refsAt). */
  constructor(store: AddressStore, opts: { now: () => number; rows: boolean }) {
    this.#store = store;
    this.#now = opts.now;
    this.#rows = opts.rows;
  }

  /** The directory's version as last asked (refresh() asks it at most once a second). */
  get version(): number {
    return this.#kept.version;
  }

  /** Drops what is kept when the directory has changed since (asked at most once a second). */
  async refresh(): Promise<void> {
    const now = this.#now();
    this.#usable = now >= this.#usableFrom;
    if (now - this.#checkedAt < VERSION_CHECK_MS) return;
    this.#checkedAt = now;
    const version = await this.#store.directoryVersion();
    if (version === this.#kept.version) return;
    // the first version seen is the directory as it stands; a change is a write under way
    if (this.#kept.version !== -1) this.#usableFrom = now + SETTLE_MS;
    this.#usable = now >= this.#usableFrom;
    this.#kept = nothingKept(version);
  }

  #sigungus(): Promise<Set<string>> {
    const kept = this.#kept;
    if (!kept.sigungus) {
      kept.sigungus = this.#store.sigunguNames().then((names) => new Set(names));
      kept.sigungus.catch(() => { kept.sigungus = null; });
    }
    return kept.sigungus;
  }

  /**
   * The road numbers of a 시군구 as the directory names it (none for one it does not hold); null
   * while the directory is being written: the store is to be asked.
   */
  async numbers(sigungu: string): Promise<RoadNumbers | null> {
    if (!this.#usable) return null;
    const kept = this.#kept;
    if (!(await this.#sigungus()).has(sigungu)) return NO_BUILDINGS;
    return keptRead(kept.numbers, sigungu, async () => new RoadNumbers(await this.#store.roadNumbersIn(sigungu, this.#rows)));
  }

  /** Whether a building may have had a road address on a road of that name (true while the directory is being written). */
  async wasFormerRoad(name: string): Promise<boolean> {
    if (!this.#usable) return true;
    const kept = this.#kept;
    if (!kept.formerNames) {
      kept.formerNames = this.#store.formerRoadNames().then((names) => new Set(names));
      kept.formerNames.catch(() => { kept.formerNames = null; });
    }
    return (await kept.formerNames).has(name);
  }

  /**
   * The first `count` roads of a written 시군구 that `written` could be a typo of (not itself),
   * closest first. "" is 세종's (it has no 시군구).
   */
  async nearRoads(sigungu: string, written: string, count: number): Promise<string[]> {
    const roads = await keptRead(this.#kept.roads, sigungu, async () => ({ index: new RoadNameIndex(await this.#store.roadNamesIn(sigungu)), written: null, near: [] }), WRITTEN_KEPT);
    // asked twice of one address whose road is nowhere (steps 2 and 3 of LocalDirectory's find)
    if (roads.written !== written) {
      roads.near = roads.index.near(written).slice(0, count);
      roads.written = written;
    }
    return roads.near;
  }

  /**
   * The 동, 읍/면 and 리 names of a written 시군구 that `written` could be a typo of (by the rule
   * road names follow: roadNameDistance), closest first.
   */
  async nearDongs(sigungu: string, written: string, count: number): Promise<string[]> {
    const index = await keptRead(this.#kept.dongs, sigungu, async () => new RoadNameIndex(await this.#store.dongNamesIn(sigungu)), WRITTEN_KEPT);
    return index.near(written).slice(0, count);
  }

  /**
   * The names among `roads` that may have a building of that number in a 시군구 the written
   * `sigungu` agrees with (sigunguAgrees): where a building of any other road would be filtered
   * out. All of them while the directory is being written.
   */
  async withNumber(sigungu: string, roads: readonly string[], main: number, sub: number): Promise<readonly string[]> {
    if (roads.length === 0 || !this.#usable) return roads;
    const kept = this.#kept;
    let agreeing = kept.agreeing.get(sigungu);
    if (!agreeing) agreeing = boundedSet(kept.agreeing, sigungu, [...(await this.#sigungus())].filter((name) => sigunguAgrees(sigungu, name)), WRITTEN_KEPT);
    const numbers = await Promise.all(agreeing.map((name) => this.numbers(name)));
    if (numbers.includes(null)) return roads;
    return roads.filter((road) => numbers.some((n) => n!.has(road, main, sub)));
  }
}
