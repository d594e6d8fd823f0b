// Where the local address directory lives: a table of buildings imported from the official
// 도로명주소 DB files. One implementation for both engines passes address-store.test.ts. Every finder returns at most `limit` rows, best first.
import type { DirectoryEntry } from '../domain/address/types.ts';
import {
  ADDRESS_COLUMNS, byUndergroundThenId, columnsOf, entryOf, FORMER_COLUMNS, formerColumnsOf, foundVia, JOINED_COLUMNS, LOT_COLUMNS, lotColumnsOf, ENTRY_SELECT,
  type FormerRoadOf, type RelatedLotOf, type RoadNumberRow,
} from './address-rows.ts';
import { SIDOS } from '../domain/address/regions.ts';
import { bool, num } from './rows.ts';
import { jsonListTable, OverSql } from './sql.ts';

// where callers have long found them
export { ADDRESS_COLUMNS, addressRowToEntry, type FormerRoadOf, type RelatedLotOf } from './address-rows.ts';

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

const UPDATE_CHANGED = `ON CONFLICT (building_id) DO UPDATE SET zipcode = excluded.zipcode, sido = excluded.sido, sigungu = excluded.sigungu,
    eupmyeondong = excluded.eupmyeondong, ri = excluded.ri, road_name = excluded.road_name, underground = excluded.underground,
    building_main = excluded.building_main, building_sub = excluded.building_sub, mountain = excluded.mountain,
    jibun_main = excluded.jibun_main, jibun_sub = excluded.jibun_sub, building_name = excluded.building_name,
    road_address = excluded.road_address, register_name = excluded.register_name, apartment = excluded.apartment`;

/** The i-th value of a JSON row of json_each(?) AS n. */
const v = (i: number): string => `n.value ->> ${i}`;

/** A building by its 시군구, road and number: what findByRoadMany is asked. */
export interface RoadKey {
  sigungu: string;
  roadName: string;
  main: number;
  sub: number;
}

/** A RoadKey as text: its parts joined by U+0001, which no name the parser reads (Hangul and digits) holds. */
export const roadKey = (k: RoadKey): string => `${k.sigungu}\u0001${k.roadName}\u0001${k.main}\u0001${k.sub}`;

/** A building by its road and number in any 시군구: what findByRoadAnywhereMany is asked. */
export interface AnywhereKey {
  roadName: string;
  main: number;
  sub: number;
}

export const anywhereKey = (k: AnywhereKey): string => `${k.roadName}\u0001${k.main}\u0001${k.sub}`;

/** A road's 본번 in any 시군구, whatever its 부번: what findByRoadMainMany is asked. */
export interface MainKey {
  roadName: string;
  main: number;
}

export const mainKey = (k: MainKey): string => `${k.roadName}\u0001${k.main}`;

/** A road by its name, within a 시도 when one is given: what findByRoadNameMany is asked. */
export interface RoadNameKey {
  roadName: string;
  sido: string | null;
}

export const roadNameKey = (k: RoadNameKey): string => `${k.roadName}\u0001${k.sido ?? '\u0002'}`;

/** A road of a 시군구, whatever the number: what findByRoadInMany is asked. */
export interface RoadInKey {
  sigungu: string;
  roadName: string;
}

export const roadInKey = (k: RoadInKey): string => `${k.sigungu}\u0001${k.roadName}`;

/** A lot as findByJibun is asked for one (with its 부번): what findByJibunMany and findByRelatedLotMany are asked. */
export interface LotKey {
  sido: string | null;
  sigungu: string | null;
  /** the 법정동/읍/면 or 법정리 as written */
  dong: string;
  main: number;
  sub: number;
}

/** A LotKey as text (U+0002 for a 시도 or 시군구 not given, which no name holds). */
export const lotKey = (k: LotKey): string => `${k.sido ?? '\u0002'}\u0001${k.sigungu ?? '\u0002'}\u0001${k.dong}\u0001${k.main}\u0001${k.sub}`;

/** Whether a building in that 시도 and 시군구 is within a lot key's (findByJibun's `sido = ?` and `sigungu = ?`). */
const inLotScope = (k: LotKey, sido: string, sigungu: string): boolean => (k.sido === null || sido === k.sido) && (k.sigungu === null || sigungu === k.sigungu);

/** Each key once, with an empty answer to fill, in the order first asked. */
function distinctKeys<K>(keys: readonly K[], keyOf: (k: K) => string): { out: Map<string, DirectoryEntry[]>; distinct: K[] } {
  const out = new Map<string, DirectoryEntry[]>();
  const distinct: K[] = [];
  for (const k of keys) {
    const key = keyOf(k);
    if (out.has(key)) continue;
    out.set(key, []);
    distinct.push(k);
  }
  return { out, distinct };
}

