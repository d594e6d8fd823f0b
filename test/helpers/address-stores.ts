// Address stores for tests, each on a fresh database: SQLite in memory always, PostgreSQL in a
// schema of its own when TEST_DATABASE_URL is set (reported as skipped otherwise).
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { AddressStore } from '../../src/store/address-store.ts';
import { PostgresSql } from '../../src/store/sql-postgres.ts';
import { SqliteSql } from '../../src/store/sql-sqlite.ts';
import { loadMigrations } from '../../src/store/migrations.ts';

export const PG_URL = process.env.TEST_DATABASE_URL;
export type AddressStoreKind = 'sqlite' | 'postgres';

export interface OpenAddressStore {
  store: AddressStore;
  /** runs the address migration again (it must be idempotent) */
  migrateAgain(): Promise<void>;
  /** a statement on the same database, for looking at what the store cannot say (its indexes) */
  all(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** The migrations that make the address directory, in order: the table, then what later ones added. */
const ADDRESS_MIGRATIONS = ['0004_addresses', '0027_address_statistics', '0031_address_building_name', '0032_address_history', '0033_address_deferred_indexes', '0034_address_apartment', '0035_address_directory_version'];

function addressMigration(engine: AddressStoreKind, version = '0004_addresses'): string {
  const m = loadMigrations(engine).find((x) => x.version === version);
  if (!m) throw new Error(`${version} missing for ${engine}`);
  return m.sql;
}

const addressSchema = (engine: AddressStoreKind): string => ADDRESS_MIGRATIONS.map((v) => addressMigration(engine, v)).join('\n');

export async function openAddressStore(kind: AddressStoreKind): Promise<OpenAddressStore> {
  if (kind === 'sqlite') {
    const db = new DatabaseSync(':memory:');
    db.exec(addressSchema('sqlite'));
    return {
      store: new AddressStore(new SqliteSql(db)),
      migrateAgain: async () => db.exec(addressMigration('sqlite')),
      all: async (sql) => db.prepare(sql).all(),
      close: async () => db.close(),
    };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_addr_${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: PG_URL, max: 4, options: `-c search_path=${schema}` });
  pool.on('error', () => {});
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(addressSchema('postgres'));
  return {
    store: new AddressStore(new PostgresSql(pool)),
    migrateAgain: async () => { await pool.query(addressMigration('postgres')); },
    all: async (sql) => (await pool.query(sql)).rows as Record<string, unknown>[],
    close: async () => {
      try {
        await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}

/** describe(`${name} [sqlite]`) and describe(`${name} [postgres]`), the latter skipped without TEST_DATABASE_URL. */
export function describeEachAddressStore(name: string, fn: (kind: AddressStoreKind) => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  describe(`${name} [postgres]`, () => (PG_URL ? fn('postgres') : test('on PostgreSQL', { skip: 'TEST_DATABASE_URL not set' }, () => {})));
}
