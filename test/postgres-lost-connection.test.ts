// A PostgreSQL connection lost in the middle of a transaction fails that transaction; it must not
// end the process (a checked-out client's 'error' event has no listener of the pool's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { PostgresSql } from '../src/store/sql-postgres.ts';
import { PG_URL } from './helpers/stores.ts';

test('a connection lost mid-transaction rejects the transaction and nothing else', { skip: PG_URL ? false : 'TEST_DATABASE_URL not set' }, async () => {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  pool.on('error', () => {});
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    const sql = new PostgresSql(pool);
    const killer = new pg.Client({ connectionString: PG_URL });
    await killer.connect();
    try {
      await assert.rejects(
        sql.tx(async (t) => {
          const me = await t.get('SELECT pg_backend_pid() AS pid');
          await killer.query('SELECT pg_terminate_backend($1)', [me!.pid]);
          await t.get('SELECT 1 AS x');
        }),
      );
    } finally {
      await killer.end();
    }
    // give the dead connection's events a turn to arrive
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(uncaught, []);
    assert.equal((await sql.get('SELECT 2 AS x'))?.x, 2, 'the pool goes on with a new connection');
  } finally {
    process.off('uncaughtException', onUncaught);
    await pool.end();
  }
});
