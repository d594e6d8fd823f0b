// The sandbox address directory: answers from the SYNTHETIC world of sandbox-data.ts (documented
// in SANDBOX.md), so the service and its tests run with no juso key and no address DB import.
// It looks candidates up the way the juso search does — by road and number, else by road name
// with typos forgiven, and by lot — and orders them with the matcher's own scoring.

import { buildingNameKey, fitCandidate, legalDongOf, mayBeDongTypo, namesBuilding, sigunguAgrees } from '../domain/address/match.ts';
import { RoadNameIndex } from '../domain/address/road-names.ts';
import type { AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { lotNumber, sandboxWorld, sigunguRoadKey } from './sandbox-data.ts';
import type { SandboxWorld } from './sandbox-data.ts';

const DEFAULT_LIMIT = 20;

export class SandboxDirectory implements AddressDirectory {
  readonly source = 'sandbox' as const;

  find(query: ParsedAddress, limit: number = DEFAULT_LIMIT): Promise<DirectoryEntry[]> {
    return Promise.resolve(findCandidates(sandboxWorld(), query, limit));
  }

  /** the bundled world never changes */
  version(): Promise<number> {
    return Promise.resolve(0);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}


const nameIndexes = new WeakMap<SandboxWorld, Map<string, DirectoryEntry[]>>();
/** The world's named buildings by their name (spacing and case aside), built once. */
const byName = (world: SandboxWorld): Map<string, DirectoryEntry[]> => {
  let index = nameIndexes.get(world);
  if (!index) {
    index = new Map();
    for (const e of world.entries) {
      if (e.buildingName === '') continue;
      const key = buildingNameKey(e.buildingName);
      const list = index.get(key);
      if (list) list.push(e);
      else index.set(key, [e]);
    }
    nameIndexes.set(world, index);
  }
  return index;
};

const roadIndexes = new WeakMap<SandboxWorld, RoadNameIndex>();
const nearRoads = (world: SandboxWorld): RoadNameIndex => {
  let index = roadIndexes.get(world);
  if (!index) roadIndexes.set(world, (index = new RoadNameIndex(world.roadNames)));
  return index;
};

const dongIndexes = new WeakMap<SandboxWorld, RoadNameIndex>();
/** Every 동, 읍/면 and 리 of the world with a lot, for a mistyped one. */
const nearDongs = (world: SandboxWorld): RoadNameIndex => {
  let index = dongIndexes.get(world);
  if (!index) dongIndexes.set(world, (index = new RoadNameIndex(world.byJibun.keys())));
  return index;
};

// one collator for every comparison: localeCompare with a locale builds one per call (most of a lookup's time)
const BY_ADDRESS = new Intl.Collator('ko', { numeric: true });

export function findCandidates(world: SandboxWorld, q: ParsedAddress, limit: number = DEFAULT_LIMIT): DirectoryEntry[] {
  const pool = new Map<string, DirectoryEntry>();
  const add = (list: readonly DirectoryEntry[] | undefined, keep: (e: DirectoryEntry) => boolean): void => {
    for (const e of list ?? []) if (keep(e)) pool.set(e.buildingId, e);
  };
  const inScope = (e: DirectoryEntry): boolean =>
    (q.sido === null || e.sido === q.sido) && (q.sigungu === null || sigunguAgrees(q.sigungu, e.sigungu));
  const numberFits = (e: DirectoryEntry): boolean => q.road === null || e.buildingMain === q.road.main;
  const numberFitsInSido = (e: DirectoryEntry): boolean => numberFits(e) && (q.sido === null || e.sido === q.sido);

  const roadName = q.road?.name ?? q.roadNameOnly;
  if (roadName !== null) {
    // the usual case first: the road where the input says it is
    if (q.sido !== null && (q.sigungu !== null || q.sido === '세종특별자치시')) {
      add(world.bySigunguRoad.get(sigunguRoadKey(q.sido, q.sigungu ?? '', roadName)), numberFits);
    }
    // the road elsewhere only when it is not there: as the local directory, from the most specific
    // question to the broadest (the nationwide list of a common road name is hundreds of buildings)
    // — within the written 시도 (a wrong or outdated 시군구), never in another one
    if (pool.size === 0) add(world.byRoad.get(roadName), numberFitsInSido);
    // a typo, or a road that is not where the input says: similar names too, within the written
    // 시도 (전북 익산시 중앙로 1 is not 서울 동작구 중앙로 1)
    if (![...pool.values()].some(inScope)) {
      for (const other of nearRoads(world).near(roadName)) add(world.byRoad.get(other), numberFitsInSido);
    }
    // no number but the building's name ("매영로 (영통중앙상가)"): the buildings of that name on the road, when it has one
    if (q.road === null && q.buildingName !== null) {
      const written = q.buildingName;
      const named = [...pool.values()].filter((e) => e.roadName === roadName && inScope(e) && namesBuilding(written, e));
      if (named.length > 0) {
        pool.clear();
        add(named, () => true);
      }
    }
  }
  if (q.jibun !== null) {
    const { dong, mountain, main, sub } = q.jibun;
    const lot = lotNumber(mountain, main, sub);
    // within a written 시도; without one, only in a 시군구 the written one names (상동 999 is in many
    // places), as the local directory
    const lotInScope = (e: DirectoryEntry): boolean => (q.sido !== null ? e.sido === q.sido : q.sigungu === null || sigunguAgrees(q.sigungu, e.sigungu));
    for (const d of new Set([dong, legalDongOf(dong)])) add(world.byJibun.get(d)?.get(lot), lotInScope);
    // a 동 a typo away ("하대운동" for 하대원동), within the written 시군구, as the local directory
    if (pool.size === 0 && q.sigungu !== null && mayBeDongTypo(dong)) {
      for (const near of nearDongs(world).near(legalDongOf(dong))) add(world.byJibun.get(near)?.get(lot), inScope);
    }
  }
  if (roadName === null && q.jibun === null && q.buildingName !== null) {
    // a building by its name, anywhere its 동 (and 시도, 시군구, when written) agree
    const dong = q.eupmyeondong === null ? null : legalDongOf(q.eupmyeondong.split(' ').pop()!);
    add(byName(world).get(buildingNameKey(q.buildingName)), (e) => inScope(e) && (dong === null || e.eupmyeondong === dong || e.ri === dong));
  }
  if (roadName === null && q.jibun === null && q.eupmyeondong !== null && (q.sido !== null || q.sigungu !== null)) {
    // a 동 without a number: its buildings, so the answer is "which one?" rather than "nowhere"
    const dong = legalDongOf(q.eupmyeondong.split(' ').pop()!);
    add(world.entries, (e) => (e.eupmyeondong === dong || e.ri === dong) && inScope(e));
  }

  return [...pool.values()]
    .map((e) => ({ e, fit: fitCandidate(q, e) }))
    .toSorted((a, b) => Number(b.fit.plausible) - Number(a.fit.plausible) || a.fit.penalty - b.fit.penalty
      || BY_ADDRESS.compare(a.e.roadAddress, b.e.roadAddress))
    .slice(0, Math.max(0, limit))
    .map(({ e }) => e);
}
