// Statements a pool runs again and again are named (parsed once per connection), within a bound.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { PostgresSql, StatementNames } from './sql-postgres.ts';

const PG_URL = process.env.TEST_DATABASE_URL;

test('a text is named the second time it runs, and no more texts than the bound are', () => {
  const names = new StatementNames(2);
  assert.equal(names.nameOf('SELECT 1'), undefined, 'run once: unnamed');
  const one = names.nameOf('SELECT 1');
  assert.ok(one, 'run again: named');
  assert.equal(names.nameOf('SELECT 1'), one, 'and keeps its name');
  names.nameOf('SELECT 2');
  const two = names.nameOf('SELECT 2');
  assert.ok(two && two !== one);
  names.nameOf('SELECT 3');
  assert.equal(names.nameOf('SELECT 3'), undefined, 'past the bound: unnamed');
  assert.equal(names.size, 2);
  const none = new StatementNames(0);
  none.nameOf('SELECT 1');
  assert.equal(none.nameOf('SELECT 1'), undefined, '0 names none');
});

test('texts run once do not pile up: past four times the bound they are counted anew', () => {
  const names = new StatementNames(1);
  names.nameOf('a');
  for (const t of ['b', 'c', 'd', 'e']) names.nameOf(t);
  assert.equal(names.nameOf('a'), undefined, "'a' was forgotten among the texts run once");
  assert.ok(names.nameOf('a'), 'and is named on its next run');
});

/** A pool of one connection (what it keeps can be read on it) in a schema of its own, dropped after. */
async function onOneConnection(fn: (pool: pg.Pool) => Promise<void>): Promise<void> {
  const schema = `t_names_${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1, options: `-c search_path=${schema}` });
  pool.on('error', () => {});
  try {
    await pool.query(`CREATE SCHEMA ${schema}`);
    await fn(pool);
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await pool.end();
  }
}

test('on PostgreSQL: named statements answer as unnamed ones do, in and out of a transaction, and the connection keeps them', { skip: PG_URL ? false : 'TEST_DATABASE_URL not set' }, () =>
  onOneConnection(async (pool) => {
    await pool.query('CREATE TABLE t (id int PRIMARY KEY, v text)');
    const sql = new PostgresSql(pool, new StatementNames(8));
    for (let i = 1; i <= 5; i++) assert.equal(await sql.run('INSERT INTO t (id, v) VALUES (?, ?)', [i, `v${i}`]), 1);
    for (let i = 1; i <= 5; i++) assert.deepEqual(await sql.get('SELECT v FROM t WHERE id = ?', [i]), { v: `v${i}` });
    assert.deepEqual(await sql.arrays('SELECT id, v FROM t WHERE id <= ? ORDER BY id', [2]), [[1, 'v1'], [2, 'v2']]);
    await sql.tx(async (t) => {
      // the transaction's handle runs the pool's names on its connection
      assert.deepEqual(await t.get('SELECT v FROM t WHERE id = ?', [3]), { v: 'v3' });
      assert.equal(await t.run('INSERT INTO t (id, v) VALUES (?, ?)', [6, 'v6']), 1);
    });
    assert.deepEqual(await sql.all('SELECT count(*)::int AS n FROM t'), [{ n: 6 }]);
    const kept = (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')).rows.map((r) => r.statement);
    assert.ok(kept.some((s) => s.startsWith('INSERT INTO t')), `the insert is kept (${kept.join(' | ')})`);
    assert.ok(kept.some((s) => s.startsWith('SELECT v FROM t')), 'the select is kept');
    assert.ok(!kept.some((s) => s.startsWith('SELECT id, v FROM t')), 'a text run once is not');
    assert.ok(!kept.some((s) => s.includes('count(*)')), 'nor this one');
  }));

test('on PostgreSQL: a named statement a migration changed the result of is run again, and named afresh', { skip: PG_URL ? false : 'TEST_DATABASE_URL not set' }, () =>
  onOneConnection(async (pool) => {
    await pool.query('CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1)');
    const names = new StatementNames(8);
    const sql = new PostgresSql(pool, names);
    for (let i = 0; i < 3; i++) assert.deepEqual(await sql.get('SELECT * FROM t WHERE id = ?', [1]), { id: 1 });
    // another process's migration: the table gains a column
    await pool.query("ALTER TABLE t ADD COLUMN note text NOT NULL DEFAULT 'x'");
    assert.deepEqual(await sql.get('SELECT * FROM t WHERE id = ?', [1]), { id: 1, note: 'x' });
    assert.deepEqual(await sql.get('SELECT * FROM t WHERE id = ?', [1]), { id: 1, note: 'x' }, 'and under its new name');
    // inside a transaction the refusal aborts it: the transaction fails once, the next one runs
    await pool.query('ALTER TABLE t ADD COLUMN more int NOT NULL DEFAULT 2');
    await assert.rejects(sql.tx((t) => t.get('SELECT * FROM t WHERE id = ?', [1])), /cached plan/);
    assert.deepEqual(await sql.tx((t) => t.get('SELECT * FROM t WHERE id = ?', [1])), { id: 1, note: 'x', more: 2 });
  }));
