// Where the local address directory lives: a table of buildings imported from the official
// 도로명주소 DB files. One implementation for both engines passes address-store.test.ts. Every finder returns at most `limit` rows, best first.
import type { DirectoryEntry } from '../domain/address/types.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { SIDOS } from '../domain/address/regions.ts';
import { bool, num } from './rows.ts';
import { jsonListTable, OverSql } from './sql.ts';

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

/**
 * A row as an entry. The road address is rebuilt from the row's parts rather than read from
 * `road_address`, so rows imported before the 읍/면 went into it read in today's official form.
 */
export function addressRowToEntry(r: Record<string, unknown>): DirectoryEntry {
  const e: DirectoryEntry = {
    buildingId: String(r.building_id),
    zipcode: String(r.zipcode),
    sido: String(r.sido),
    sigungu: String(r.sigungu),
    eupmyeondong: String(r.eupmyeondong),
    ri: String(r.ri),
    roadName: String(r.road_name),
    underground: bool(r.underground),
    buildingMain: Number(r.building_main),
    buildingSub: Number(r.building_sub),
    jibunMountain: bool(r.mountain),
    jibunMain: Number(r.jibun_main),
    jibunSub: Number(r.jibun_sub),
    buildingName: String(r.building_name),
    roadAddress: '',
  };
  e.roadAddress = roadAddressOf(e);
  return e;
}

const UPDATE_CHANGED = `ON CONFLICT (building_id) DO UPDATE SET zipcode = excluded.zipcode, sido = excluded.sido, sigungu = excluded.sigungu,
    eupmyeondong = excluded.eupmyeondong, ri = excluded.ri, road_name = excluded.road_name, underground = excluded.underground,
    building_main = excluded.building_main, building_sub = excluded.building_sub, mountain = excluded.mountain,
    jibun_main = excluded.jibun_main, jibun_sub = excluded.jibun_sub, building_name = excluded.building_name,
    road_address = excluded.road_address`;

const columnsOf = (e: DirectoryEntry): unknown[] => [
  e.buildingId, e.zipcode, e.sido, e.sigungu, e.eupmyeondong, e.ri, e.roadName, e.underground,
  e.buildingMain, e.buildingSub, e.jibunMountain, e.jibunMain, e.jibunSub, e.buildingName, e.roadAddress,
];

/** A building by its 시군구, road and number: what findByRoadMany is asked. */
export interface RoadKey {
  sigungu: string;
  roadName: string;
  main: number;
  sub: number;
}

/** A RoadKey as text (the JSON of its parts, without the brackets). */
export const roadKey = (k: RoadKey): string => JSON.stringify([k.sigungu, k.roadName, k.main, k.sub]).slice(1, -1);

const ROAD_KEYS_PER_STATEMENT = 1_000;

