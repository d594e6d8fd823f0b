// An AddressDirectory over the imported 도로명주소 DB (an AddressStore): no network, no quota.
// Asks from the most specific question to the broadest and stops at the first that finds
// anything, so "exact" answers are never diluted by guesses. A road name written with a typo is
// looked for among the roads of the written 시군구 by the matcher's own rule (roadNameDistance),
// as the sandbox directory does, so the matcher sees the candidates its tolerance is for. A road
// address no building has today is looked for among former ones (이전도로명주소), and a lot no
// building's own among related lots (관련지번); such a candidate says how it was found (`via`).

import { buildingNameForms, dongAgrees, RoadNameIndex, sigunguAgrees } from '../domain/address/match.ts';
import type { AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { roadKey, type AddressStore, type RoadKey } from '../store/address-store.ts';

const SEJONG = '세종특별자치시';
/** Rows fetched when a filter the store cannot apply (the 시도 of a road search) runs afterwards. */
const OVERFETCH = 4;
/** Near road names tried for a typo, closest first. */
const NEAR_ROADS = 3;
/** A 시군구's road names are kept this long (an import meanwhile shows after it) and for this many 시군구. */
const ROADS_TTL_MS = 10 * 60_000;
const ROADS_KEPT = 256;

export class LocalDirectory implements AddressDirectory {
  readonly source = 'local' as const;
  readonly #store: AddressStore;
  readonly #roads = new Map<string, { index: RoadNameIndex; until: number }>();
  readonly #now: () => number;

  /** The store is borrowed: close() leaves it open for whoever owns it. */
  constructor(store: AddressStore, opts: { now?: () => number } = {}) {
    this.#store = store;
    this.#now = opts.now ?? Date.now;
  }

  /** Roads of the 시군구 that `written` could be a typo of (not itself), closest first. */
  async #nearRoads(sigungu: string, written: string): Promise<string[]> {
    const now = this.#now();
    let kept = this.#roads.get(sigungu);
    if (!kept || kept.until <= now) {
      if (this.#roads.size >= ROADS_KEPT) this.#roads.delete(this.#roads.keys().next().value!);
      kept = { index: new RoadNameIndex(await this.#store.roadNamesIn(sigungu)), until: now + ROADS_TTL_MS };
      this.#roads.set(sigungu, kept);
    }
    return kept.index.near(written).slice(0, NEAR_ROADS);
  }

  /**
   * find() of many addresses (a batch chunk's): the buildings written with a road, number and
   * 시군구 — most of a list — are looked up in one statement first; each address then goes the
   * way find() goes, with that answer in place of its first question. Same candidates as find().
   */
  async findMany(qs: readonly ParsedAddress[], limit = 20): Promise<DirectoryEntry[][]> {
    const keys: RoadKey[] = [];
    for (const q of qs) {
      const k = exactKeyOf(q);
      if (k) keys.push(k);
    }
    const known = keys.length > 0 && limit > 0 ? await this.#store.findByRoadMany(keys, limit) : new Map<string, DirectoryEntry[]>();
    const out: DirectoryEntry[][] = [];
    for (const q of qs) {
      const k = exactKeyOf(q);
      out.push(await this.#find(q, limit, k ? known.get(roadKey(k)) : undefined));
    }
    return out;
  }

  find(q: ParsedAddress, limit = 20): Promise<DirectoryEntry[]> {
    return this.#find(q, limit, undefined);
  }

  /** `byRoad`: the answer to the first question (the building as written, in its 시군구), when known already. */
  async #find(q: ParsedAddress, limit: number, byRoad: DirectoryEntry[] | undefined): Promise<DirectoryEntry[]> {
    if (limit <= 0) return [];
    const { road, jibun } = q;
    const inSido = (e: DirectoryEntry): boolean => q.sido === null || e.sido === q.sido;
    const wide = limit * OVERFETCH;

    // 1. the building as written: road + number in the 시군구, and the lot in its 동 (an input
    //    may carry both forms; both are evidence for the same building)
    const exact: DirectoryEntry[] = [];
    if (road) {
      let found = (byRoad ?? (await this.#store.findByRoad(q.sigungu, road.name, road.main, road.sub, q.sigungu === null ? wide : limit))).filter(inSido);
      // no building has that address today: one may have had it before its road was renamed
      if (found.length === 0) {
        found = (await this.#store.findByFormerRoad(null, road.name, road.main, road.sub, wide))
          .filter((e) => inSido(e) && (q.sigungu === null || (e.via?.kind === 'former_road' && sigunguAgrees(q.sigungu, e.via.sigungu))));
      }
      exact.push(...prefer(found, (e) => e.underground === road.underground));
    }
    if (jibun) {
      let found = await this.#store.findByJibun(q.sido, q.sigungu, jibun.dong, jibun.main, jibun.sub, limit);
      // no building's own lot: a building may stand on it as well (관련지번)
      if (found.length === 0) found = await this.#store.findByRelatedLot(q.sido, q.sigungu, jibun.dong, jibun.main, jibun.sub, limit);
      exact.push(...prefer(found, (e) => (e.via?.kind === 'related_lot' ? e.via.mountain : e.jibunMountain) === jibun.mountain));
    }
    if (exact.length > 0) return dedupe(exact, limit);

    // 2. a road of the 시군구 whose name is a typo away, with the number as written; and the same
    //    road and number in another 시군구 of the 시도 (a wrong or outdated 시군구). Both kinds go
    //    to the matcher, which ranks a typo against a wrong 시군구 (or calls it ambiguous).
    const inSigungu = (e: DirectoryEntry): boolean => q.sigungu === null || sigunguAgrees(q.sigungu, e.sigungu);
    // the roads a typo is looked for among: the written 시군구's, or 세종's (it has no 시군구)
    const scope = q.sigungu ?? (q.sido === SEJONG ? '' : null);
    if (road && scope !== null) {
      const near = await this.#nearRoads(scope, road.name);
      const at = await this.#store.findByRoadsAt([...near, road.name], road.main, road.sub, wide);
      const found: DirectoryEntry[] = [];
      for (const name of near) found.push(...at.get(name)!.filter((e) => inSido(e) && inSigungu(e)));
      found.push(...at.get(road.name)!.filter(inSido));
      if (found.length > 0) return dedupe(found, limit);
    }

    // 3. the road within the 시도, whatever the number (a wrong or missing 건물번호); a road of the
    //    시군구 a typo away when none has the name as written. With a number written, only the
    //    buildings of that 본번 can be the one meant (another 부번, say); when there are none, one
    //    building of the road is enough to tell the matcher the road exists (no such number).
    const roadName = road?.name ?? q.roadNameOnly;
    if (roadName) {
      // `enough`: how many buildings of a road without that 본번 tell it exists (1 unless a
      // filter by 시군구 follows)
      const onRoad = async (name: string, enough: number): Promise<DirectoryEntry[]> => {
        if (!road) {
          // no number: the road's buildings in the written 시군구 first, those elsewhere in the
          // 시도 only to fill up the list (it stays ambiguous whatever it holds)
          const near = q.sigungu === null ? [] : (await this.#store.findByRoad(q.sigungu, name, null, null, limit)).filter(inSido);
          return near.length >= limit ? near : [...near, ...(await this.#store.findByRoadName(name, q.sido, wide))];
        }
        const same = (await this.#store.findByRoad(null, name, road.main, null, wide)).filter(inSido);
        return same.length > 0 ? same : this.#store.findByRoadName(name, q.sido, enough);
      };
      let found = await onRoad(roadName, 1);
      // a road renamed since: its old name still finds its buildings
      if (found.length === 0) found = (await this.#store.findByFormerRoad(null, roadName, null, null, wide)).filter(inSido);
      if (found.length > 0) return dedupe(prefer(found, (e) => q.sigungu === null || e.sigungu === q.sigungu), limit);
      if (scope !== null) {
        const near: DirectoryEntry[] = [];
        for (const name of await this.#nearRoads(scope, roadName)) near.push(...(await onRoad(name, wide)).filter(inSigungu));
        if (near.length > 0) return dedupe(near, limit);
      }
    }

    // 4. the lot whatever its 부번 (737 written for 737-1, or the other way round)
    if (jibun) {
      const found = await this.#store.findByJibun(q.sido, q.sigungu, jibun.dong, jibun.main, null, limit);
      if (found.length > 0) return dedupe(found, limit);
    }

    // 5. neither road nor lot: the building by its name, in the 동 when one is written
    if (!roadName && !jibun && q.buildingName) {
      const dong = q.eupmyeondong?.split(' ').pop() ?? null;
      const found = (await this.#store.findByBuildingName(buildingNameForms(q.buildingName), q.sido, null, wide)).filter((e) => inSigungu(e) && (dong === null || dongAgrees(dong, e)));
      if (found.length > 0) return dedupe(found, limit);
    }
    return [];
  }

  async close(): Promise<void> {}
}

/** The first question find() asks of an address, when findByRoadMany can answer it. */
function exactKeyOf(q: ParsedAddress): RoadKey | null {
  const { road } = q;
  if (!road || q.sigungu === null) return null;
  return { sigungu: q.sigungu, roadName: road.name, main: road.main, sub: road.sub };
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