/** Text compared as both engines order building ids (digits alone: the same in any collation). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** findByJibun's order: 부번, 산 after not, then the building's number and id. */
const byLotOrder = (a: DirectoryEntry, b: DirectoryEntry): number =>
  a.jibunSub - b.jibunSub || Number(a.jibunMountain) - Number(b.jibunMountain) || a.buildingMain - b.buildingMain || a.buildingSub - b.buildingSub || byText(a.buildingId, b.buildingId);

/** findByRelatedLot's order: the related lot's 부번 and 산, then the building's number and id. */
function byRelatedLotOrder(a: DirectoryEntry, b: DirectoryEntry): number {
  const la = a.via as Extract<NonNullable<DirectoryEntry['via']>, { kind: 'related_lot' }>;
  const lb = b.via as Extract<NonNullable<DirectoryEntry['via']>, { kind: 'related_lot' }>;
  return la.sub - lb.sub || Number(la.mountain) - Number(lb.mountain) || a.buildingMain - b.buildingMain || a.buildingSub - b.buildingSub || byText(a.buildingId, b.buildingId);
}

const ROAD_KEYS_PER_STATEMENT = 1_000;
/** Raises the directory's version (directoryVersion): in every transaction that writes its tables. */
const BUMP_VERSION = 'UPDATE address_directory_version SET version = version + 1';

/** The tables of the local directory, whose secondary indexes a first import defers. */
const DIRECTORY_TABLES = ['address_directory', 'address_related_lots', 'address_former_roads'];

/** A 시군구 and, for a city, its 일반구 ("성남시" → 성남시, 성남시 분당구, …), as regions.ts lists them. */
function withItsGu(sigungu: string): string[] {
  return [sigungu, ...SIDOS.flatMap((s) => s.sigungu.filter((n) => n.startsWith(`${sigungu} `)))];
}

export class AddressStore extends OverSql {
  /** Whether each statement is a round trip to a server (PostgreSQL), not a call into this process (SQLite). */
  get remote(): boolean {
    return this.sql.dialect === 'postgres';
  }

