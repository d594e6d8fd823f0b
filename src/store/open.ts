import type { Config } from '../config.ts';
import { PostgresStore } from './postgres.ts';
import { SqliteStore } from './sqlite.ts';
import type { Store } from './store.ts';

/** The store the configuration names, migrated and ready. */
export async function openStore(store: Config['store']): Promise<Store> {
  const s = store.kind === 'postgres' ? new PostgresStore(store) : new SqliteStore(store.file);
  try {
    await s.migrate();
  } catch (err) {
    await s.close();
    throw err;
  }
  return s;
}
