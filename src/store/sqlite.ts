// The embedded store on node:sqlite. WAL lets the CLI and the server share the file;
// busy_timeout makes a second process wait for a write lock instead of failing; secure_delete
// overwrites what a deletion frees, so a deleted customer list leaves no trace in the file.
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadMigrations } from './migrations.ts';
import { SqliteSql } from './sql-sqlite.ts';
import { SqlStore } from './store.ts';

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
    super(new SqliteSql(db, file === ':memory:' ? file : path.resolve(file)));
    this.#db = db;
  }

  async migrate(): Promise<void> {
    this.#db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of loadMigrations('sqlite')) {
      await this.sql.tx(async (t) => {
        if (await t.get('SELECT 1 AS x FROM schema_migrations WHERE version = ?', [m.version])) return;
        this.#db.exec(m.sql);
        await t.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [m.version, new Date().toISOString()]);
      });
    }
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
