// The one SQL layer both engines sit behind: statements are written once, with `?` placeholders
// and PostgreSQL's spelling, and each engine's connection (sql-sqlite.ts, sql-postgres.ts)
// carries out the few rewrites its dialect needs (below). Where the engines truly differ
// (claiming with SKIP LOCKED, bulk writes, reading JSON in SQL) a module asks `dialect` and says
// both forms side by side.
import type { Row } from './rows.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Sql {
  readonly dialect: Dialect;
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  get(sql: string, params?: readonly unknown[]): Promise<Row | undefined>;
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Rows as arrays in column order: no object per row on hot paths. */
  arrays(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Every
   * statement of the transaction goes through `t`; on the embedded store the connection is held
   * for the whole of it (other statements wait), on PostgreSQL it is one pooled connection.
   */
  tx<T>(fn: (t: Sql) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits for and holds a lock on `key` until it ends (PostgreSQL's
   * advisory lock; the embedded store's transaction holds the whole database already).
   * Shared holders of a key exclude only its exclusive holders, not each other.
   */
  lock(key: string, mode?: 'exclusive' | 'shared'): Promise<void>;
}

/** A store written over the SQL layer: the connection its statements run on. */
export abstract class OverSql {
  protected readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }
}

/**
 * The statement as SQLite reads it. Written for PostgreSQL, it differs only in ways SQLite can
 * express directly: casts (`?::jsonb`) are dropped (SQLite's columns take what they are given),
 * `greatest`/`least` are SQLite's many-argument `max`/`min`, a list parameter (`= ANY(?)`) is
 * read from its JSON text, and row locks (`FOR UPDATE`, `SKIP LOCKED`) go: an IMMEDIATE
 * transaction holds the whole database already.
 */
export function toSqliteText(sql: string): string {
  return outsideStrings(sql, (part) =>
    part
      .replace(/::[a-z][a-z0-9_]*(\[\])?/gi, '')
      .replace(/\bgreatest\(/gi, 'max(')
      .replace(/\bleast\(/gi, 'min(')
      .replace(/=\s*ANY\(\?\)/gi, 'IN (SELECT value FROM json_each(?))')
      // a bound LIMIT as an expression: SQLite plans "LIMIT ?" over an ORDER BY two to three times
      // slower than a literal or this (measured on the address directory's lookups, 20 → 55 µs)
      .replace(/\bLIMIT \?/g, 'LIMIT CAST(? AS INTEGER)')
      .replace(/\s+FOR UPDATE(\s+OF\s+\w+)?(\s+SKIP LOCKED)?/gi, ''),
  );
}

/** The statement as PostgreSQL reads it: numbered placeholders. */
export function toPostgresText(sql: string): string {
  let n = 0;
  return outsideStrings(sql, (part) => part.replace(/\?/g, () => `$${++n}`));
}

/** Applies `fn` to the parts of `sql` outside single-quoted literals. */
function outsideStrings(sql: string, fn: (part: string) => string): string {
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => (i % 2 === 1 ? part : fn(part)))
    .join('');
}

/** A list parameter (an array) read as a table of one column, `value`. */
export function listTable(dialect: Dialect, type: 'text' | 'int'): string {
  return dialect === 'postgres' ? `unnest(?::${type}[]) AS list (value)` : 'json_each(?)';
}

/** A JSON array parameter (its text) read as a table `k` of one column, `value`, each element as JSON (read its parts with `->>`). */
export function jsonListTable(dialect: Dialect): string {
  return dialect === 'postgres' ? 'jsonb_array_elements(?::jsonb) AS k (value)' : 'json_each(?) AS k';
}

/** A unique or primary key refused the row (either engine). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errcode?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** Remembers each statement's rewritten text: rewriting costs more than the cache lookup. */
export function rewriteCache(rewrite: (sql: string) => string): (sql: string) => string {
  const cache = new Map<string, string>();
  return (sql) => {
    let out = cache.get(sql);
    if (out === undefined) {
      out = rewrite(sql);
      cache.set(sql, out);
    }
    return out;
  };
}
