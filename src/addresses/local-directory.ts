// An AddressDirectory over the imported 도로명주소 DB (an AddressStore): no network, no quota.
// Asks from the most specific question to the broadest and stops at the first that finds
// anything, so "exact" answers are never diluted by guesses.

import type { AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import type { AddressStore } from '../store/address-store.ts';

/** Rows fetched when a filter the store cannot apply (the 시도 of a road search) runs afterwards. */
const OVERFETCH = 4;

export class LocalDirectory implements AddressDirectory {
  readonly source = 'local' as const;
  readonly #store: AddressStore;

  /** The store is borrowed: close() leaves it open for whoever owns it. */
  constructor(store: AddressStore) {
    this.#store = store;
  }

  async find(q: ParsedAddress, limit = 20): Promise<DirectoryEntry[]> {
    if (limit <= 0) return [];
    const { road, jibun } = q;
    const inSido = (e: DirectoryEntry): boolean => q.sido === null || e.sido === q.sido;
    const wide = limit * OVERFETCH;

    // 1. the building as written: road + number in the 시군구, and the lot in its 동 (an input
    //    may carry both forms; both are evidence for the same building)
    const exact: DirectoryEntry[] = [];
    if (road) {
      const found = await this.#store.findByRoad(q.sigungu, road.name, road.main, road.sub, q.sigungu === null ? wide : limit);
      exact.push(...prefer(found.filter(inSido), (e) => e.underground === road.underground));
    }
    if (jibun) {
      const found = await this.#store.findByJibun(q.sido, q.sigungu, jibun.dong, jibun.main, jibun.sub, limit);
      exact.push(...prefer(found, (e) => e.jibunMountain === jibun.mountain));
    }
    if (exact.length > 0) return dedupe(exact, limit);

    // 2. the same road and number in another 시군구 of the 시도 (a wrong or outdated 시군구)
    if (road && q.sigungu !== null) {
      const found = (await this.#store.findByRoad(null, road.name, road.main, road.sub, wide)).filter(inSido);
      if (found.length > 0) return dedupe(found, limit);
    }

    // 3. the road within the 시도, whatever the number (a wrong or missing 건물번호)
    const roadName = road?.name ?? q.roadNameOnly;
    if (roadName) {
      const found = await this.#store.findByRoadName(roadName, q.sido, wide);
      if (found.length > 0) return dedupe(prefer(found, (e) => q.sigungu === null || e.sigungu === q.sigungu), limit);
    }

    // 4. the lot whatever its 부번 (737 written for 737-1, or the other way round)
    if (jibun) {
      const found = await this.#store.findByJibun(q.sido, q.sigungu, jibun.dong, jibun.main, null, limit);
      if (found.length > 0) return dedupe(found, limit);
    }
    return [];
  }

  async close(): Promise<void> {}
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
