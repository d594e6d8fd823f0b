// Where the local address directory lives: a table of buildings imported from the official
// 도로명주소 DB files. Two implementations (addresses-sqlite.ts, addresses-postgres.ts) pass the
// same suite (address-store.test.ts). Every finder returns at most `limit` rows, best first.
import type { DirectoryEntry } from '../domain/address/types.ts';

export interface AddressStore {
  /**
   * Inserts or replaces entries by buildingId; any number per call, written in batches, each batch
   * atomically. The same buildingId twice in one call keeps the last.
   */
  upsertEntries(entries: readonly DirectoryEntry[]): Promise<void>;
  /**
   * Buildings on a road. null sigungu: in any 시군구 (the caller filters); null main: any number on
   * the road; null sub: any 부번, 0 (the main building) first.
   */
  findByRoad(sigungu: string | null, roadName: string, main: number | null, sub: number | null, limit: number): Promise<DirectoryEntry[]>;
  /** Buildings on a road of that name, within one 시도 when given. */
  findByRoadName(roadName: string, sido: string | null, limit: number): Promise<DirectoryEntry[]>;
  /** Buildings on a lot. `dong` is the 법정동/읍/면 or the 법정리 as written; null sub: any 부번. */
  findByJibun(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]>;
  count(): Promise<number>;
}

/**
 * Rows per transaction / statement. A commit rewrites every index page the batch touched, so on
 * SQLite 5,000 rows import ~40% faster than 2,000; PostgreSQL does not care. Larger batches
 * would hold the write lock (and ~5 MB of rows) longer for little more.
 */
export const ADDRESS_BATCH_SIZE = 5_000;

/** Last write wins within one call, as it would across calls; PostgreSQL refuses a row twice per statement. */
export function lastPerBuilding(entries: readonly DirectoryEntry[]): DirectoryEntry[] {
  const byId = new Map<string, DirectoryEntry>();
  for (const e of entries) byId.set(e.buildingId, e);
  return byId.size === entries.length ? [...entries] : [...byId.values()];
}

export function* inBatches<T>(items: readonly T[], size: number = ADDRESS_BATCH_SIZE): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The columns every finder selects, in table order. */
export const ADDRESS_COLUMNS =
  'building_id, zipcode, sido, sigungu, eupmyeondong, ri, road_name, underground, building_main, building_sub, ' +
  'mountain, jibun_main, jibun_sub, building_name, road_address';

/** SQLite hands flags back as 0/1, PostgreSQL as booleans; both read the same here. */
const flag = (v: unknown): boolean => v === true || v === 1 || v === 1n;

export function addressRowToEntry(r: Record<string, unknown>): DirectoryEntry {
  return {
    buildingId: String(r.building_id),
    zipcode: String(r.zipcode),
    sido: String(r.sido),
    sigungu: String(r.sigungu),
    eupmyeondong: String(r.eupmyeondong),
    ri: String(r.ri),
    roadName: String(r.road_name),
    underground: flag(r.underground),
    buildingMain: Number(r.building_main),
    buildingSub: Number(r.building_sub),
    jibunMountain: flag(r.mountain),
    jibunMain: Number(r.jibun_main),
    jibunSub: Number(r.jibun_sub),
    buildingName: String(r.building_name),
    roadAddress: String(r.road_address),
  };
}
