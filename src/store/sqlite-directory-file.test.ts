import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { generateEntries } from '../addresses/address-db-fixture.ts';
import { columnsOf, ADDRESS_COLUMNS } from './address-rows.ts';
import { loadMigrations } from './migrations.ts';
import { SqliteStore } from './sqlite.ts';
import { directoryFileOf } from './sqlite-files.ts';

const T = { timeout: 60_000 };
const DIRECTORY_TABLES = ['address_directory', 'address_related_lots', 'address_former_roads', 'address_directory_version', 'address_deferred_indexes'];

/** A store file as a release before the directory's own file left it: every migration applied in the main file, and buildings imported. */
function oldStore(file: string, entries: readonly ReturnType<typeof columnsOf>[]): void {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const m of loadMigrations('sqlite')) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(m.version, '2026-11-01T00:00:00Z');
  }
  const insert = db.prepare(`INSERT INTO address_directory (${ADDRESS_COLUMNS}) VALUES (${ADDRESS_COLUMNS.split(', ').map(() => '?').join(', ')})`);
  for (const row of entries) insert.run(...(row.map((v) => (typeof v === 'boolean' ? Number(v) : v)) as (string | number)[]));
  db.exec("INSERT INTO address_former_roads VALUES ('b1', '강남구', '옛길', 0, 3, 0); UPDATE address_directory_version SET version = 7");
  db.close();
}

/** Runs `fn` on a store file (`bizcheck.db`) in a folder of its own, removed after. */
async function inStoreFolder(fn: (file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-directory-file-'));
  try {
    await fn(path.join(dir, 'bizcheck.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = (db: DatabaseSync, schema: string, type: string): string[] =>
  (db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name`).all(type) as { name: string }[]).map((r) => r.name);

test('a store whose directory is in its main file has it moved to its own file, rows, indexes and version, once', T, () => inStoreFolder(async (file) => {
  const entries = [...generateEntries(500, { seed: 3 })];
  oldStore(file, entries.map(columnsOf));
  const before = new DatabaseSync(file);
  const indexes = names(before, 'main', 'index').filter((n) => DIRECTORY_TABLES.some((t) => n.startsWith(t)));
  before.close();
  assert.ok(indexes.length >= 8, 'the directory had its indexes');

  for (let open = 0; open < 2; open++) {
    const store = new SqliteStore(file);
    await store.migrate();
    assert.equal(await store.addresses.count(), 500);
    assert.equal(await store.addresses.directoryVersion(), 7);
    const e = entries[42]!;
    assert.deepEqual((await store.addresses.findByRoad(e.sigungu, e.roadName, e.buildingMain, e.buildingSub, 5)).map((x) => x.buildingId), [e.buildingId]);
    await store.close();
  }
  assert.ok(existsSync(directoryFileOf(file)));
  const after = new DatabaseSync(file);
  after.prepare('ATTACH DATABASE ? AS directory').run(directoryFileOf(file));
  assert.deepEqual(names(after, 'main', 'table').filter((n) => DIRECTORY_TABLES.includes(n)), [], 'none is left in the main file');
  assert.deepEqual(names(after, 'directory', 'table'), DIRECTORY_TABLES.toSorted());
  assert.deepEqual(names(after, 'directory', 'index').filter((n) => indexes.includes(n)), indexes.toSorted(), 'each index went with its table');
  assert.equal((after.prepare('SELECT count(*) AS n FROM directory.address_former_roads').get() as { n: number }).n, 1);
  assert.ok((after.prepare("SELECT count(*) AS n FROM directory.sqlite_stat1 WHERE tbl = 'address_directory'").get() as { n: number }).n > 0, 'the planner has the directory\'s statistics where it now is');
  after.close();
}));

test('a move cut short after the copy is finished by the next start, nothing copied twice', T, () => inStoreFolder(async (file) => {
  oldStore(file, [...generateEntries(200, { seed: 4 })].map(columnsOf));
  // what the first of the move's two transactions leaves: the tables made and filled there, still in the main file too
  const db = new DatabaseSync(file);
  db.prepare('ATTACH DATABASE ? AS directory').run(directoryFileOf(file));
  for (const table of DIRECTORY_TABLES) {
    const { sql } = db.prepare("SELECT sql FROM main.sqlite_master WHERE name = ?").get(table) as { sql: string };
    db.exec(sql.replace(/^CREATE TABLE (IF NOT EXISTS )?/i, (h) => `${h}directory.`));
    db.exec(`INSERT INTO directory.${table} SELECT * FROM main.${table}`);
  }
  db.close();
  const store = new SqliteStore(file);
  await store.migrate();
  assert.equal(await store.addresses.count(), 200);
  assert.equal(await store.addresses.directoryVersion(), 7);
  await store.close();
}));

test('a new store makes its directory in its own file; an in-memory store in memory', T, () => inStoreFolder(async (file) => {
  for (const f of [file, ':memory:']) {
    const store = new SqliteStore(f);
    await store.migrate();
    await store.addresses.upsertEntries([...generateEntries(50, { seed: 5 })]);
    assert.equal(await store.addresses.count(), 50);
    await store.close();
  }
  const db = new DatabaseSync(directoryFileOf(file), { readOnly: true });
  assert.equal((db.prepare('SELECT count(*) AS n FROM address_directory').get() as { n: number }).n, 50);
  db.close();
}));

test('two processes starting on a store to move (two connections here): one moves it, the other finds it moved', T, () => inStoreFolder(async (file) => {
  oldStore(file, [...generateEntries(300, { seed: 6 })].map(columnsOf));
  const [a, b] = [new SqliteStore(file), new SqliteStore(file)];
  await Promise.all([a.migrate(), b.migrate()]);
  assert.equal(await a.addresses.count(), 300);
  assert.equal(await b.addresses.count(), 300);
  await Promise.all([a.close(), b.close()]);
}));
