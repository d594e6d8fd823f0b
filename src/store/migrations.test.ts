import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { forEngine, loadMigrations } from './migrations.ts';

const ddl = `-- a table with every type SQLite spells its own way
CREATE TABLE t (
  id      bigserial PRIMARY KEY,
  body    jsonb NOT NULL,
  at      timestamptz,
  on_off  boolean NOT NULL DEFAULT false,
  note    text
) /*[sqlite] WITHOUT ROWID*/;
ALTER TABLE t ADD COLUMN /*[postgres] IF NOT EXISTS*/ flag boolean;
-- [postgres]
UPDATE t SET at = now() + interval '1 hour';
-- [end]
-- [sqlite]
UPDATE t SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');
-- [end]
`;

test('PostgreSQL runs the text as written, without the other engine\'s parts', () => {
  const pg = forEngine(ddl, 'postgres');
  assert.match(pg, /id {6}bigserial PRIMARY KEY/);
  assert.match(pg, /body {4}jsonb NOT NULL/);
  assert.match(pg, /ADD COLUMN IF NOT EXISTS flag boolean;/);
  assert.match(pg, /interval '1 hour'/);
  assert.doesNotMatch(pg, /WITHOUT ROWID|strftime|\[sqlite\]|\[end\]/);
});

test('SQLite gets its own types (booleans checked to 0 and 1) and only its parts', () => {
  const lite = forEngine(ddl, 'sqlite');
  assert.match(lite, /id {6}INTEGER PRIMARY KEY AUTOINCREMENT/);
  assert.match(lite, /body {4}TEXT NOT NULL/);
  assert.match(lite, /at {6}TEXT,/);
  assert.match(lite, /on_off {2}INTEGER CHECK \(on_off IN \(0, 1\)\) NOT NULL DEFAULT false/);
  assert.match(lite, /\) WITHOUT ROWID;/);
  assert.match(lite, /ADD COLUMN {2}flag INTEGER CHECK \(flag IN \(0, 1\)\);/);
  assert.doesNotMatch(lite, /interval|IF NOT EXISTS|jsonb|timestamptz|bigserial|--/);
});

test('every migration, as SQLite reads it, runs on a fresh embedded database and uses no PostgreSQL-only syntax', () => {
  const db = new DatabaseSync(':memory:');
  const migrations = loadMigrations('sqlite');
  assert.ok(migrations.length >= 12);
  for (const m of migrations) {
    assert.doesNotMatch(m.sql, /::|\bjsonb\b|\btimestamptz\b|\bbigserial\b|\binterval\b|\bjsonb_/, m.version);
    db.exec(m.sql);
  }
  // what the booleans now check holds on both ends of a write
  db.exec("INSERT INTO accounts (id, email, plan, created_at) VALUES ('a', 'a@x', 'free', '2026-01-01T00:00:00Z')");
  assert.throws(() => db.exec("INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, features, model_version, created_at, updated_at) VALUES ('a', 'j', 1, '1', NULL, 2, NULL, '{}', NULL, 't', 't')"), /CHECK constraint failed/);
  db.close();
});

const versions = (e: 'sqlite' | 'postgres') => loadMigrations(e).map((m) => m.version);

test('a migration only one engine needs is not run by the other', () => {
  assert.ok(versions('postgres').includes('0011_upstream_budget'));
  assert.ok(!versions('sqlite').includes('0011_upstream_budget'));
  assert.deepEqual(versions('sqlite'), versions('postgres').filter((v) => v !== '0011_upstream_budget'));
});

test('migration 0014 tallies the labels recorded before it, per number and per address', () => {
  const db = new DatabaseSync(':memory:');
  const all = loadMigrations('sqlite');
  for (const m of all.filter((x) => x.version < '0014')) db.exec(m.sql);
  db.exec("INSERT INTO accounts (id, email, plan, created_at) VALUES ('a', 'a@x', 'free', 't')");
  const put = db.prepare("INSERT INTO labels VALUES ('a', 'j', ?, ?, ?, ?, NULL, '{}', 'v', 't', 't')");
  put.run(1, '111', 'bld_1', 1);
  put.run(2, '111', 'bld_2', 0);
  put.run(3, '222', 'bld_1', 1);
  put.run(4, '222', null, 1);
  db.exec(all.find((x) => x.version.startsWith('0014'))!.sql);
  const rows = db.prepare('SELECT kind, value, bounced, delivered FROM label_tallies ORDER BY kind, value').all();
  assert.deepEqual(rows.map((r) => ({ ...r })), [
    { kind: 'address', value: 'bld_1', bounced: 2, delivered: 0 },
    { kind: 'address', value: 'bld_2', bounced: 0, delivered: 1 },
    { kind: 'b_no', value: '111', bounced: 1, delivered: 1 },
    { kind: 'b_no', value: '222', bounced: 2, delivered: 0 },
  ]);
  db.close();
});

test('migration 0018 counts the bounces recorded before it by what their reasons said', () => {
  const db = new DatabaseSync(':memory:');
  const all = loadMigrations('sqlite');
  for (const m of all.filter((x) => x.version < '0018')) db.exec(m.sql);
  db.exec("INSERT INTO accounts (id, email, plan, created_at) VALUES ('a', 'a@x', 'free', 't')");
  const put = db.prepare("INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, cause, features, model_version, created_at, updated_at) VALUES ('a', 'j', ?, '1', 'k', ?, NULL, ?, '{}', 'v', 't', 't')");
  put.run(1, 1, 'moved');
  put.run(2, 1, 'nobody_home');
  put.run(3, 0, null);
  put.run(4, 1, 'closed');
  db.exec("INSERT INTO label_tallies (account_id, kind, value, bounced, delivered) VALUES ('a', 'b_no', '1', 3, 1), ('a', 'address', 'k', 3, 1)");
  for (const m of all.filter((x) => x.version >= '0018')) db.exec(m.sql);
  const rows = db.prepare('SELECT kind, gone, absent FROM label_tallies ORDER BY kind').all();
  assert.deepEqual(rows.map((r) => [r.kind, r.gone, r.absent]), [['address', 2, 1], ['b_no', 2, 1]]);
  db.close();
});
