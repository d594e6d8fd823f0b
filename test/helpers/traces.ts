// Where a deleted value could still be: every row of every table, and the embedded database's
// files (the database and its write-ahead log). Tests of deletion and retention search both.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Sql } from '../../src/store/sql.ts';
import type { TestServer } from './server.ts';

/** The one SQL connection every concern's store of the server runs on. */
export const sqlOf = (srv: TestServer): Sql => (srv.store.batches as unknown as { sql: Sql }).sql;

/** Every row of every table, as JSON text. */
export async function everyRow(srv: TestServer): Promise<string> {
  const sql = sqlOf(srv);
  const tables = srv.store.kind === 'sqlite'
    ? await sql.all("SELECT name AS t FROM sqlite_master WHERE type = 'table'")
    : await sql.all('SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema()');
  let out = '';
  for (const { t } of tables) out += JSON.stringify(await sql.all(`SELECT * FROM "${String(t)}"`));
  return out;
}

/** The embedded database's files under the server's data folder, bytes read as UTF-8. */
export function databaseFiles(srv: TestServer): string {
  return readdirSync(srv.config.dataDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(path.join(e.parentPath, e.name)).toString('utf8'))
    .join('\n');
}
