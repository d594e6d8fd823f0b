import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { createAddressService } from './address-service.ts';
import { AddressThreads } from './address-threads.ts';
import { SandboxDirectory } from './sandbox-directory.ts';
import { sandboxWorld } from './sandbox-data.ts';
import { LocalDirectory } from './local-directory.ts';
import { generateEntries } from './address-db-fixture.ts';
import { mailingsFrom } from '../../scripts/eval/as-written.ts';
import { SqliteStore } from '../store/sqlite.ts';
import { openDirectoryFile } from './directory-file.ts';
import { directoryFileOf } from '../store/sqlite-files.ts';

const T = { timeout: 60_000 };
const local = createAddressService(new SandboxDirectory());
const world = sandboxWorld();
// written as lists write them: abbreviated, 지번, a typo'd road, nonsense, blanks
const raws = world.entries.slice(0, 40).flatMap((e, i) => [
  `${e.sido.slice(0, 2)} ${e.sigungu} ${e.roadName} ${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`,
  `${e.sido} ${e.sigungu} ${e.eupmyeondong} ${e.jibunMain}${i % 3 === 0 ? ', 3층' : ''}`,
]).concat(['어딘가 먼 곳', '   ', '서울 강남구 테헤란노 152']);

test('a chunk checked in a thread is what the in-process service answers', T, async () => {
  const threads = new AddressThreads(local, { directory: 'sandbox' }, 2);
  try {
    // (Maps compare without regard to order)
    const [a, b] = await Promise.all([threads.checkMany(raws), threads.checkMany(raws.toReversed())]);
    const alone = await local.checkMany(raws);
    assert.equal(threads.answeredInThreads, 2);
    assert.deepEqual(a, alone);
    assert.deepEqual(b, alone);
    // a handful stays in-process: a round trip would cost more than the checks
    await threads.checkMany(raws.slice(0, 3));
    assert.equal(threads.answeredInThreads, 2);
  } finally {
    await threads.close();
  }
});

test('a thread that dies answers nothing wrong: the call is checked in-process and the next one gets a new thread', T, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-address-thread-'));
  const broken = path.join(dir, 'broken-thread.mjs');
  // dies on its first message
  writeFileSync(broken, "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => process.exit(3));\n");
  const errors: unknown[] = [];
  const threads = new AddressThreads(local, { directory: 'sandbox' }, 1, { threadUrl: pathToFileURL(broken), onError: (e) => errors.push(e) });
  try {
    const out = await threads.checkMany(raws);
    assert.deepEqual(out, await local.checkMany(raws));
    assert.equal(threads.answeredInThreads, 0);
    assert.match(String(errors[0]), /exit code 3/);
    await threads.checkMany(raws);
    assert.equal(errors.length, 2, 'a new thread was started, and it died too');
  } finally {
    await threads.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an embedded directory, in its own file, read through a memory map: the same checks, and a change written meanwhile is seen', T, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-address-mmap-'));
  const file = path.join(dir, 'bizcheck.db');
  const store = new SqliteStore(file);
  const entries = [...generateEntries(3_000, { seed: 5 })];
  const threads = new AddressThreads(createAddressService(new LocalDirectory(store.addresses)), { directory: 'local', store: { kind: 'sqlite', file }, mmapBytes: 64 * 1024 ** 2 }, 1);
  try {
    await store.migrate();
    await store.addresses.upsertEntries(entries);
    const inProcess = createAddressService(new LocalDirectory(store.addresses));
    // written with the damage customer lists carry
    const written = mailingsFrom(entries, 1_500, 5).map((m) => m.address);
    const [inThread, alone] = [await threads.checkMany(written), await inProcess.checkMany(written)];
    assert.equal(threads.answeredInThreads, 1);
    assert.deepEqual(inThread, alone);
    assert.ok([...alone.values()].filter((c) => !(c instanceof Error) && c.entry).length > 1_000, 'most addresses are found');

    // the server's own connection writes while the thread's map is open: a building moves to another road number
    const moved = { ...entries[0]!, buildingMain: entries[0]!.buildingMain + 4_000, roadAddress: `${entries[0]!.roadAddress}-moved` };
    await store.addresses.upsertEntries([moved]);
    const raw = `${moved.sido} ${moved.sigungu} ${moved.roadName} ${moved.buildingMain}`;
    const after = (await threads.checkMany([raw, ...written.slice(0, 20)])).get(raw);
    assert.ok(after && !(after instanceof Error));
    assert.equal(after.entry?.buildingId, moved.buildingId);
    assert.equal(threads.answeredInThreads, 2);

    // what the thread opens: read-only, mapped as asked, or not at all
    for (const [asked, set] of [[64 * 1024 ** 2, 64 * 1024 ** 2], [0, 0]] as const) {
      const db = openDirectoryFile(directoryFileOf(file), asked);
      try {
        assert.equal((db.prepare('PRAGMA mmap_size').get() as { mmap_size: number }).mmap_size, set);
        assert.throws(() => db.exec('DELETE FROM address_directory'), /readonly/);
      } finally {
        db.close();
      }
    }
  } finally {
    await threads.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
