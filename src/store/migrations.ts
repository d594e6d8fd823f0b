// Numbered migrations, applied in order and recorded by version. Each is written once, in
// PostgreSQL's dialect (migrations/NNNN_name.sql); for the embedded store the types SQLite lacks
// are spelled its way (SQLITE_TYPES). What only one engine needs is tagged with it: a clause as
// `/*[sqlite] WITHOUT ROWID*/`, statements between `-- [postgres]` and `-- [end]`, a whole
// migration as NNNN_name.postgres.sql. The embedded store keeps the address directory's tables in
// a file of its own (sqlite.ts), moved there after 0036: a later migration that makes an index on
// one of them names the schema for SQLite (`CREATE INDEX /*[sqlite] directory.*/name ON …`).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Engine = 'sqlite' | 'postgres';

export interface Migration {
  version: string;
  sql: string;
}

const FILE = /^(\d{4}_[a-z0-9_]+)(?:\.(sqlite|postgres))?\.sql$/;

const SQLITE_TYPES: readonly [RegExp, string][] = [
  [/\bbigserial PRIMARY KEY\b/g, 'INTEGER PRIMARY KEY AUTOINCREMENT'],
  [/\b(\w+)(\s+)boolean\b/g, '$1$2INTEGER CHECK ($1 IN (0, 1))'],
  [/\b(?:jsonb|timestamptz)\b/g, 'TEXT'],
];

/** A migration's text as `engine` runs it. */
export function forEngine(sql: string, engine: Engine): string {
  let out = sql
    .replace(/^-- \[(sqlite|postgres)\]\n([\s\S]*?)^-- \[end\]\n/gm, (_, tag: string, body: string) => (tag === engine ? body : ''))
    .replace(/\/\*\[(sqlite|postgres)\] ([^*]*)\*\//g, (_, tag: string, text: string) => (tag === engine ? text : ''))
    // comments go first so that the type names below are only ever read in statements
    .replace(/^[ \t]*--.*\n/gm, '');
  if (engine === 'sqlite') for (const [from, to] of SQLITE_TYPES) out = out.replace(from, to);
  return out;
}

export function loadMigrations(engine: Engine): Migration[] {
  const dir = path.join(import.meta.dirname, 'migrations');
  return readdirSync(dir)
    .map((f) => ({ f, m: FILE.exec(f) }))
    .filter(({ m }) => m && (!m[2] || m[2] === engine))
    .toSorted((a, b) => a.f.localeCompare(b.f))
    .map(({ f, m }) => ({ version: m![1]!, sql: forEngine(readFileSync(path.join(dir, f), 'utf8'), engine) }));
}
