// Runs a suite once per store: embedded always, PostgreSQL when TEST_DATABASE_URL is set
// (reported as skipped otherwise). Each run gets a fresh database: a temp folder or a schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Config } from '../../src/config.ts';
import { PostgresStore } from '../../src/store/postgres.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/store.ts';

export type StoreKind = 'sqlite' | 'postgres';
export const PG_URL = process.env.TEST_DATABASE_URL;

export interface FreshStore {
  config: Config['store'];
  dataDir: string;
  cleanup(): Promise<void>;
}

export function freshStoreConfig(kind: StoreKind): FreshStore {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-test-'));
  if (kind === 'sqlite') {
    return {
      config: { kind: 'sqlite', file: path.join(dataDir, 'bizcheck.db') },
      dataDir,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    config: { kind: 'postgres', url: PG_URL, schema },
    dataDir,
    cleanup: async () => {
      const s = new PostgresStore({ url: PG_URL, schema });
      try {
        await s.dropSchema();
      } finally {
        await s.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** describe(`${name} [sqlite]`) and describe(`${name} [postgres]`), the latter skipped without TEST_DATABASE_URL. */
export function describeEachStore(name: string, fn: (kind: StoreKind) => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  // a skipped test (not a skipped suite) so the runner's summary counts it as skipped
  describe(`${name} [postgres]`, () => (PG_URL ? fn('postgres') : test('on PostgreSQL', { skip: 'TEST_DATABASE_URL not set' }, () => {})));
}

/**
 * A fresh store of `kind` for the enclosing suite: opened before its tests, closed and removed
 * after. Read `.store` inside the tests (it is set once the suite starts).
 */
export function useFreshStore(kind: StoreKind): { store: Store } {
  const held = {} as { store: Store; fresh: FreshStore };
  before(async () => {
    held.fresh = freshStoreConfig(kind);
    held.store = await openStore(held.fresh.config);
  });
  after(async () => {
    await held.store.close();
    await held.fresh.cleanup();
  });
  return held;
}

