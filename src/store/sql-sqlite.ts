// The SQL layer on one node:sqlite connection. Calls are synchronous underneath: statements are
// prepared once and reused (preparing dominates the cost of small queries), and a transaction
// holds the connection until it ends, so a statement from elsewhere never lands inside another
// caller's transaction (it waits for it instead). Connections of one process to one file share
// that hold: a transaction's body may yield, and a second connection's statement must not then
// block the process in SQLite's busy wait on the lock the first one holds.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Row } from './rows.ts';
import { rewriteCache, toSqliteText, type Sql } from './sql.ts';

const text = rewriteCache(toSqliteText);

// async, so a failing statement is a rejected promise like everywhere else
const direct = async (fn: () => unknown): Promise<unknown> => fn();

/** Booleans as 0/1, lists as JSON text (read back with json_each), undefined as NULL. */
function bind(params: readonly unknown[]): SQLInputValue[] {
  return params.map((p) => {
    if (typeof p === 'boolean') return p ? 1 : 0;
    if (p === undefined) return null;
    if (Array.isArray(p)) return JSON.stringify(p);
    return p as SQLInputValue;
  });
}

/** What a transaction holds: set while one runs, resolved when it ends. */
interface Gate {
  held: Promise<void> | null;
}

const gates = new Map<string, Gate>();

export class SqliteSql implements Sql {
  readonly dialect = 'sqlite';
  readonly raw: DatabaseSync;
  readonly #stmts = new Map<string, StatementSync>();
  readonly #arrays = new Map<string, StatementSync>();
  readonly #gate: Gate;
  readonly #inTx: Sql;

  /** `file`: connections to the same file share one gate (an in-memory database has its own). */
  constructor(raw: DatabaseSync, file = ':memory:') {
    this.raw = raw;
    let gate = file === ':memory:' ? undefined : gates.get(file);
    if (!gate) {
      gate = { held: null };
      if (file !== ':memory:') gates.set(file, gate);
    }
    this.#gate = gate;
    // the transaction's own handle runs at once: it is the holder
    this.#inTx = {
      dialect: 'sqlite',
      all: (sql, params = []) => direct(() => this.#all(sql, params)) as Promise<Row[]>,
      get: (sql, params = []) => direct(() => this.#get(sql, params)) as Promise<Row | undefined>,
      run: (sql, params = []) => direct(() => this.#run(sql, params)) as Promise<number>,
      arrays: (sql, params = []) => direct(() => this.#arraysOf(sql, params)) as Promise<unknown[][]>,
      tx: (fn) => fn(this.#inTx),
      lock: () => Promise.resolve(),
    };
  }

  /** A prepared statement, in SQLite's text, made once per statement text. */
  #prepare(sql: string): StatementSync {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.raw.prepare(text(sql));
      this.#stmts.set(sql, s);
    }
    return s;
  }

  async #free(): Promise<void> {
    while (this.#gate.held) await this.#gate.held;
  }

  #all(sql: string, params: readonly unknown[]): Row[] {
    return this.#prepare(sql).all(...bind(params));
  }

  #get(sql: string, params: readonly unknown[]): Row | undefined {
    return this.#prepare(sql).get(...bind(params));
  }

  #run(sql: string, params: readonly unknown[]): number {
    return Number(this.#prepare(sql).run(...bind(params)).changes);
  }

  #arraysOf(sql: string, params: readonly unknown[]): unknown[][] {
    let s = this.#arrays.get(sql);
    if (!s) {
      s = this.raw.prepare(text(sql));
      s.setReturnArrays(true);
      this.#arrays.set(sql, s);
    }
    return s.all(...bind(params)) as unknown as unknown[][];
  }

  async all(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    if (this.#gate.held) await this.#free();
    return this.#all(sql, params);
  }

  async get(sql: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    if (this.#gate.held) await this.#free();
    return this.#get(sql, params);
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    if (this.#gate.held) await this.#free();
    return this.#run(sql, params);
  }

  async arrays(sql: string, params: readonly unknown[] = []): Promise<unknown[][]> {
    if (this.#gate.held) await this.#free();
    return this.#arraysOf(sql, params);
  }

  /** The transaction holds the database: there is nothing finer to lock. */
  async lock(): Promise<void> {}

  /** IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read. */
  async tx<T>(fn: (t: Sql) => Promise<T>): Promise<T> {
    // checked and taken in one synchronous step: waiters woken together must not both see it free
    while (this.#gate.held) await this.#gate.held;
    let release!: () => void;
    this.#gate.held = new Promise((r) => (release = r));
    try {
      this.raw.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(this.#inTx);
        this.raw.exec('COMMIT');
        return out;
      } catch (err) {
        if (this.raw.isTransaction) this.raw.exec('ROLLBACK');
        throw err;
      }
    } finally {
      this.#gate.held = null;
      release();
    }
  }
}
