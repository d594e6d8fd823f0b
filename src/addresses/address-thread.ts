// A thread that checks addresses for AddressThreads: parsing, the directory's lookups and
// matching — most of a named row's cost — run here, beside the thread that serves requests and
// commits chunks. It opens the directory read-only on its own connection (the embedded file in
// WAL lets readers in beside the writer; PostgreSQL gets a small pool of its own).
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { createAddressService, type AddressService } from './address-service.ts';
import { LocalDirectory } from './local-directory.ts';
import { SandboxDirectory } from './sandbox-directory.ts';
import { AddressStore } from '../store/address-store.ts';
import { SqliteSql } from '../store/sql-sqlite.ts';
import { PostgresStore } from '../store/postgres.ts';
import type { AddressThreadSetup, FromAddressThread, ToAddressThread } from './address-thread-protocol.ts';

const setup = workerData as AddressThreadSetup;

// `rows: false`: a chunk's buildings are asked of the store all at once (findMany), not one by one
function open(): { service: AddressService; close(): Promise<void> } {
  if (setup.directory === 'sandbox') return { service: createAddressService(new SandboxDirectory()), close: async () => {} };
  const store = setup.store;
  if (store.kind === 'sqlite') {
    const db = new DatabaseSync(store.file, { readOnly: true });
    db.exec('PRAGMA busy_timeout = 5000');
    return { service: createAddressService(new LocalDirectory(new AddressStore(new SqliteSql(db, store.file)), { rows: false })), close: async () => db.close() };
  }
  const pg = new PostgresStore({ url: store.url, poolSize: 2, ...(store.schema ? { schema: store.schema } : {}) });
  return { service: createAddressService(new LocalDirectory(pg.addresses, { rows: false })), close: () => pg.close() };
}

const { service } = open();
parentPort!.on('message', (m: ToAddressThread) => {
  service.checkMany(m.raws).then(
    (checks) => {
      const out: FromAddressThread = { id: m.id, checks: [...checks].map(([raw, c]) => (c instanceof Error ? [raw, { error: c.message }] : [raw, c])) };
      parentPort!.postMessage(out);
    },
    (err: unknown) => parentPort!.postMessage({ id: m.id, failed: err instanceof Error ? err.message : String(err) } satisfies FromAddressThread),
  );
});
