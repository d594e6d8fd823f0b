// The local address directory as an operator sets it up: the official DB files (CP949, |-separated)
// imported with the CLI, then used by the server for corrections.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import iconv from 'iconv-lite';
import { generateEntries, relatedLotLine, writeAddressDbFixture } from '../src/addresses/address-db-fixture.ts';
import { createAccount } from '../src/accounts/accounts.ts';
import { loadConfig } from '../src/config.ts';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { startServer, type RunningServer } from '../src/start/server.ts';
import { call } from './helpers/server.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../bin/bizcheck.js');

describe('bizcheck addresses import', () => {
  let dataDir: string;
  let dbDir: string;
  let srv: RunningServer | undefined;
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-addr-'));
    dbDir = path.join(dataDir, 'juso-db');
    mkdirSync(dbDir);
    await writeAddressDbFixture(path.join(dbDir, 'rnaddrkor_a.txt'), 1500, { seed: 11, extraLines: ['broken|line'], crlf: true });
    await writeAddressDbFixture(path.join(dbDir, 'rnaddrkor_b.txt'), 500, { seed: 12, firstIndex: 1500 });
    // the release's related lots (관련지번): a building stands on more lots than its own
    const building = [...generateEntries(3, { seed: 11 })][2]!;
    const lots = [relatedLotLine(building, { main: 9001 }), relatedLotLine(building, { main: 9001, sub: 2 }), 'a|b|c'];
    writeFileSync(path.join(dbDir, 'jibun_rnaddrkor_a.txt'), iconv.encode(lots.join('\r\n'), 'cp949'));
  });
  after(async () => {
    await srv?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('imports every file, counts the lines it could not read, and the server then corrects from it', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'addresses', 'import', dbDir], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, timeout: 60_000 });
    const result = JSON.parse(stdout);
    assert.equal(result.files, 3);
    assert.equal(result.rows, 2000);
    assert.equal(result.related_lots, 2);
    assert.equal(result.skipped, 2);
    assert.equal(result.directory_rows, 2000);

    srv = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }));
    assert.equal(srv.directory.source, 'local', 'auto picks the imported directory');
    const { apiKey } = await createAccount(srv.store, 'addr@example.com', 'business');
    const entry = [...generateEntries(3, { seed: 11 })][1]!;
    const written = `${entry.sido.slice(0, 2)} ${entry.sigungu} ${entry.roadName} ${entry.buildingMain}${entry.buildingSub ? `-${entry.buildingSub}` : ''}`;
    const res = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: SANDBOX_FIXED[0]!.bno, name: '한빛상사', address: written } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.fixed_zipcode, entry.zipcode, JSON.stringify(res.body.address));
    assert.equal(res.body.fixed_address, entry.roadAddress);

    // an old 지번 address naming a related lot finds the building standing on it
    const building = [...generateEntries(3, { seed: 11 })][2]!;
    const lotForm = `${building.sido} ${building.sigungu} ${building.ri || building.eupmyeondong} 9001-2`;
    const byLot = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: SANDBOX_FIXED[0]!.bno, name: '한빛상사', address: lotForm } });
    assert.equal(byLot.status, 200, JSON.stringify(byLot.body));
    assert.equal(byLot.body.fixed_address, building.roadAddress, JSON.stringify(byLot.body));
    assert.equal(byLot.body.address.building_id, building.buildingId);
  });

  test('a lookup repeated after the directory changes gets the new answer (checks are kept per directory version)', async () => {
    assert.ok(srv, 'the server of the test above');
    const { apiKey } = await createAccount(srv.store, 'addr-change@example.com', 'business');
    const entry = [...generateEntries(5, { seed: 11 })][4]!;
    const body = { b_no: SANDBOX_FIXED[0]!.bno, name: '한빛상사', address: `${entry.sido} ${entry.sigungu} ${entry.roadName} ${entry.buildingMain}${entry.buildingSub ? `-${entry.buildingSub}` : ''}` };
    const first = await call(srv.url, 'POST', '/verify', { key: apiKey, body });
    assert.equal(first.body.fixed_zipcode, entry.zipcode);
    assert.deepEqual((await call(srv.url, 'POST', '/verify', { key: apiKey, body })).body.address, first.body.address, 'the same answer when nothing changed');
    // a monthly change moves the building to another postal code: the next lookups see it
    // within the directory's version check (once a second)
    await srv.store.addresses.upsertEntries([{ ...entry, zipcode: '99999' }]);
    let zip: unknown = null;
    for (let i = 0; i < 30 && zip !== '99999'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      zip = (await call(srv.url, 'POST', '/verify', { key: apiKey, body })).body.fixed_zipcode;
    }
    assert.equal(zip, '99999');
  });

  test('a folder without address files is a clear error', async () => {
    const empty = path.join(dataDir, 'empty');
    mkdirSync(empty);
    await assert.rejects(run(process.execPath, [BIN, 'addresses', 'import', empty], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, timeout: 20_000 }), (e: { code: number; stderr: string }) => {
      assert.equal(e.code, 1);
      assert.match(e.stderr, /no \*\.txt address files/);
      return true;
    });
  });
});
