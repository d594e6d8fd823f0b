// The address directory on PostgreSQL through a pg.Pool the caller owns (and ends).
import type pg from 'pg';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { ADDRESS_COLUMNS, type AddressStore, addressRowToEntry, inBatches, lastPerBuilding } from './address-store.ts';

// One statement per batch: fifteen arrays are fifteen parameters whatever the row count, so the
// 65,535-parameter limit of multi-row VALUES never applies. An unchanged row is left alone, so a
// monthly re-import of millions of rows writes (and bloats) only what changed.
const UPSERT = `INSERT INTO address_directory (${ADDRESS_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[],
    $9::int[], $10::int[], $11::boolean[], $12::int[], $13::int[], $14::text[], $15::text[])
  ON CONFLICT (building_id) DO UPDATE SET zipcode = excluded.zipcode, sido = excluded.sido, sigungu = excluded.sigungu,
    eupmyeondong = excluded.eupmyeondong, ri = excluded.ri, road_name = excluded.road_name, underground = excluded.underground,
    building_main = excluded.building_main, building_sub = excluded.building_sub, mountain = excluded.mountain,
    jibun_main = excluded.jibun_main, jibun_sub = excluded.jibun_sub, building_name = excluded.building_name,
    road_address = excluded.road_address
  WHERE (address_directory.*) IS DISTINCT FROM (excluded.*)`;

export class PostgresAddressStore implements AddressStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #select(where: string[], order: string, params: unknown[], limit: number): Promise<DirectoryEntry[]> {
    params.push(Math.max(0, limit));
    const sql = `SELECT ${ADDRESS_COLUMNS} FROM address_directory WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${params.length}`;
    const res = await this.#pool.query(sql, params);
    return (res.rows as Record<string, unknown>[]).map(addressRowToEntry);
  }

  async upsertEntries(entries: readonly DirectoryEntry[]): Promise<void> {
    for (const b of inBatches(lastPerBuilding(entries))) {
      await this.#pool.query(UPSERT, [
        b.map((e) => e.buildingId), b.map((e) => e.zipcode), b.map((e) => e.sido), b.map((e) => e.sigungu),
        b.map((e) => e.eupmyeondong), b.map((e) => e.ri), b.map((e) => e.roadName), b.map((e) => e.underground),
        b.map((e) => e.buildingMain), b.map((e) => e.buildingSub), b.map((e) => e.jibunMountain), b.map((e) => e.jibunMain),
        b.map((e) => e.jibunSub), b.map((e) => e.buildingName), b.map((e) => e.roadAddress),
      ]);
    }
  }

  async findByRoad(sigungu: string | null, roadName: string, main: number | null, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    // conditions are left out rather than written "$n IS NULL OR ...", which a generic plan cannot index
    const params: unknown[] = [roadName];
    const where = ['road_name = $1'];
    const add = (column: string, value: unknown): void => { params.push(value); where.push(`${column} = $${params.length}`); };
    if (sigungu !== null) add('sigungu', sigungu);
    if (main !== null) add('building_main', main);
    if (sub !== null) add('building_sub', sub);
    return this.#select(where, 'building_main, building_sub, underground, building_id', params, limit);
  }

  async findByRoadName(roadName: string, sido: string | null, limit: number): Promise<DirectoryEntry[]> {
    const params: unknown[] = [roadName];
    const where = ['road_name = $1'];
    if (sido !== null) { params.push(sido); where.push(`sido = $${params.length}`); }
    return this.#select(where, 'sigungu, building_main, building_sub, building_id', params, limit);
  }

  async findByJibun(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    // each arm of the OR matches one index whole (a BitmapOr); "ri <> ''" is spelled out so the
    // partial index qualifies under a generic plan too
    const params: unknown[] = [dong, main];
    const lot = sub === null ? 'jibun_main = $2' : 'jibun_main = $2 AND jibun_sub = $3';
    if (sub !== null) params.push(sub);
    const where = [`((eupmyeondong = $1 AND ${lot}) OR (ri = $1 AND ri <> '' AND ${lot}))`];
    if (sido !== null) { params.push(sido); where.push(`sido = $${params.length}`); }
    if (sigungu !== null) { params.push(sigungu); where.push(`sigungu = $${params.length}`); }
    return this.#select(where, 'jibun_sub, mountain, building_main, building_sub, building_id', params, limit);
  }

  async count(): Promise<number> {
    const res = await this.#pool.query('SELECT count(*)::int AS n FROM address_directory');
    return (res.rows[0] as { n: number } | undefined)?.n ?? 0;
  }
}
