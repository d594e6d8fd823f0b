// One node:sqlite connection with what every embedded-store module needs: statements prepared
// once and reused (preparing dominates the cost of small queries) and IMMEDIATE transactions.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export class SqliteDb {
  readonly raw: DatabaseSync;
  readonly #stmts = new Map<string, StatementSync>();

  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }

  q(sql: string): StatementSync {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.raw.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }

  /** IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read. */
  tx<T>(fn: () => T): T {
    this.raw.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.raw.exec('COMMIT');
      return out;
    } catch (err) {
      this.raw.exec('ROLLBACK');
      throw err;
    }
  }
}
