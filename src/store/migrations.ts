// Numbered migration files, one folder per engine, applied in order and recorded by version.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Migration {
  version: string;
  sql: string;
}

export function loadMigrations(engine: 'sqlite' | 'postgres'): Migration[] {
  const dir = path.join(import.meta.dirname, 'migrations', engine);
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .toSorted()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(path.join(dir, f), 'utf8') }));
}
