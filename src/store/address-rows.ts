// How the local address directory's rows read and write: the columns of a building, a former
// road and a related lot, and the entry a row is (one mapping for both engines, as rows.ts's).
import type { DirectoryEntry, FormerRoad, RelatedLot } from '../domain/address/types.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { bool } from './rows.ts';

/** Every column of a building, in table order (what an import writes). */
export const ADDRESS_COLUMNS =
  'building_id, zipcode, sido, sigungu, eupmyeondong, ri, road_name, underground, building_main, building_sub, ' +
  'mountain, jibun_main, jibun_sub, building_name, road_address, register_name, apartment';

/**
 * The columns an entry is read from, in entryOf's order: ADDRESS_COLUMNS but `road_address`,
 * which entryOf rebuilds from the row's parts (so rows imported before the 읍/면 went into it read
 * in today's official form); left out, each row brings one string fewer.
 */
export const ENTRY_COLUMNS = ADDRESS_COLUMNS.split(', ').filter((c) => c !== 'road_address');
export const ENTRY_SELECT = ENTRY_COLUMNS.join(', ');
/** ENTRY_SELECT of address_directory joined as `a`. */
export const JOINED_COLUMNS = ENTRY_COLUMNS.map((c) => `a.${c}`).join(', ');

/**
 * A row of ENTRY_SELECT, as an array: finders read rows as arrays, for which the driver builds no
 * object per row (~1 µs a row: 20 rows of a road without a number, 70 → 50 µs).
 */
export function entryOf(r: readonly unknown[]): DirectoryEntry {
  const e: DirectoryEntry = {
    buildingId: String(r[0]),
    zipcode: String(r[1]),
    sido: String(r[2]),
    sigungu: String(r[3]),
    eupmyeondong: String(r[4]),
    ri: String(r[5]),
    roadName: String(r[6]),
    underground: bool(r[7]),
    buildingMain: Number(r[8]),
    buildingSub: Number(r[9]),
    jibunMountain: bool(r[10]),
    jibunMain: Number(r[11]),
    jibunSub: Number(r[12]),
    buildingName: String(r[13]),
    roadAddress: '',
  };
  e.roadAddress = roadAddressOf(e);
  const registerName = typeof r[14] === 'string' ? r[14] : '';
  if (registerName !== '') e.registerName = registerName;
  if (bool(r[15])) e.apartment = true;
  return e;
}

/** A row of ADDRESS_COLUMNS (or ENTRY_SELECT) as an object, as an entry. */
export function addressRowToEntry(r: Record<string, unknown>): DirectoryEntry {
  return entryOf(ENTRY_COLUMNS.map((c) => r[c]));
}

export const columnsOf = (e: DirectoryEntry): unknown[] => [
  e.buildingId, e.zipcode, e.sido, e.sigungu, e.eupmyeondong, e.ri, e.roadName, e.underground,
  e.buildingMain, e.buildingSub, e.jibunMountain, e.jibunMain, e.jibunSub, e.buildingName, e.roadAddress, e.registerName ?? '', e.apartment === true,
];

/** A former road address of a building, as an import hands it over. */
export interface FormerRoadOf {
  buildingId: string;
  former: FormerRoad;
}

/** A related lot of a building (관련지번), with the 시도 and 시군구 its lookups narrow by. */
export interface RelatedLotOf {
  buildingId: string;
  sido: string;
  sigungu: string;
  lot: RelatedLot;
}

export const FORMER_COLUMNS = 'building_id, sigungu, road_name, underground, building_main, building_sub';
export const formerColumnsOf = (f: FormerRoadOf): unknown[] => [f.buildingId, f.former.sigungu, f.former.roadName, f.former.underground, f.former.main, f.former.sub];
export const LOT_COLUMNS = 'building_id, sido, sigungu, eupmyeondong, ri, mountain, jibun_main, jibun_sub';
export const lotColumnsOf = (l: RelatedLotOf): unknown[] => [l.buildingId, l.sido, l.sigungu, l.lot.eupmyeondong, l.lot.ri, l.lot.mountain, l.lot.main, l.lot.sub];

/** An entry found through a former road or a related lot: the columns, then the way it was found. */
export function foundVia(r: Record<string, unknown>, via: NonNullable<DirectoryEntry['via']>): DirectoryEntry {
  return { ...addressRowToEntry(r), via };
}

/** Entries of one road and number in findByRoad's order: above ground first, then by building. */
export const byUndergroundThenId = (a: DirectoryEntry, b: DirectoryEntry): number =>
  Number(a.underground) - Number(b.underground) || (a.buildingId < b.buildingId ? -1 : a.buildingId > b.buildingId ? 1 : 0);

/** One building as roadNumbersIn reads it: road name, 본번, 부번, and its row (SQLite's rowid; null on PostgreSQL). */
export type RoadNumberRow = readonly [road: string, main: number, sub: number, ref: number | null];