export class AddressStore extends OverSql {
  async #select(where: string[], order: string, params: unknown[], limit: number): Promise<DirectoryEntry[]> {
    const sql = `SELECT ${ADDRESS_COLUMNS} FROM address_directory WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`;
    return (await this.sql.all(sql, [...params, Math.max(0, limit)])).map(addressRowToEntry);
  }

  /**
   * Inserts or replaces entries by buildingId; any number per call, written in batches, each batch
   * atomically. The same buildingId twice in one call keeps the last.
   */
  async upsertEntries(entries: readonly DirectoryEntry[]): Promise<void> {
    for (const b of inBatches(lastPerBuilding(entries))) {
      if (this.sql.dialect === 'postgres') {
        // one statement per batch: fifteen arrays are fifteen parameters whatever the row count, so
        // the 65,535-parameter limit of multi-row VALUES never applies; an unchanged row is left
        // alone, so a monthly re-import writes (and bloats) only what changed
        const columns = b.map(columnsOf);
        await this.sql.run(
          `INSERT INTO address_directory (${ADDRESS_COLUMNS})
           SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[],
             ?::int[], ?::int[], ?::boolean[], ?::int[], ?::int[], ?::text[], ?::text[])
           ${UPDATE_CHANGED} WHERE (address_directory.*) IS DISTINCT FROM (excluded.*)`,
          columnsOf(b[0]!).map((_, i) => columns.map((c) => c[i])),
        );
        continue;
      }
      // the embedded store: a prepared statement per row, one transaction per batch (a commit per
      // row would make an import take hours)
      await this.sql.tx(async (t) => {
        for (const e of b) {
          await t.run(`INSERT INTO address_directory (${ADDRESS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${UPDATE_CHANGED}`, columnsOf(e));
        }
      });
    }
  }

  /**
   * Buildings on a road. null sigungu: in any 시군구 (the caller filters); null main: any number on
   * the road; null sub: any 부번, 0 (the main building) first.
   */
  findByRoad(sigungu: string | null, roadName: string, main: number | null, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    // conditions are left out rather than written "? IS NULL OR ...", which would hide the index
    const where = ['road_name = ?'];
    const params: unknown[] = [roadName];
    if (sigungu !== null) { where.unshift('sigungu = ?'); params.unshift(sigungu); }
    if (main !== null) { where.push('building_main = ?'); params.push(main); }
    if (sub !== null) { where.push('building_sub = ?'); params.push(sub); }
    return this.#select(where, 'building_main, building_sub, underground, building_id', params, limit);
  }

  /**
   * findByRoad(sigungu, road, main, sub, limit) of many buildings in one statement (a batch
   * chunk's addresses): the same rows in the same order for each, keyed by roadKey. A statement
   * per address spent most of its time in the statement, not in the index.
   */
  async findByRoadMany(keys: readonly RoadKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    const out = new Map<string, DirectoryEntry[]>();
    for (const k of keys) out.set(roadKey(k), []);
    const distinct = [...out.keys()];
    for (let at = 0; at < distinct.length; at += ROAD_KEYS_PER_STATEMENT) {
      const part = distinct.slice(at, at + ROAD_KEYS_PER_STATEMENT).map((k) => JSON.parse(`[${k}]`) as [string, string, number, number]);
      const rows = await this.sql.all(
        `SELECT ${ADDRESS_COLUMNS.split(', ').map((c) => `a.${c}`).join(', ')}
         FROM ${jsonListTable(this.sql.dialect)} JOIN address_directory a
           ON a.sigungu = k.value ->> 0 AND a.road_name = k.value ->> 1 AND a.building_main = (k.value ->> 2)::int AND a.building_sub = (k.value ->> 3)::int`,
        [JSON.stringify(part)],
      );
      for (const r of rows) {
        const e = addressRowToEntry(r);
        out.get(roadKey({ sigungu: e.sigungu, roadName: e.roadName, main: e.buildingMain, sub: e.buildingSub }))?.push(e);
      }
    }
    // findByRoad's ORDER BY building_main, building_sub, underground, building_id (one main and sub per key)
    for (const [k, list] of out) {
      out.set(k, list.toSorted((a, b) => Number(a.underground) - Number(b.underground) || (a.buildingId < b.buildingId ? -1 : a.buildingId > b.buildingId ? 1 : 0)).slice(0, Math.max(0, limit)));
    }
    return out;
  }

  /**
   * The road names of a 시군구, for typo-tolerant lookups ("성남시" also reads its 일반구, "성남시
   * 분당구", as regions.ts lists them): an index range per name, at most a few thousand names.
   * (Not `LIKE '성남시 %'`: neither engine reads a LIKE off the index here, so every call scanned
   * the whole directory — 1.4 s of a 10,000-row named job on 200,000 buildings.)
   */
  async roadNamesIn(sigungu: string): Promise<string[]> {
    const names = [sigungu, ...SIDOS.flatMap((s) => s.sigungu.filter((n) => n.startsWith(`${sigungu} `)))];
    const rows = await this.sql.all(`SELECT DISTINCT road_name FROM address_directory WHERE sigungu IN (${names.map(() => '?').join(', ')})`, names);
    return rows.map((r) => String(r.road_name));
  }

  /** Buildings on a road of that name, within one 시도 when given. */
  findByRoadName(roadName: string, sido: string | null, limit: number): Promise<DirectoryEntry[]> {
    const where = ['road_name = ?'];
    const params: unknown[] = [roadName];
    if (sido !== null) { where.push('sido = ?'); params.push(sido); }
    return this.#select(where, 'sigungu, building_main, building_sub, building_id', params, limit);
  }

  /**
   * Buildings by their name (시군구용건물명) as written or without its spaces, within the 시도 and
   * 시군구 when given ("정자동 한빛타워": a building many offices write by its name alone).
   */
  findByBuildingName(forms: readonly string[], sido: string | null, sigungu: string | null, limit: number): Promise<DirectoryEntry[]> {
    if (forms.length === 0) return Promise.resolve([]);
    // "building_name <> ''" lets either engine read the partial index
    const where = [`building_name IN (${forms.map(() => '?').join(', ')})`, "building_name <> ''"];
    const params: unknown[] = [...forms];
    if (sido !== null) { where.push('sido = ?'); params.push(sido); }
    if (sigungu !== null) { where.push('sigungu = ?'); params.push(sigungu); }
    return this.#select(where, 'sigungu, eupmyeondong, building_main, building_sub, building_id', params, limit);
  }

  /** Buildings on a lot. `dong` is the 법정동/읍/면 or the 법정리 as written; null sub: any 부번. */
  findByJibun(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    // each arm of the OR matches one index whole (two index lookups on SQLite, a BitmapOr on
    // PostgreSQL); "ri <> ''" is spelled out because only then may the partial index be used
    const lot = sub === null ? 'jibun_main = ?' : 'jibun_main = ? AND jibun_sub = ?';
    const lotParams: unknown[] = sub === null ? [main] : [main, sub];
    const where = [`((eupmyeondong = ? AND ${lot}) OR (ri = ? AND ri <> '' AND ${lot}))`];
    const params: unknown[] = [dong, ...lotParams, dong, ...lotParams];
    if (sido !== null) { where.push('sido = ?'); params.push(sido); }
    if (sigungu !== null) { where.push('sigungu = ?'); params.push(sigungu); }
    return this.#select(where, 'jibun_sub, mountain, building_main, building_sub, building_id', params, limit);
  }

  /**
   * Statistics for the planner after an import. Without them SQLite reads a lot by the 시군구
   * index (every building of the 시군구) rather than by the lot's own index: ten times slower.
   */
  async analyze(): Promise<void> {
    await this.sql.run('ANALYZE address_directory');
  }

  async count(): Promise<number> {
    return num(await this.sql.get('SELECT count(*) AS n FROM address_directory'));
  }
}
