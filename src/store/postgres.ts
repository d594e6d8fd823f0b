// The store on PostgreSQL through `pg`. Several API and worker processes share one database;
// every check-and-change is a single statement or a transaction, so correctness never depends on
// which process asks.
import pg from 'pg';
import { loadMigrations } from './migrations.ts';
import { PostgresSql, StatementNames } from './sql-postgres.ts';
import { SqlStore } from './store.ts';

export interface PostgresOptions {
  url: string;
  /** a schema of its own (tests give each run one); created if missing */
  schema?: string;
  /** pool size per process: a few connections serve thousands of requests a second */
  poolSize?: number;
  /** statement texts run as named statements, parsed once per connection (StatementNames; default 256, 0 none) */
  namedStatements?: number;
}

export class PostgresStore extends SqlStore {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  readonly #schema: string | undefined;

  constructor(opts: PostgresOptions) {
    if (opts.schema && !/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`bad schema name ${opts.schema}`);
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      // a statement that cannot finish in 15 s is a fault, not a slow answer
      statement_timeout: 15_000,
      connectionTimeoutMillis: 5_000,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // an idle client that loses its connection must not crash the process
    pool.on('error', () => {});
    super(new PostgresSql(pool, new StatementNames(opts.namedStatements ?? 256)));
    this.#pool = pool;
    this.#schema = opts.schema;
  }

  async migrate(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      if (this.#schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.#schema}`);
      // one migrator at a time across every process starting together
      await client.query("SELECT pg_advisory_lock(hashtext('bizcheck.migrate'))");
      try {
        await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL)');
        for (const m of loadMigrations('postgres')) {
          const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
          if (done.rowCount) continue;
          await client.query('BEGIN');
          try {
            await client.query(m.sql);
            await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [m.version]);
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK');
            throw err;
          }
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext('bizcheck.migrate'))");
      }
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /** Test helper: removes the schema this store was given. */
  async dropSchema(): Promise<void> {
    if (this.#schema) await this.#pool.query(`DROP SCHEMA IF EXISTS ${this.#schema} CASCADE`);
  }
}
