// The address directory on node:sqlite. The caller owns the DatabaseSync (and its PRAGMAs); this
// class only reads and writes the address_directory table.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { ADDRESS_COLUMNS, type AddressStore, addressRowToEntry, inBatches, lastPerBuilding } from './address-store.ts';

const UPSERT = `INSERT INTO address_directory (${ADDRESS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (building_id) DO UPDATE SET zipcode = excluded.zipcode, sido = excluded.sido, sigungu = excluded.sigungu,
    eupmyeondong = excluded.eupmyeondong, ri = excluded.ri, road_name = excluded.road_name, underground = excluded.underground,
    building_main = excluded.building_main, building_sub = excluded.building_sub, mountain = excluded.mountain,
    jibun_main = excluded.jibun_main, jibun_sub = excluded.jibun_sub, building_name = excluded.building_name,
    road_address = excluded.road_address`;

export class SqliteAddressStore implements AddressStore {
  readonly #db: DatabaseSync;
  readonly #stmts = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Prepared once per distinct SQL text; the finders have only a handful of shapes. */
  #q(sql: string): StatementSync {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }

  #select(where: string[], order: string, params: SQLInputValue[], limit: number): DirectoryEntry[] {
    const sql = `SELECT ${ADDRESS_COLUMNS} FROM address_directory WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`;
    return (this.#q(sql).all(...params, Math.max(0, limit)) as Record<string, unknown>[]).map(addressRowToEntry);
  }

  async upsertEntries(entries: readonly DirectoryEntry[]): Promise<void> {
    const stmt = this.#q(UPSERT);
    for (const batch of inBatches(lastPerBuilding(entries))) {
      // one transaction per batch: a commit per row would make an import take hours
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        for (const e of batch) {
          stmt.run(
            e.buildingId, e.zipcode, e.sido, e.sigungu, e.eupmyeondong, e.ri, e.roadName, e.underground ? 1 : 0,
            e.buildingMain, e.buildingSub, e.jibunMountain ? 1 : 0, e.jibunMain, e.jibunSub, e.buildingName, e.roadAddress,
          );
        }
        this.#db.exec('COMMIT');
      } catch (err) {
        this.#db.exec('ROLLBACK');
        throw err;
      }
    }
  }

  async findByRoad(sigungu: string | null, roadName: string, main: number | null, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    // conditions are left out rather than written "? IS NULL OR ...", which would hide the index
    const where = ['road_name = ?'];
    const params: SQLInputValue[] = [roadName];
    if (sigungu !== null) { where.unshift('sigungu = ?'); params.unshift(sigungu); }
    if (main !== null) { where.push('building_main = ?'); params.push(main); }
    if (sub !== null) { where.push('building_sub = ?'); params.push(sub); }
    return this.#select(where, 'building_main, building_sub, underground, building_id', params, limit);
  }

  async findByRoadName(roadName: string, sido: string | null, limit: number): Promise<DirectoryEntry[]> {
    const where = ['road_name = ?'];
    const params: SQLInputValue[] = [roadName];
    if (sido !== null) { where.push('sido = ?'); params.push(sido); }
    return this.#select(where, 'sigungu, building_main, building_sub, building_id', params, limit);
  }

  async findByJibun(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    // each arm of the OR matches one index whole, so SQLite answers it as two index lookups;
    // "ri <> ''" is spelled out because only then may the partial index be used
    const lot = sub === null ? 'jibun_main = ?' : 'jibun_main = ? AND jibun_sub = ?';
    const lotParams: SQLInputValue[] = sub === null ? [main] : [main, sub];
    const where = [`((eupmyeondong = ? AND ${lot}) OR (ri = ? AND ri <> '' AND ${lot}))`];
    const params: SQLInputValue[] = [dong, ...lotParams, dong, ...lotParams];
    if (sido !== null) { where.push('sido = ?'); params.push(sido); }
    if (sigungu !== null) { where.push('sigungu = ?'); params.push(sigungu); }
    return this.#select(where, 'jibun_sub, mountain, building_main, building_sub, building_id', params, limit);
  }

  async count(): Promise<number> {
    return (this.#q('SELECT count(*) AS n FROM address_directory').get() as { n: number }).n;
  }
}
