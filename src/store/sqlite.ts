// The embedded store on node:sqlite. WAL lets the CLI and the server share the file;
// busy_timeout makes a second process wait for a write lock instead of failing; secure_delete
// overwrites what a deletion frees, so a deleted customer list leaves no trace in the file.
//
// The imported address directory lives in a file of its own beside it (directoryFileOf),
// attached as the schema `directory`: SQL names its tables without a schema and SQLite finds them
// there. The service writes to its main file all the time (a chunk's results, the status cache),
// and a reader's memory map of a file written meanwhile made the address threads' lookups slower,
// not faster; the directory's file, which only imports write, is read through one
// (directory-file.ts: ~15 % less CPU in the address thread a named row, bench/RESULTS.md).
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadMigrations } from './migrations.ts';
import { SqliteSql } from './sql-sqlite.ts';
import { SqlStore } from './store.ts';
import { directoryFileOf } from './sqlite-files.ts';

/** The schema the directory's file is attached as. */
const DIRECTORY_SCHEMA = 'directory';

/** The last migration that finds the directory's tables in the main file (they are moved after it). */
const DIRECTORY_MOVED_AFTER = '0036_status_cache_writes';

/** The directory's tables, in the order they are moved (moveDirectory). */
const DIRECTORY_TABLES = ['address_directory', 'address_related_lots', 'address_former_roads', 'address_directory_version', 'address_deferred_indexes'];

export class SqliteStore extends SqlStore {
  readonly kind = 'sqlite';
  readonly #db: DatabaseSync;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const db = new DatabaseSync(file);
    // a new file gives freed pages back to the file system when swept (scrub); the mode can only
    // be chosen before the first table (an older file keeps reusing its freed pages instead)
    const fresh = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
    if (fresh.n === 0) db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      PRAGMA foreign_keys = ON;
      PRAGMA secure_delete = ON;
    `);
    const where = file === ':memory:' ? file : path.resolve(file);
    db.prepare(`ATTACH DATABASE ? AS ${DIRECTORY_SCHEMA}`).run(directoryFileOf(where));
    db.exec(`PRAGMA ${DIRECTORY_SCHEMA}.journal_mode = WAL; PRAGMA ${DIRECTORY_SCHEMA}.synchronous = NORMAL;`);
    super(new SqliteSql(db, where));
    this.#db = db;
  }

  async migrate(): Promise<void> {
    this.#db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of loadMigrations('sqlite')) {
      // the migrations after the move find the directory's tables where they are from then on
      if (m.version > DIRECTORY_MOVED_AFTER) await this.#moveDirectory();
      await this.sql.tx(async (t) => {
        if (await t.get('SELECT 1 AS x FROM schema_migrations WHERE version = ?', [m.version])) return;
        this.#db.exec(m.sql);
        await t.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [m.version, new Date().toISOString()]);
      });
    }
    await this.#moveDirectory();
  }

  /**
   * The directory's tables, made in the main file by the migrations (as PostgreSQL has them),
   * moved to the directory's file: in one transaction, which writes only that file, each table
   * made there from its text in sqlite_master, its rows copied, its indexes made, and the
   * planner's statistics taken; then, in another, which writes only the main file, the old
   * tables dropped. Either may be cut short and run again: a table already made there is not made
   * again, and a copy already there is not copied again (the primary keys refuse it).
   */
  async #moveDirectory(): Promise<void> {
    if (this.#tables('main').length === 0) return;
    // looked at again inside each transaction: another process may have moved them meanwhile
    await this.sql.tx(async () => {
      const there = this.#tables(DIRECTORY_SCHEMA);
      for (const table of this.#tables('main')) {
        const ddl = there.includes(table) ? [] : this.#db.prepare("SELECT type, sql FROM main.sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL").all(table) as { type: string; sql: string }[];
        for (const { type, sql } of ddl) if (type === 'table') this.#db.exec(inDirectory(sql, type));
        this.#db.exec(`INSERT OR IGNORE INTO ${DIRECTORY_SCHEMA}.${table} SELECT * FROM main.${table}`);
        // indexes made over the rows rather than kept up by each (a national directory's millions)
        for (const { type, sql } of ddl) if (type === 'index') this.#db.exec(inDirectory(sql, type));
      }
      // the planner's statistics of the directory (migration 0027's) were the main file's
      this.#db.exec(`ANALYZE ${DIRECTORY_SCHEMA}`);
    });
    await this.sql.tx(async () => {
      for (const table of this.#tables('main')) this.#db.exec(`DROP TABLE main.${table}`);
    });
  }

  /** The directory's tables that `schema` holds. */
  #tables(schema: string): string[] {
    const names = new Set((this.#db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    return DIRECTORY_TABLES.filter((t) => names.has(t));
  }

  override async scrub(): Promise<void> {
    if (!this.#db.isOpen) return;
    // freed pages back to the file system (a file made with auto_vacuum = INCREMENTAL), then the
    // log emptied; best effort: a reader in the middle of a read keeps the log until it is done
    this.#db.exec('PRAGMA incremental_vacuum');
    this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}

/** A `CREATE TABLE` or `CREATE INDEX` of the main file's sqlite_master as the same in the directory's schema. */
function inDirectory(sql: string, type: string): string {
  const made = type === 'index' ? /^CREATE\s+(UNIQUE\s+)?INDEX\s+(IF\s+NOT\s+EXISTS\s+)?/i : /^CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?/i;
  if (!made.test(sql)) throw new Error(`cannot move to the directory's file: ${sql.slice(0, 80)}`);
  return sql.replace(made, (head) => `${head.trimEnd()} ${DIRECTORY_SCHEMA}.`);
}