  async #select(where: string[], order: string, params: unknown[], limit: number): Promise<DirectoryEntry[]> {
    const sql = `SELECT ${ENTRY_SELECT} FROM address_directory WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`;
    return (await this.sql.arrays(sql, [...params, Math.max(0, limit)])).map(entryOf);
  }

  /**
   * Inserts or replaces entries by buildingId; any number per call, written in batches, each batch
   * atomically. The same buildingId twice in one call keeps the last.
   */
  async upsertEntries(entries: readonly DirectoryEntry[]): Promise<void> {
    for (const b of inBatches(lastPerBuilding(entries))) {
      if (this.sql.dialect === 'postgres') {
        // one statement per batch: an array per column is one parameter whatever the row count,
        // so the 65,535-parameter limit of multi-row VALUES never applies; an unchanged row is
        // left alone, so a monthly re-import writes (and bloats) only what changed
        const columns = b.map(columnsOf);
        await this.sql.run(
          `WITH n AS (
             SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[],
               ?::int[], ?::int[], ?::boolean[], ?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::boolean[])
               AS n (${ADDRESS_COLUMNS})
           ), former AS (
             INSERT INTO address_former_roads (${FORMER_COLUMNS})
             SELECT a.building_id, a.sigungu, a.road_name, a.underground, a.building_main, a.building_sub
             FROM n JOIN address_directory a ON a.building_id = n.building_id
             WHERE (a.road_name, a.underground, a.building_main, a.building_sub) IS DISTINCT FROM (n.road_name, n.underground, n.building_main, n.building_sub)
             ON CONFLICT DO NOTHING
           ), bump AS (${BUMP_VERSION})
           INSERT INTO address_directory (${ADDRESS_COLUMNS}) SELECT * FROM n
           ${UPDATE_CHANGED} WHERE (address_directory.*) IS DISTINCT FROM (excluded.*)`,
          columnsOf(b[0]!).map((_, i) => columns.map((c) => c[i])),
        );
        continue;
      }
      // the embedded store: two statements per batch over the batch as JSON (json_each), one
      // transaction. Measured no faster than two prepared statements per row (1 M buildings:
      // 42.9 vs 40.9 s; the indexes are the cost), but it says the renamed-road capture once
      // for the batch, as the PostgreSQL statement does
      const list = JSON.stringify(b.map(columnsOf));
      await this.sql.tx(async (t) => {
        // a building whose road or number changes keeps its old address findable (a renamed road)
        await t.run(
          `INSERT INTO address_former_roads (${FORMER_COLUMNS})
           SELECT a.building_id, a.sigungu, a.road_name, a.underground, a.building_main, a.building_sub
           FROM json_each(?) n JOIN address_directory a ON a.building_id = ${v(0)}
           WHERE a.road_name <> ${v(6)} OR a.underground <> ${v(7)} OR a.building_main <> ${v(8)} OR a.building_sub <> ${v(9)}
           ON CONFLICT DO NOTHING`,
          [list],
        );
        // "WHERE true": without it SQLite reads ON CONFLICT as the join's ON
        await t.run(
          `INSERT INTO address_directory (${ADDRESS_COLUMNS})
           SELECT ${ADDRESS_COLUMNS.split(', ').map((_, i) => v(i)).join(', ')} FROM json_each(?) n WHERE true ${UPDATE_CHANGED}`,
          [list],
        );
        await t.run(BUMP_VERSION);
      });
    }
  }

  /**
   * Before a first import: drops the secondary indexes of the (empty) directory tables, their
   * definitions kept in address_deferred_indexes; rebuildIndexes() makes them again. Does nothing
   * and returns false when the directory holds rows (lookups may be reading it).
   */
  async deferIndexes(): Promise<boolean> {
    // any row will do: count(*) reads all of a national directory (millions of rows) to say so
    if (await this.sql.get('SELECT 1 AS x FROM address_directory LIMIT 1')) return false;
    const tables = DIRECTORY_TABLES.map((t) => `'${t}'`).join(', ');
    const indexes = this.sql.dialect === 'postgres'
      ? await this.sql.all(`SELECT indexname AS name, indexdef AS ddl FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (${tables}) AND indexname NOT LIKE '%_pkey'`)
      : await this.sql.all(`SELECT name, sql AS ddl FROM ${await this.#sqliteSchema()}.sqlite_master WHERE type = 'index' AND tbl_name IN (${tables}) AND sql IS NOT NULL`);
    if (indexes.length === 0) return false;
    await this.sql.tx(async (t) => {
      for (const i of indexes) {
        await t.run('INSERT INTO address_deferred_indexes (name, ddl) VALUES (?, ?) ON CONFLICT DO NOTHING', [i.name, i.ddl]);
        await t.run(`DROP INDEX IF EXISTS ${String(i.name)}`);
      }
    });
    return true;
  }

  /** Embedded: the schema of the connection the directory's tables are in (main, or the file sqlite.ts attaches). */
  async #sqliteSchema(): Promise<string> {
    const row = await this.sql.get("SELECT schema FROM pragma_table_list WHERE name = 'address_directory'");
    return typeof row?.schema === 'string' ? row.schema : 'main';
  }

  /** Builds the indexes deferIndexes() dropped (also those of an import that died midway). */
  async rebuildIndexes(): Promise<void> {
    // an embedded store's index is made in the schema its table is in (sqlite.ts keeps the directory in a file of its own)
    const schema = this.sql.dialect === 'sqlite' ? `${await this.#sqliteSchema()}.` : '';
    for (const i of await this.sql.all('SELECT name, ddl FROM address_deferred_indexes ORDER BY name')) {
      await this.sql.tx(async (t) => {
        // PostgreSQL sorts an index of millions of rows in memory given room (its default 64 MB
        // spills to disk); the setting ends with the transaction
        if (this.sql.dialect === 'postgres') await t.run("SET LOCAL maintenance_work_mem = '256MB'");
        await t.run(String(i.ddl).replace(/^CREATE (UNIQUE )?INDEX (IF NOT EXISTS )?/i, (_, unique: string | undefined) => `CREATE ${unique ?? ''}INDEX IF NOT EXISTS ${schema}`));
        await t.run('DELETE FROM address_deferred_indexes WHERE name = ?', [i.name]);
      });
    }
  }

  /** Buildings that are gone (이동사유코드 폐지), with their former roads and related lots. */
  async deleteBuildings(ids: readonly string[]): Promise<void> {
    const inList = this.sql.dialect === 'postgres' ? 'building_id = ANY (?::text[])' : 'building_id IN (SELECT value FROM json_each(?))';
    for (const b of inBatches([...new Set(ids)])) {
      const param = this.sql.dialect === 'postgres' ? b : JSON.stringify(b);
      await this.sql.tx(async (t) => {
        for (const table of ['address_directory', 'address_former_roads', 'address_related_lots']) await t.run(`DELETE FROM ${table} WHERE ${inList}`, [param]);
        await t.run(BUMP_VERSION);
      });
    }
  }

  /** Former road addresses of buildings (the files' 이전도로명주소); one already known is kept once. */
  async addFormerRoads(list: readonly FormerRoadOf[]): Promise<void> {
    await this.#insertEach('address_former_roads', FORMER_COLUMNS, list.map(formerColumnsOf));
  }

  /** Related lots of buildings (관련지번); one already known is kept once. */
  async addRelatedLots(list: readonly RelatedLotOf[]): Promise<void> {
    await this.#insertEach('address_related_lots', LOT_COLUMNS, list.map(lotColumnsOf));
  }

  /** Related lots no longer related (a change file's 폐지 line). */
  async deleteRelatedLots(list: readonly RelatedLotOf[]): Promise<void> {
    for (const b of inBatches(list)) {
      await this.sql.tx(async (t) => {
        for (const l of b) {
          await t.run(
            'DELETE FROM address_related_lots WHERE building_id = ? AND eupmyeondong = ? AND ri = ? AND mountain = ? AND jibun_main = ? AND jibun_sub = ?',
            [l.buildingId, l.lot.eupmyeondong, l.lot.ri, l.lot.mountain, l.lot.main, l.lot.sub],
          );
        }
        await t.run(BUMP_VERSION);
      });
    }
  }

  /** Rows into a table keyed so that a repeat is a no-op, in batches, each batch atomically. */
  async #insertEach(table: string, columns: string, rows: readonly unknown[][]): Promise<void> {
    const marks = columns.split(', ').map(() => '?').join(', ');
    for (const b of inBatches(rows)) {
      await this.sql.tx(async (t) => {
        for (const r of b) await t.run(`INSERT INTO ${table} (${columns}) VALUES (${marks}) ON CONFLICT DO NOTHING`, r);
        await t.run(BUMP_VERSION);
      });
    }
  }

  /**
   * Buildings by a road address they had before (이전도로명주소): null sigungu, any 시군구; null
   * main, any number. Each carries the former address it was found by.
   */
  async findByFormerRoad(sigungu: string | null, roadName: string, main: number | null, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    const where = ['x.road_name = ?'];
    const params: unknown[] = [roadName];
    if (sigungu !== null) { where.push('x.sigungu = ?'); params.push(sigungu); }
    if (main !== null) { where.push('x.building_main = ?'); params.push(main); }
    if (sub !== null) { where.push('x.building_sub = ?'); params.push(sub); }
    const rows = await this.#joined('address_former_roads', 'x.sigungu AS x_sigungu, x.road_name AS x_road, x.underground AS x_underground, x.building_main AS x_main, x.building_sub AS x_sub',
      where, 'x.building_main, x.building_sub, a.building_id', params, limit);
    return rows.map((r) => foundVia(r, {
      kind: 'former_road', sigungu: String(r.x_sigungu), roadName: String(r.x_road), underground: bool(r.x_underground), main: Number(r.x_main), sub: Number(r.x_sub),
    }));
  }

  /** Buildings standing on a lot besides their own (관련지번), as findByJibun asks; each carries that lot. */
  async findByRelatedLot(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    const lot = sub === null ? 'x.jibun_main = ?' : 'x.jibun_main = ? AND x.jibun_sub = ?';
    const lotParams: unknown[] = sub === null ? [main] : [main, sub];
    const where = [`((x.eupmyeondong = ? AND ${lot}) OR (x.ri = ? AND x.ri <> '' AND ${lot}))`];
    const params: unknown[] = [dong, ...lotParams, dong, ...lotParams];
    if (sido !== null) { where.push('x.sido = ?'); params.push(sido); }
    if (sigungu !== null) { where.push('x.sigungu = ?'); params.push(sigungu); }
    const rows = await this.#joined('address_related_lots', 'x.eupmyeondong AS x_dong, x.ri AS x_ri, x.mountain AS x_mountain, x.jibun_main AS x_main, x.jibun_sub AS x_sub',
      where, 'x.jibun_sub, x.mountain, a.building_main, a.building_sub, a.building_id', params, limit);
    return rows.map((r) => foundVia(r, {
      kind: 'related_lot', eupmyeondong: String(r.x_dong), ri: String(r.x_ri), mountain: bool(r.x_mountain), main: Number(r.x_main), sub: Number(r.x_sub),
    }));
  }

  /** Directory rows joined to `table` (as x) by building, with x's `extra` columns. */
  #joined(table: string, extra: string, where: string[], order: string, params: unknown[], limit: number): Promise<Record<string, unknown>[]> {
    return this.sql.all(
      `SELECT ${JOINED_COLUMNS}, ${extra} FROM ${table} x JOIN address_directory a ON a.building_id = x.building_id
       WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`,
      [...params, Math.max(0, limit)],
    );
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
   * findByRoad(null, name, main, sub, limit) of several road names in one statement (a typo's
   * near roads, each a statement of its own before: most find nothing, and the statement, not the
   * index, was the cost): the same rows in the same order per name.
   */
  async findByRoadsAt(roadNames: readonly string[], main: number, sub: number, limit: number): Promise<Map<string, DirectoryEntry[]>> {
    const out = new Map<string, DirectoryEntry[]>(roadNames.map((n) => [n, []]));
    if (out.size === 0 || limit <= 0) return out;
    const rows = await this.sql.arrays(
      `SELECT ${ENTRY_SELECT} FROM address_directory WHERE road_name IN (${[...out.keys()].map(() => '?').join(', ')}) AND building_main = ? AND building_sub = ?
       ORDER BY road_name, underground, building_id`,
      [...out.keys(), main, sub],
    );
    for (const r of rows) {
      const list = out.get(String(r[6]))!;
      if (list.length < limit) list.push(entryOf(r));
    }
    return out;
  }

  /**
   * findByRoad(sigungu, road, main, sub, limit) of many buildings in one statement (a batch
   * chunk's addresses): the same rows in the same order for each, keyed by roadKey. A statement
   * per address spent most of its time in the statement, not in the index.
   */
  findByRoadMany(keys: readonly RoadKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    return this.#allOfEach(keys, roadKey, (k) => [k.sigungu, k.roadName, k.main, k.sub],
      'a.sigungu = k.value ->> 0 AND a.road_name = k.value ->> 1 AND a.building_main = (k.value ->> 2)::int AND a.building_sub = (k.value ->> 3)::int',
      (e) => roadKey({ sigungu: e.sigungu, roadName: e.roadName, main: e.buildingMain, sub: e.buildingSub }), byUndergroundThenId, limit);
  }

  /**
   * findByRoad(null, road, main, sub, limit) of many buildings in one statement: a chunk's
   * addresses written without a 시군구 the parser could read (on PostgreSQL a statement each was
   * a round trip each). The same rows in the same order for each, keyed by anywhereKey.
   */
  findByRoadAnywhereMany(keys: readonly AnywhereKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    return this.#allOfEach(keys, anywhereKey, (k) => [k.roadName, k.main, k.sub],
      'a.road_name = k.value ->> 0 AND a.building_main = (k.value ->> 1)::int AND a.building_sub = (k.value ->> 2)::int',
      (e) => anywhereKey({ roadName: e.roadName, main: e.buildingMain, sub: e.buildingSub }), byUndergroundThenId, limit);
  }

  /**
   * findByRoad(null, road, main, null, limit) of many roads' 본번 in one statement: the later
   * steps of a chunk's addresses whose number is wrong or whose 시군구 is (LocalDirectory). The
   * same rows in the same order for each, keyed by mainKey.
   */
  findByRoadMainMany(keys: readonly MainKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    return this.#allOfEach(keys, mainKey, (k) => [k.roadName, k.main], 'a.road_name = k.value ->> 0 AND a.building_main = (k.value ->> 1)::int',
      (e) => mainKey({ roadName: e.roadName, main: e.buildingMain }), (a, b) => a.buildingSub - b.buildingSub || byUndergroundThenId(a, b), limit);
  }

  /**
   * Every building `on` joins to a key (a condition on the directory `a` and the key `k`, a JSON
   * array of the key's `fields`), put under the key `entryKey` reads back off the building, then
   * each key's sorted by `order` and cut to `limit`: for keys that name a road's number, whose
   * buildings are few. `order` is findByRoad's ORDER BY building_main, building_sub, underground,
   * building_id for what the key leaves open.
   */
  async #allOfEach<K>(keys: readonly K[], keyOf: (k: K) => string, fields: (k: K) => unknown[], on: string, entryKey: (e: DirectoryEntry) => string,
    order: (a: DirectoryEntry, b: DirectoryEntry) => number, limit: number): Promise<Map<string, DirectoryEntry[]>> {
    const { out, distinct } = distinctKeys(keys, keyOf);
    if (limit <= 0) return out;
    for (let at = 0; at < distinct.length; at += ROAD_KEYS_PER_STATEMENT) {
      const part = distinct.slice(at, at + ROAD_KEYS_PER_STATEMENT).map(fields);
      const rows = await this.sql.arrays(`SELECT ${JOINED_COLUMNS} FROM ${jsonListTable(this.sql.dialect)} JOIN address_directory a ON ${on}`, [JSON.stringify(part)]);
      for (const r of rows) {
        const e = entryOf(r);
        out.get(entryKey(e))?.push(e);
      }
    }
    for (const [k, list] of out) out.set(k, list.toSorted(order).slice(0, limit));
    return out;
  }

  /**
   * findByRoadName(road, sido, limit) of many roads in one statement: a chunk's addresses whose
   * road is not where they say, asked whether it is in their 시도 at all; keyed by roadNameKey.
   */
  findByRoadNameMany(keys: readonly RoadNameKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    return this.#firstOfEach(keys, roadNameKey, (k) => [k.roadName, k.sido], 'a.road_name = k.value ->> 0 AND (k.value ->> 1 IS NULL OR a.sido = k.value ->> 1)',
      'a.sigungu, a.building_main, a.building_sub, a.building_id', limit);
  }

  /**
   * findByRoad(sigungu, road, null, null, limit) of many roads in one statement: a chunk's
   * addresses that name a road of their 시군구 without a number; keyed by roadInKey.
   */
  findByRoadInMany(keys: readonly RoadInKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    return this.#firstOfEach(keys, roadInKey, (k) => [k.sigungu, k.roadName], 'a.sigungu = k.value ->> 0 AND a.road_name = k.value ->> 1',
      'a.building_main, a.building_sub, a.underground, a.building_id', limit);
  }

  /**
   * Each key's first `limit` buildings that `match` (a condition on the directory `a` and the key
   * `k`, a JSON array of the key's `fields` and then its index in the list) in `order`, in that
   * order — the engine's own, as a single finder's ORDER BY is (its collation orders the names).
   * PostgreSQL reads each key as the single finder does, through a LATERAL subquery (joined to the
   * whole list, its planner hashed the directory read end to end: 120 ms a statement at 200,000
   * buildings); SQLite, which has no LATERAL, numbers each key's rows.
   */
  async #firstOfEach<K>(keys: readonly K[], keyOf: (k: K) => string, fields: (k: K) => unknown[], match: string, order: string, limit: number): Promise<Map<string, DirectoryEntry[]>> {
    const { out, distinct } = distinctKeys(keys, keyOf);
    if (limit <= 0 || distinct.length === 0) return out;
    const index = `(k.value ->> ${fields(distinct[0]!).length})::int`;
    // each row: the entry's columns, its place among its key's, the key's index in the list
    const statement = this.sql.dialect === 'postgres'
      ? `SELECT f.*, ${index} AS i FROM ${jsonListTable('postgres')}
         CROSS JOIN LATERAL (SELECT ${JOINED_COLUMNS}, row_number() OVER (ORDER BY ${order}) AS n FROM address_directory a WHERE ${match} ORDER BY ${order} LIMIT ?) AS f
         ORDER BY i, f.n`
      : `SELECT * FROM (
           SELECT ${JOINED_COLUMNS}, row_number() OVER (PARTITION BY ${index} ORDER BY ${order}) AS n, ${index} AS i
           FROM ${jsonListTable('sqlite')} JOIN address_directory a ON ${match}
         ) AS found WHERE n <= ? ORDER BY i, n`;
    for (let at = 0; at < distinct.length; at += ROAD_KEYS_PER_STATEMENT) {
      const part = distinct.slice(at, at + ROAD_KEYS_PER_STATEMENT);
      const rows = await this.sql.arrays(statement, [JSON.stringify(part.map((k, i) => [...fields(k), i])), limit]);
      for (const r of rows) out.get(keyOf(part[Number(r.at(-1))]!))!.push(entryOf(r));
    }
    return out;
  }

  /**
   * findByJibun(sido, sigungu, dong, main, sub, limit) of many lots in one statement (a chunk's
   * addresses written with a lot): the same rows in the same order for each, keyed by lotKey.
   */
  async findByJibunMany(keys: readonly LotKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    const { out, distinct } = distinctKeys(keys, lotKey);
    if (limit <= 0) return out;
    const rows = await this.#lotRows(distinct, 'a', (on) => `SELECT ${JOINED_COLUMNS}, k.value ->> 3 FROM ${jsonListTable(this.sql.dialect)} JOIN address_directory a ON ${on}`);
    for (const { key, row } of rows) {
      const e = entryOf(row);
      // a building whose 동 and 리 are both the name is one row of findByJibun's, two here
      const found = out.get(lotKey(key))!;
      if (inLotScope(key, e.sido, e.sigungu) && !found.some((f) => f.buildingId === e.buildingId)) found.push(e);
    }
    // findByJibun's ORDER BY jibun_sub, mountain, building_main, building_sub, building_id (one 부번 per key)
    for (const [k, list] of out) out.set(k, list.toSorted(byLotOrder).slice(0, Math.max(0, limit)));
    return out;
  }

  /** findByRelatedLot of many lots in one statement, as findByJibunMany is findByJibun's. */
  async findByRelatedLotMany(keys: readonly LotKey[], limit: number): Promise<Map<string, DirectoryEntry[]>> {
    const { out, distinct } = distinctKeys(keys, lotKey);
    if (limit <= 0) return out;
    const rows = await this.#lotRows(distinct, 'x', (on) =>
      `SELECT ${JOINED_COLUMNS}, x.sido, x.sigungu, x.eupmyeondong, x.ri, x.mountain, x.jibun_main, x.jibun_sub, k.value ->> 3
       FROM ${jsonListTable(this.sql.dialect)} JOIN address_related_lots x ON ${on} JOIN address_directory a ON a.building_id = x.building_id`);
    const seen = new Set<string>();
    for (const { key, row: r } of rows) {
      if (!inLotScope(key, String(r[16]), String(r[17]))) continue;
      const via = { kind: 'related_lot', eupmyeondong: String(r[18]), ri: String(r[19]), mountain: bool(r[20]), main: Number(r[21]), sub: Number(r[22]) } as const;
      // one related lot's row per building, as findByRelatedLot's OR gives it, though both arms matched it
      const k = lotKey(key);
      const once = `${k}\u0003${String(r[0])}\u0001${via.eupmyeondong}\u0001${via.ri}\u0001${via.mountain}`;
      if (seen.has(once)) continue;
      seen.add(once);
      out.get(k)!.push({ ...entryOf(r), via });
    }
    // findByRelatedLot's ORDER BY x.jibun_sub, x.mountain, a.building_main, a.building_sub, a.building_id
    for (const [k, list] of out) out.set(k, list.toSorted(byRelatedLotOrder).slice(0, Math.max(0, limit)));
    return out;
  }

  /**
   * The rows of both arms of a lot's OR — under its 법정동/읍/면, or under its 리 — for each of
   * `keys`, each arm a join of its own so that each reads its index. `select` makes an arm's
   * statement from its join condition on `table` (the keys' list as `k`, the key's index the last
   * column).
   */
  async #lotRows(keys: readonly LotKey[], table: 'a' | 'x', select: (on: string) => string): Promise<{ key: LotKey; row: unknown[] }[]> {
    const out: { key: LotKey; row: unknown[] }[] = [];
    const lot = `${table}.jibun_main = (k.value ->> 1)::int AND ${table}.jibun_sub = (k.value ->> 2)::int`;
    for (let at = 0; at < keys.length; at += ROAD_KEYS_PER_STATEMENT) {
      const part = keys.slice(at, at + ROAD_KEYS_PER_STATEMENT);
      const list = JSON.stringify(part.map((k, i) => [k.dong, k.main, k.sub, i]));
      const rows = await this.sql.arrays(
        `${select(`${table}.eupmyeondong = k.value ->> 0 AND ${lot}`)} UNION ALL ${select(`${table}.ri = k.value ->> 0 AND ${table}.ri <> '' AND ${lot}`)}`,
        [list, list],
      );
      for (const row of rows) out.push({ key: part[Number(row.at(-1))]!, row });
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
    const names = withItsGu(sigungu);
    const rows = await this.sql.all(`SELECT DISTINCT road_name FROM address_directory WHERE sigungu IN (${names.map(() => '?').join(', ')})`, names);
    return rows.map((r) => String(r.road_name));
  }

  /**
   * The 법정동, 읍/면 and 리 names of a 시군구 (its 일반구's too), for a lot whose 동 is mistyped.
   * Read once per 시군구 and kept (DirectoryMemory): the index has no 동 after the 시군구, so this
   * reads the 시군구's rows.
   */
  async dongNamesIn(sigungu: string): Promise<string[]> {
    const names = withItsGu(sigungu);
    const marks = names.map(() => '?').join(', ');
    const rows = await this.sql.all(
      `SELECT DISTINCT eupmyeondong AS name FROM address_directory WHERE sigungu IN (${marks})
       UNION SELECT DISTINCT ri AS name FROM address_directory WHERE sigungu IN (${marks}) AND ri <> ''`,
      [...names, ...names],
    );
    return rows.map((r) => String(r.name));
  }

  /**
   * The building numbers of a 시군구's roads as the (sigungu, road_name, building_main,
   * building_sub) index alone has them — ~25,000 entries, ~8 ms on SQLite for a 시군구 of a national
   * directory — ordered by road and number, each with its row when `rows`: SQLite's rowid, which
   * findByRoadAt fetches by. PostgreSQL has no row reference that stays put (a ctid moves when its
   * row is updated) to read off an index, so there it is null.
   */
  async roadNumbersIn(sigungu: string, rows = true): Promise<RoadNumberRow[]> {
    const ref = rows && this.sql.dialect === 'sqlite' ? 'rowid' : 'NULL';
    // as the driver gives them: text, integers (int4 on PostgreSQL) and NULL are these types already
    return (await this.sql.arrays(
      `SELECT road_name, building_main, building_sub, ${ref} FROM address_directory WHERE sigungu = ? ORDER BY road_name, building_main, building_sub`,
      [sigungu],
    )) as unknown as RoadNumberRow[];
  }

  /**
   * findByRoad(sigungu, roadName, main, sub, limit) of buildings whose rows roadNumbersIn gave
   * (the embedded store's): the same entries in the same order, fetched by row rather than
   * through the index again (~10 µs less on a national directory). null when a row no longer holds
   * that address (an import since it was read, or a VACUUM, which numbers rows anew): findByRoad
   * then says what the directory holds now. Rows that all still hold it are all of its buildings:
   * the caller's RoadNumbers are read again when an import changes how many there are.
   */
  async findByRoadAt(refs: readonly number[], sigungu: string, roadName: string, main: number, sub: number, limit: number): Promise<DirectoryEntry[] | null> {
    if (this.sql.dialect !== 'sqlite') throw new Error('rows are the embedded store\'s: roadNumbersIn gives none on PostgreSQL');
    const rows = refs.length === 1
      ? await this.sql.arrays(`SELECT ${ENTRY_SELECT} FROM address_directory WHERE rowid = ?`, refs)
      : await this.sql.arrays(`SELECT ${ENTRY_SELECT} FROM address_directory WHERE rowid = ANY(?)`, [refs]);
    const found = rows.map(entryOf);
    const same = (e: DirectoryEntry): boolean => e.sigungu === sigungu && e.roadName === roadName && e.buildingMain === main && e.buildingSub === sub;
    if (found.length !== refs.length || !found.every(same)) return null;
    // findByRoad's ORDER BY building_main, building_sub, underground, building_id (one main and sub here)
    return found.toSorted(byUndergroundThenId).slice(0, Math.max(0, limit));
  }

  /** The directory's 시군구 names (~250): an index probe each, not a read of every building. */
  async sigunguNames(): Promise<string[]> {
    const rows = await this.sql.all(
      `WITH RECURSIVE s (name) AS (
         SELECT min(sigungu) FROM address_directory
         UNION ALL
         SELECT (SELECT min(sigungu) FROM address_directory WHERE sigungu > s.name) FROM s WHERE s.name IS NOT NULL
       ) SELECT name FROM s WHERE name IS NOT NULL`,
    );
    return rows.map((r) => String(r.name));
  }

  /** Every road name a former road address has (findByFormerRoad finds nothing by another), once each. */
  async formerRoadNames(): Promise<string[]> {
    return (await this.sql.all('SELECT DISTINCT road_name FROM address_former_roads')).map((r) => String(r.road_name));
  }

  /** Raised by every write to the directory's tables, whichever process made it. */
  async directoryVersion(): Promise<number> {
    return num(await this.sql.get('SELECT version AS n FROM address_directory_version'));
  }

  /** Buildings on a road of that name, within one 시도 when given. */
  findByRoadName(roadName: string, sido: string | null, limit: number): Promise<DirectoryEntry[]> {
    const where = ['road_name = ?'];
    const params: unknown[] = [roadName];
    if (sido !== null) { where.push('sido = ?'); params.push(sido); }
    return this.#select(where, 'sigungu, building_main, building_sub, building_id', params, limit);
  }

  /**
   * Buildings by their name (시군구용건물명 or 건축물대장건물명) as written or without its spaces, within the 시도 and
   * 시군구 when given ("정자동 한빛타워": a building many offices write by its name alone).
   */
  findByBuildingName(forms: readonly string[], sido: string | null, sigungu: string | null, limit: number): Promise<DirectoryEntry[]> {
    if (forms.length === 0) return Promise.resolve([]);
    // "… <> ''" lets either engine read the partial indexes, one per arm of the OR
    const marks = forms.map(() => '?').join(', ');
    const where = [`((building_name IN (${marks}) AND building_name <> '') OR (register_name IN (${marks}) AND register_name <> ''))`];
    const params: unknown[] = [...forms, ...forms];
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
    for (const table of DIRECTORY_TABLES) await this.sql.run(`ANALYZE ${table}`);
  }

  async count(): Promise<number> {
    return num(await this.sql.get('SELECT count(*) AS n FROM address_directory'));
  }
}
