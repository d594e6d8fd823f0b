// An AddressDirectory over the imported 도로명주소 DB (an AddressStore): no network, no quota.
// Asks from the most specific question to the broadest and stops at the first that finds
// anything, so "exact" answers are never diluted by guesses. A road name written with a typo is
// looked for among the roads of the written 시군구 by the matcher's own rule (roadNameDistance),
// as the sandbox directory does, so the matcher sees the candidates its tolerance is for. A road
// address no building has today is looked for among former ones (이전도로명주소), and a lot no
// building's own among related lots (관련지번); such a candidate says how it was found (`via`).
// What it keeps of the directory in memory (DirectoryMemory) answers the questions that would
// find nothing — most of a damaged address's — without a statement, and only those: every
// answer is the one the store would give.

import { buildingNameForms, dongAgrees, legalDongOf, mayBeDongTypo, namesBuilding, sigunguAgrees } from '../domain/address/match.ts';
import type { AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { anywhereKey, type AnywhereKey, lotKey, type LotKey, roadKey, type AddressStore, type RoadKey } from '../store/address-store.ts';
import { DirectoryMemory } from './directory-memory.ts';
import { ChunkFinds, type Finds } from './chunk-finds.ts';

const SEJONG = '세종특별자치시';
/** Rows fetched when a filter the store cannot apply (the 시도 of a road search) runs afterwards. */
const OVERFETCH = 4;
/** Near road names tried for a typo, closest first. */
const NEAR_ROADS = 3;
/**
 * A written road's buildings of one 본번 across the country, asked for at once when step 2 of
 * #find has no near road to ask with it (more, and its two questions are asked apart).
 */
const ONE_MAIN = 200;

type Road = NonNullable<ParsedAddress['road']>;

/**
 * Step 1's answers for one address that findMany asked for its whole chunk: the building as
 * written by its road (`byRoad`: findByRoad's answer, in the 시군구 when one is written, in any
 * with `wide` rows when not) and by its lot (`byLot`: findByJibun's answer, or findByRelatedLot's
 * when that was empty).
 */
interface AskedAlready {
  byRoad?: DirectoryEntry[] | undefined;
  byLot?: DirectoryEntry[] | undefined;
}

/** One find(): the address, and what its steps share. */
interface Asked {
  q: ParsedAddress;
  limit: number;
  /** rows fetched where a filter by 시도 follows */
  wide: number;
  /** the written road's buildings of its 본번 in any 시군구 (step 3's first question), when step 2 asked already */
  atMain: DirectoryEntry[] | null;
  /** where the later steps ask: the store, or a chunk's questions asked together (ChunkFinds) */
  finds: Finds;
}

const inSido = (q: ParsedAddress, e: DirectoryEntry): boolean => q.sido === null || e.sido === q.sido;
const inSigungu = (q: ParsedAddress, e: DirectoryEntry): boolean => q.sigungu === null || sigunguAgrees(q.sigungu, e.sigungu);
/** The roads a typo is looked for among: the written 시군구's, or 세종's (it has no 시군구). */
const scopeOf = (q: ParsedAddress): string | null => q.sigungu ?? (q.sido === SEJONG ? '' : null);

export class LocalDirectory implements AddressDirectory {
  readonly source = 'local' as const;
  readonly #store: AddressStore;
  readonly #memory: DirectoryMemory;
  /** findMany asks its chunk's later questions together (ChunkFinds) */
  readonly #together: boolean;

  /**
   * The store is borrowed: close() leaves it open for whoever owns it. `now`: milliseconds of a
   * clock that never goes back (tests move it). `rows: false` keeps no building's row (~25 MB less
   * at national scale): find() then asks the store for a building by its address, as findMany()
   * does for a whole chunk at once — for a directory that checks chunks. `together`: findMany
   * asks the questions of its chunk's later steps together (ChunkFinds); by default where each
   * statement is a round trip (PostgreSQL). On SQLite a statement is a call into the process,
   * and the batched ones cost more CPU than the single ones they replace (bench/RESULTS.md).
   */
  constructor(store: AddressStore, opts: { now?: () => number; rows?: boolean; together?: boolean } = {}) {
    this.#store = store;
    this.#together = opts.together ?? store.remote;
    this.#memory = new DirectoryMemory(store, { now: opts.now ?? (() => performance.now()), rows: opts.rows !== false });
  }

  /**
   * find() of many addresses (a batch chunk's): the first questions most of a list asks — the
   * building as written with a road, number and 시군구; with a road and number but no 시군구; the
   * lot as written, and the buildings standing on it when none is its own — are asked for the
   * whole chunk in one statement each first; each address then goes the way find() goes, with
   * those answers in place of its own questions. Same candidates as find().
   */
  async findMany(qs: readonly ParsedAddress[], limit = 20): Promise<DirectoryEntry[][]> {
    if (qs.length === 0 || limit <= 0) return Promise.all(qs.map((q) => this.find(q, limit)));
    const roads: RoadKey[] = [];
    const anywhere: AnywhereKey[] = [];
    const lots: LotKey[] = [];
    for (const q of qs) {
      const k = exactKeyOf(q);
      if (k) roads.push(k);
      else if (q.road) anywhere.push(anywhereKeyOf(q.road));
      if (q.jibun) lots.push(lotKeyOf(q, q.jibun));
    }
    const wide = limit * OVERFETCH;
    const known = roads.length > 0 ? await this.#store.findByRoadMany(roads, limit) : new Map<string, DirectoryEntry[]>();
    const anywhereKnown = anywhere.length > 0 ? await this.#store.findByRoadAnywhereMany(anywhere, wide) : new Map<string, DirectoryEntry[]>();
    const lotsKnown = lots.length > 0 ? await this.#store.findByJibunMany(lots, limit) : new Map<string, DirectoryEntry[]>();
    const bare = lots.filter((k) => lotsKnown.get(lotKey(k))!.length === 0);
    const relatedKnown = bare.length > 0 ? await this.#store.findByRelatedLotMany(bare, limit) : new Map<string, DirectoryEntry[]>();
    // the rest go find()'s way all at once, their later steps' questions asked together where that saves round trips
    const finds = this.#together ? new ChunkFinds(this.#store) : this.#store;
    return Promise.all(qs.map((q) => {
      const k = exactKeyOf(q);
      const byRoad = k ? known.get(roadKey(k)) : q.road ? anywhereKnown.get(anywhereKey(anywhereKeyOf(q.road))) : undefined;
      const lot = q.jibun ? lotKey(lotKeyOf(q, q.jibun)) : null;
      const byLot = lot === null ? undefined : lotsKnown.get(lot)!.length > 0 ? lotsKnown.get(lot) : relatedKnown.get(lot);
      // most of a list: the building as written, found; what find() answers then, without its
      // chain of awaits (a chunk's thousand of them were a tenth of its checks' garbage)
      const found = foundAsWritten(q, byRoad, limit);
      return found ? Promise.resolve(found) : this.#find(q, limit, { byRoad, byLot }, finds);
    }));
  }

  find(q: ParsedAddress, limit = 20): Promise<DirectoryEntry[]> {
    return this.#find(q, limit, {}, this.#store);
  }

  /** Raised by every write to the directory, in any process (asked of the store at most once a second). */
  async version(): Promise<number> {
    await this.#memory.refresh();
    return this.#memory.version;
  }

  /**
   * Asks from the most specific question to the broadest; each step answers null when it finds
   * nothing. `known`: answers to step 1's questions findMany asked for a whole chunk; `finds`:
   * where the later steps ask.
   */
  async #find(q: ParsedAddress, limit: number, known: AskedAlready, finds: Finds): Promise<DirectoryEntry[]> {
    if (limit <= 0) return [];
    await this.#memory.refresh();
    const a: Asked = { q, limit, wide: limit * OVERFETCH, atMain: null, finds };
    return (await this.#asWritten(a, known))
      ?? (await this.#nearOrElsewhere(a))
      ?? (await this.#lotAsMeant(a))
      ?? (await this.#onTheRoad(a))
      ?? (await this.#anySubLot(a))
      ?? (await this.#byName(a))
      ?? [];
  }

  /**
   * 1. The building as written: road + number in the 시군구, and the lot in its 동 (an input may
   *    carry both forms; both are evidence for the same building).
   */
  async #asWritten(a: Asked, { byRoad, byLot }: AskedAlready): Promise<DirectoryEntry[] | null> {
    const { q, limit, wide } = a;
    const { road, jibun } = q;
    const exact: DirectoryEntry[] = [];
    if (road) {
      let found = (byRoad ?? (await this.#byRoad(q.sigungu, road, q.sigungu === null ? wide : limit))).filter((e) => inSido(q, e));
      // no building has that address today: one may have had it before its road was renamed
      if (found.length === 0 && (await this.#memory.wasFormerRoad(road.name))) {
        found = (await this.#store.findByFormerRoad(null, road.name, road.main, road.sub, wide))
          .filter((e) => inSido(q, e) && (q.sigungu === null || (e.via?.kind === 'former_road' && sigunguAgrees(q.sigungu, e.via.sigungu))));
      }
      exact.push(...prefer(found, (e) => e.underground === road.underground));
    }
    if (jibun) {
      let found = byLot ?? (await this.#store.findByJibun(q.sido, q.sigungu, jibun.dong, jibun.main, jibun.sub, limit));
      // no building's own lot: a building may stand on it as well (관련지번)
      if (found.length === 0 && !byLot) found = await this.#store.findByRelatedLot(q.sido, q.sigungu, jibun.dong, jibun.main, jibun.sub, limit);
      exact.push(...prefer(found, (e) => (e.via?.kind === 'related_lot' ? e.via.mountain : e.jibunMountain) === jibun.mountain));
    }
    return exact.length > 0 ? dedupe(exact, limit) : null;
  }

  /**
   * findByRoad(sigungu, road and number, limit), with the 시군구's road numbers at hand: nothing,
   * without a statement, when they have no such building; by its rows when they say which.
   */
  async #byRoad(sigungu: string | null, road: Road, limit: number): Promise<DirectoryEntry[]> {
    if (sigungu === null) return this.#store.findByRoad(null, road.name, road.main, road.sub, limit);
    const refs = (await this.#memory.numbers(sigungu))?.refsAt(road.name, road.main, road.sub) ?? null;
    if (refs?.length === 0) return [];
    const found = refs ? await this.#store.findByRoadAt(refs, sigungu, road.name, road.main, road.sub, limit) : null;
    return found ?? this.#store.findByRoad(sigungu, road.name, road.main, road.sub, limit);
  }

  /**
   * 2. A road of the 시군구 whose name is a typo away, with the number as written; and the same
   *    road and number in another 시군구 of the 시도 (a wrong or outdated 시군구). Both kinds go
   *    to the matcher, which ranks a typo against a wrong 시군구 (or calls it ambiguous).
   */
  async #nearOrElsewhere(a: Asked): Promise<DirectoryEntry[] | null> {
    const { q, limit, wide } = a;
    const { road } = q;
    const scope = scopeOf(q);
    if (!road || scope === null) return null;
    const near = await this.#memory.nearRoads(scope, road.name, NEAR_ROADS);
    // a near road without a building of that number in a 시군구 the written one agrees with
    // would find only buildings filtered out below: it is not asked
    const asked = q.sigungu === null ? near : await this.#memory.withNumber(q.sigungu, near, road.main, road.sub);
    const found: DirectoryEntry[] = [];
    let written: DirectoryEntry[];
    if (asked.length > 0) {
      const at = await a.finds.findByRoadsAt([...asked, road.name], road.main, road.sub, wide);
      for (const name of asked) found.push(...at.get(name)!.filter((e) => inSido(q, e) && inSigungu(q, e)));
      written = at.get(road.name)!;
    } else {
      // nothing else to ask: the written road's buildings of the whole 본번, in findByRoad's
      // order, which step 3 asks for next; those of the 부번 are findByRoadsAt's answer, in its order
      a.atMain = await a.finds.findByRoad(null, road.name, road.main, null, ONE_MAIN);
      written = a.atMain.length < ONE_MAIN
        ? a.atMain.filter((e) => e.buildingSub === road.sub).slice(0, wide)
        : (await a.finds.findByRoadsAt([road.name], road.main, road.sub, wide)).get(road.name)!;
    }
    found.push(...written.filter((e) => inSido(q, e)));
    return found.length > 0 ? dedupe(found, limit) : null;
  }

  /**
   * 3. The road within the 시도, whatever the number (a wrong or missing 건물번호); a road of the
   *    시군구 a typo away when none has the name as written. With a number written, only the
   *    buildings of that 본번 can be the one meant (another 부번, say); when there are none, one
   *    building of the road is enough to tell the matcher the road exists (no such number).
   */
  async #onTheRoad(a: Asked): Promise<DirectoryEntry[] | null> {
    const { q, limit, wide } = a;
    const roadName = q.road?.name ?? q.roadNameOnly;
    if (!roadName) return null;
    let found = await this.#roadInSido(a, roadName, 1);
    // a road renamed since: its old name still finds its buildings
    if (found.length === 0 && (await this.#memory.wasFormerRoad(roadName))) {
      found = (await this.#store.findByFormerRoad(null, roadName, null, null, wide)).filter((e) => inSido(q, e));
    }
    if (found.length > 0) return dedupe(prefer(found, (e) => q.sigungu === null || e.sigungu === q.sigungu), limit);
    const scope = scopeOf(q);
    if (scope === null) return null;
    const near: DirectoryEntry[] = [];
    for (const name of await this.#memory.nearRoads(scope, roadName, NEAR_ROADS)) near.push(...(await this.#roadInSido(a, name, wide)).filter((e) => inSigungu(q, e)));
    return near.length > 0 ? dedupe(near, limit) : null;
  }

  /**
   * Buildings of a road within the 시도 for step 3. `enough`: how many buildings of a road without
   * that 본번 tell it exists (1 unless a filter by 시군구 follows).
   */
  async #roadInSido(a: Asked, name: string, enough: number): Promise<DirectoryEntry[]> {
    const { q, limit, wide } = a;
    const { road } = q;
    if (!road) {
      // no number but the building's name ("매영로 (영통중앙상가)"): the buildings of that name on the road
      if (q.buildingName) {
        const written = q.buildingName;
        const named = (await this.#store.findByBuildingName(buildingNameForms(written), q.sido, null, wide)).filter((e) => e.roadName === name && inSigungu(q, e) && namesBuilding(written, e));
        if (named.length > 0) return named;
      }
      // no number: the road's buildings in the written 시군구 first, those elsewhere in the
      // 시도 only to fill up the list (it stays ambiguous whatever it holds)
      const near = q.sigungu === null ? [] : (await a.finds.findByRoad(q.sigungu, name, null, null, limit)).filter((e) => inSido(q, e));
      return near.length >= limit ? near : [...near, ...(await a.finds.findByRoadName(name, q.sido, wide))];
    }
    const atMain = name === road.name && a.atMain ? a.atMain.slice(0, wide) : await a.finds.findByRoad(null, name, road.main, null, wide);
    const same = atMain.filter((e) => inSido(q, e));
    return same.length > 0 ? same : a.finds.findByRoadName(name, q.sido, enough);
  }

  /**
   * 2b. The lot as it was meant: its 동 written as the 행정동 ("논현3동 225-6" for 법정동 논현동),
   *     or in another 시군구 of the 시도 (one renamed or split since the list was written: 인천
   *     남구 → 미추홀구, 부천시 → 부천시 원미구), or under a 동 of the 시군구 a typo away. The
   *     matcher ranks such a candidate as corrected.
   */
  async #lotAsMeant(a: Asked): Promise<DirectoryEntry[] | null> {
    const { q, limit } = a;
    const { jibun } = q;
    if (!jibun) return null;
    const legal = legalDongOf(jibun.dong);
    const lotIn = async (sigungu: string | null, dong: string): Promise<DirectoryEntry[]> => {
      const own = await a.finds.findByJibun(q.sido, sigungu, dong, jibun.main, jibun.sub, limit);
      return own.length > 0 ? own : a.finds.findByRelatedLot(q.sido, sigungu, dong, jibun.main, jibun.sub, limit);
    };
    let found = legal !== jibun.dong ? await lotIn(q.sigungu, legal) : [];
    // in another 시군구 only of a written 시도 (as a road's number in step 2); without a 시도, only
    // in a 시군구 the written one names (부천시 → 부천시 원미구): 상동 999 is in many places
    if (found.length === 0 && q.sigungu !== null) found = (await lotIn(null, legal)).filter((e) => q.sido !== null || inSigungu(q, e));
    // a 동 of the 시군구 a typo away ("하대운동 188" for 하대원동), by the rule road names follow
    const scope = scopeOf(q);
    if (found.length === 0 && scope !== null && mayBeDongTypo(legal)) {
      for (const dong of await this.#memory.nearDongs(scope, legal, NEAR_ROADS)) found.push(...(await lotIn(null, dong)).filter((e) => inSigungu(q, e)));
    }
    return found.length > 0 ? dedupe(prefer(found, (e) => (e.via?.kind === 'related_lot' ? e.via.mountain : e.jibunMountain) === jibun.mountain), limit) : null;
  }

  /** 4. The lot whatever its 부번 (737 written for 737-1, or the other way round). */
  async #anySubLot(a: Asked): Promise<DirectoryEntry[] | null> {
    const { q, limit } = a;
    if (!q.jibun) return null;
    const found = await a.finds.findByJibun(q.sido, q.sigungu, q.jibun.dong, q.jibun.main, null, limit);
    return found.length > 0 ? dedupe(found, limit) : null;
  }

  /** 5. Neither road nor lot: the building by its name, in the 동 when one is written. */
  async #byName(a: Asked): Promise<DirectoryEntry[] | null> {
    const { q, limit, wide } = a;
    const roadName = q.road?.name ?? q.roadNameOnly;
    if (roadName || q.jibun || !q.buildingName) return null;
    const dong = q.eupmyeondong?.split(' ').pop() ?? null;
    const found = (await this.#store.findByBuildingName(buildingNameForms(q.buildingName), q.sido, null, wide))
      .filter((e) => inSigungu(q, e) && (dong === null || dongAgrees(dong, e)));
    return found.length > 0 ? dedupe(found, limit) : null;
  }

  async close(): Promise<void> {}
}

/** A road and number as findByRoadAnywhereMany is asked for it. */
const anywhereKeyOf = (road: Road): AnywhereKey => ({ roadName: road.name, main: road.main, sub: road.sub });

/** The lot step 1 of find() asks for (findByJibun's and findByRelatedLot's arguments). */
const lotKeyOf = (q: ParsedAddress, jibun: NonNullable<ParsedAddress['jibun']>): LotKey => ({ sido: q.sido, sigungu: q.sigungu, dong: jibun.dong, main: jibun.main, sub: jibun.sub });

/** The first question find() asks of an address, when findByRoadMany can answer it. */
function exactKeyOf(q: ParsedAddress): RoadKey | null {
  const { road } = q;
  if (!road || q.sigungu === null) return null;
  return { sigungu: q.sigungu, roadName: road.name, main: road.main, sub: road.sub };
}

/**
 * What step 1 of find() answers for a road address without a lot whose building findByRoadMany
 * found in its 시도 (`byRoad`): found, nothing else is asked. Null when step 1 needs more.
 */
function foundAsWritten(q: ParsedAddress, byRoad: DirectoryEntry[] | undefined, limit: number): DirectoryEntry[] | null {
  const { road } = q;
  if (!byRoad || !road || q.jibun || limit <= 0) return null;
  const found = byRoad.filter((e) => inSido(q, e));
  return found.length === 0 ? null : dedupe(prefer(found, (e) => e.underground === road.underground), limit);
}

/** Stable: matching entries first, each group in the store's order. */
function prefer(entries: DirectoryEntry[], good: (e: DirectoryEntry) => boolean): DirectoryEntry[] {
  return [...entries.filter(good), ...entries.filter((e) => !good(e))];
}

function dedupe(entries: DirectoryEntry[], limit: number): DirectoryEntry[] {
  const seen = new Set<string>();
  const out: DirectoryEntry[] = [];
  for (const e of entries) {
    if (seen.has(e.buildingId)) continue;
    seen.add(e.buildingId);
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}
