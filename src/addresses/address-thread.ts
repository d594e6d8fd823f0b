// A thread that checks addresses for AddressThreads: parsing, the directory's lookups and
// matching — most of a named row's cost — run here, beside the thread that serves requests and
// commits chunks. A batch chunk's checks are kept here until its numbers are answered, and its
// rows are then scored here too (mailing-score.ts, the code the main thread runs for a single
// mailing), so that only a few strings per row come back. It opens the directory read-only on its
// own connection (the embedded file in WAL lets readers in beside the writer; PostgreSQL gets a
// small pool of its own).
import { parentPort, workerData } from 'node:worker_threads';
import { createAddressService, type AddressCheck, type AddressService } from './address-service.ts';
import { LocalDirectory } from './local-directory.ts';
import { openDirectoryFile } from './directory-file.ts';
import { SandboxDirectory } from './sandbox-directory.ts';
import { AddressStore } from '../store/address-store.ts';
import { SqliteSql } from '../store/sql-sqlite.ts';
import { directoryFileOf } from '../store/sqlite-files.ts';
import { PostgresStore } from '../store/postgres.ts';
import { deliveryPointOf, ScoreMemo, scoreChunk } from '../domain/mailing-score.ts';
import { type AddressThreadSetup, type FromAddressThread, fromColumns, keptToColumns, type ToAddressThread } from './address-thread-protocol.ts';

const setup = workerData as AddressThreadSetup;

/**
 * Chunks' checks waiting for their scoring (~1 MB a chunk of 1,000 addresses). A chunk that waits
 * for NTS instead (or whose worker died) never asks: its checks are dropped after a while, and at
 * most KEPT_MAX are kept, the oldest dropped first: four times the chunks a process works at once
 * by default (BATCH_WORKER_CONCURRENCY), spread over its threads.
 */
const KEPT_MS = 5 * 60_000;
const KEPT_MAX = 32;
const kept = new Map<number, { checks: Map<string, AddressCheck | Error>; at: number }>();
/** judgements of the chunks scored here, for the rows of later chunks with the same model input */
const memo = new ScoreMemo();

// `rows: false`: a chunk's buildings are asked of the store all at once (findMany), not one by one
function open(): { service: AddressService; close(): Promise<void> } {
  if (setup.directory === 'sandbox') return { service: createAddressService(new SandboxDirectory()), close: async () => {} };
  const store = setup.store;
  if (store.kind === 'sqlite') {
    const file = directoryFileOf(store.file);
    const db = openDirectoryFile(file, setup.mmapBytes ?? 0);
    return { service: createAddressService(new LocalDirectory(new AddressStore(new SqliteSql(db, file)), { rows: false })), close: async () => db.close() };
  }
  const pg = new PostgresStore({ ...store, poolSize: 2 });
  return { service: createAddressService(new LocalDirectory(pg.addresses, { rows: false })), close: () => pg.close() };
}

function keep(id: number, checks: Map<string, AddressCheck | Error>): void {
  const now = Date.now();
  for (const [session, k] of kept) if (now - k.at > KEPT_MS || kept.size >= KEPT_MAX) kept.delete(session);
  kept.set(id, { checks, at: now });
}

async function answer(m: Exclude<ToAddressThread, { stop: true }>): Promise<FromAddressThread> {
  if ('score' in m) {
    const session = kept.get(m.score.session);
    if (!session) return { id: m.id, failed: `the checks of call ${m.score.session} are no longer kept` };
    kept.delete(m.score.session);
    return { id: m.id, scored: keptToColumns(scoreChunk(fromColumns(m.score.rows), session.checks, m.score.ctx, memo)) };
  }
  const checks = await service.checkMany(m.raws);
  if (!m.keep) return { id: m.id, checks: [...checks].map(([raw, c]) => (c instanceof Error ? [raw, { error: c.message }] : [raw, c])) };
  keep(m.id, checks);
  return {
    id: m.id,
    points: m.raws.map((raw) => {
      const c = checks.get(raw) ?? new Error('the address was not checked');
      return c instanceof Error ? { error: c.message } : deliveryPointOf(c);
    }),
  };
}

const directory = open();
const { service } = directory;
let inFlight = Promise.resolve();
parentPort!.on('message', (m: ToAddressThread) => {
  if ('stop' in m) {
    // the thread ends when nothing is left to do: a clean end closes the store and writes what --cpu-prof collected
    void inFlight.then(() => directory.close()).catch(() => {}).finally(() => parentPort!.close());
    return;
  }
  const done = answer(m).then(
    (out) => parentPort!.postMessage(out),
    (err: unknown) => parentPort!.postMessage({ id: m.id, failed: err instanceof Error ? err.message : String(err) } satisfies FromAddressThread),
  );
  inFlight = inFlight.then(() => done);
});
