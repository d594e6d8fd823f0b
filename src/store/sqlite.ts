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
    // best effort: a reader in the middle of a read keeps the log until it is done
    if (this.#db.isOpen) this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
