// The SQL layer on a `pg` pool: statements go to any pooled connection, a transaction to one
// connection of its own (committed when its function resolves, rolled back when it throws, the
// connection always returned).
import pg from 'pg';
import type { Row } from './rows.ts';
import { rewriteCache, toPostgresText, type Sql } from './sql.ts';

// int8 counters stay far below 2^53; numbers are friendlier than strings everywhere else
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

const text = rewriteCache(toPostgresText);

/**
 * Names for the statements a pool runs again and again, so that PostgreSQL parses each once per
 * connection (and plans it by its plan cache's rule: afresh for the first five runs, then once for
 * all unless that plan looks costlier) instead of on every run: a named row's chunk runs hundreds
 * of directory statements, and naming them took named rows on PostgreSQL from 8.0k to 11.3–11.9k a
 * second (bench/RESULTS.md, session 23). A text is named the second time it runs, and at most
 * `most` texts are: a text with a list of varying length is a text per length, and each named one
 * is kept by every connection that runs it; those past the limit, and those run once, stay
 * unnamed. 0 names none, for a pooler in transaction mode that cannot keep a session's statements.
 */
export class StatementNames {
  readonly #most: number;
  readonly #named = new Map<string, string>();
  #made = 0;
  /** texts run once so far (dropped when they fill up: a text seen again is then counted anew) */
  readonly #seen = new Set<string>();

  constructor(most: number) {
    this.#most = most;
  }

  /** The name to run `t` under, or undefined to run it unnamed. */
  nameOf(t: string): string | undefined {
    const name = this.#named.get(t);
    if (name !== undefined || this.#named.size >= this.#most) return name;
    if (!this.#seen.delete(t)) {
      if (this.#seen.size >= 4 * this.#most) this.#seen.clear();
      this.#seen.add(t);
      return undefined;
    }
    const named = `bizcheck_${++this.#made}`;
    this.#named.set(t, named);
    return named;
  }

  /**
   * A text whose named statement a connection can no longer run (a migration changed what it
   * returns): named afresh, so that each connection prepares it again under the new name.
   */
  renew(t: string): void {
    if (this.#named.has(t)) this.#named.set(t, `bizcheck_${++this.#made}`);
  }

  /** How many texts are named. */
  get size(): number {
    return this.#named.size;
  }
}

export class PostgresSql implements Sql {
  readonly dialect = 'postgres';
  readonly #on: pg.Pool | pg.PoolClient;
  readonly #names: StatementNames;

  /** `names`: the pool's (a transaction's handle shares its pool's); none names nothing. */
  constructor(on: pg.Pool | pg.PoolClient, names: StatementNames = new StatementNames(0)) {
    this.#on = on;
    this.#names = names;
  }

  #query(sql: string, params: readonly unknown[], rowMode?: 'array'): pg.QueryConfig & { rowMode?: 'array' } {
    const t = text(sql);
    const name = this.#names.nameOf(t);
    return { text: t, values: params as unknown[], ...(name === undefined ? {} : { name }), ...(rowMode ? { rowMode } : {}) };
  }

  /**
   * Runs a statement. A named one that PostgreSQL refuses because a migration changed what it
   * returns (SELECT * of a table that gained a column) is named afresh and, outside a
   * transaction (which the refusal has aborted), run again unnamed.
   */
  async #send<R extends pg.QueryResultRow>(q: pg.QueryConfig & { rowMode?: 'array' }): Promise<pg.QueryResult<R>> {
    try {
      return await this.#on.query<R>(q);
    } catch (err) {
      if (q.name === undefined || !isStalePlan(err)) throw err;
      this.#names.renew(q.text);
      if (!(this.#on instanceof pg.Pool)) throw err;
      const { name: _, ...unnamed } = q;
      return this.#on.query<R>(unnamed);
    }
  }

  async all(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#send<Row>(this.#query(sql, params))).rows;
  }

  async get(sql: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    return (await this.#send<Row>(this.#query(sql, params))).rows[0];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.#send(this.#query(sql, params))).rowCount ?? 0;
  }

  async arrays(sql: string, params: readonly unknown[] = []): Promise<unknown[][]> {
    return (await this.#send<unknown[]>(this.#query(sql, params, 'array'))).rows;
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
      const out = await fn(new PostgresSql(c, this.#names));
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

/** PostgreSQL's refusal of a prepared statement whose result a schema change altered. */
const isStalePlan = (err: unknown): boolean =>
  err instanceof Error && (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(err.message);
