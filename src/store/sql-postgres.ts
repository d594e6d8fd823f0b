// The SQL layer on a `pg` pool: statements go to any pooled connection, a transaction to one
// connection of its own (committed when its function resolves, rolled back when it throws, the
// connection always returned).
import pg from 'pg';
import type { Row } from './rows.ts';
import { rewriteCache, toPostgresText, type Sql } from './sql.ts';

// int8 counters stay far below 2^53; numbers are friendlier than strings everywhere else
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

const text = rewriteCache(toPostgresText);

export class PostgresSql implements Sql {
  readonly dialect = 'postgres';
  readonly #on: pg.Pool | pg.PoolClient;

  constructor(on: pg.Pool | pg.PoolClient) {
    this.#on = on;
  }

  async all(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#on.query(text(sql), params as unknown[])).rows as Row[];
  }

  async get(sql: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    return (await this.#on.query(text(sql), params as unknown[])).rows[0] as Row | undefined;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.#on.query(text(sql), params as unknown[])).rowCount ?? 0;
  }

  async arrays(sql: string, params: readonly unknown[] = []): Promise<unknown[][]> {
    return (await this.#on.query<unknown[]>({ text: text(sql), values: params as unknown[], rowMode: 'array' })).rows;
  }

  async lock(key: string, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<void> {
    await this.#on.query(`SELECT ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext('bizcheck'), hashtext($1))`, [key]);
  }

  async tx<T>(fn: (t: Sql) => Promise<T>): Promise<T> {
    if (!(this.#on instanceof pg.Pool)) return fn(this);
    const c = await this.#on.connect();
    // a checked-out client has no listener for its connection's 'error' (the pool's is for idle
    // ones): a connection lost mid-transaction would throw it and end the process. The awaited
    // query is rejected all the same, and the transaction fails as any other.
    c.on('error', ignoreLostConnection);
    try {
      await c.query('BEGIN');
      const out = await fn(new PostgresSql(c));
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.removeListener('error', ignoreLostConnection);
      c.release();
    }
  }
}

const ignoreLostConnection = (): void => {};
