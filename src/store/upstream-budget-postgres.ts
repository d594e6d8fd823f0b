// The NTS call budget shared by every process on one PostgreSQL (see src/registry/budget.ts for
// the rule). A reservation is one atomic upsert of the budget's row, timed by the database's
// clock, so processes on machines whose clocks disagree still space their calls correctly.
import pg from 'pg';
import { sleep, type UpstreamBudget } from '../registry/budget.ts';

// slot = the later of "next free" and now; the row moves on by one interval; the caller waits
// until its slot. Row locking serialises concurrent reservations.
const RESERVE = `
INSERT INTO upstream_budget AS b (name, next_at)
VALUES ($1, clock_timestamp() + make_interval(secs => $2::float8))
ON CONFLICT (name) DO UPDATE SET next_at = greatest(b.next_at, clock_timestamp()) + make_interval(secs => $2::float8)
RETURNING greatest(0, extract(epoch FROM (b.next_at - make_interval(secs => $2::float8) - clock_timestamp())) * 1000)::float8 AS wait_ms`;

export class PostgresUpstreamBudget implements UpstreamBudget {
  readonly #pool: pg.Pool;
  readonly #name: string;
  readonly #intervalS: number;

  constructor(opts: { url: string; schema?: string; perSecond: number; name?: string }) {
    if (!(opts.perSecond > 0)) throw new RangeError('an upstream budget needs a positive rate');
    if (opts.schema && !/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`bad schema name ${opts.schema}`);
    this.#name = opts.name ?? 'nts';
    this.#intervalS = 1 / opts.perSecond;
    // its own two connections: a reservation must not queue behind the store's busy pool, or the
    // wait it computes would already be out of date when it arrives
    this.#pool = new pg.Pool({
      connectionString: opts.url,
      max: 2,
      statement_timeout: 5_000,
      connectionTimeoutMillis: 5_000,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    this.#pool.on('error', () => {});
  }

  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const res = await this.#pool.query<{ wait_ms: number }>(RESERVE, [this.#name, this.#intervalS]);
    await sleep(res.rows[0]?.wait_ms ?? 0, signal);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
