// The published change files (변동분) applied after a full release, as an operator does day by
// day: renamed roads stay findable by their old address, 폐지 lines delete, related lots come and
// go, a day with nothing says "No Data", and applying the same files twice changes nothing.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import iconv from 'iconv-lite';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { matchAddress } from '../domain/address/match.ts';
import { parseAddress } from '../domain/address/parse.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { describeEachAddressStore, type OpenAddressStore, openAddressStore } from '../../test/helpers/address-stores.ts';
import { addressDbLine, relatedLotLine } from './address-db-fixture.ts';
import { importAddressDb } from './address-db-import.ts';
import { LocalDirectory } from './local-directory.ts';

const T = { timeout: 30_000 };

const building = (over: Partial<DirectoryEntry>): DirectoryEntry => {
  const e: DirectoryEntry = {
    buildingId: '1168010100107370000000001', zipcode: '06236', sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동',
    ri: '', roadName: '테헤란로', underground: false, buildingMain: 152, buildingSub: 0, jibunMountain: false, jibunMain: 737,
    jibunSub: 0, buildingName: '', roadAddress: '', ...over,
  };
  return { ...e, roadAddress: roadAddressOf(e) };
};
const TOWER = building({ buildingName: '강남파이낸스센터', registerName: '지에프씨' });
const OLD = building({ buildingId: '1168010100107400000000002', roadName: '역삼로', buildingMain: 20, jibunMain: 740 });
const RENAMED = { ...OLD, roadName: '선릉로', buildingMain: 433, roadAddress: '서울특별시 강남구 선릉로 433' };
const GONE = building({ buildingId: '1168010100107410000000003', roadName: '논현로', buildingMain: 508, jibunMain: 741 });
const ADDED = building({ buildingId: '1168010100107420000000004', roadName: '논현로', buildingMain: 510, jibunMain: 742 });

const write = (file: string, lines: string[]): void => writeFileSync(file, iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp949'));

describeEachAddressStore('change files (변동분)', (kind) => {
  let db: OpenAddressStore;
  let dir: string;
  let changes: string;
  const find = async (raw: string) => {
    const p = parseAddress(raw);
    return matchAddress(p, await new LocalDirectory(db.store).find(p));
  };

  before(async () => {
    db = await openAddressStore(kind);
    dir = mkdtempSync(path.join(tmpdir(), 'addr-full-'));
    changes = mkdtempSync(path.join(tmpdir(), 'addr-changes-'));
    write(path.join(dir, 'rnaddrkor_seoul.txt'), [addressDbLine(TOWER), addressDbLine(OLD), addressDbLine(GONE)]);
    write(path.join(dir, 'jibun_rnaddrkor_seoul.txt'), [relatedLotLine(TOWER, { main: 736 }), relatedLotLine(GONE, { main: 743 })]);
    // day 1: 역삼로 20 is renumbered onto 선릉로 433 (이전도로명주소 names the old one), 논현로 508 is
    // gone, 논현로 510 is new with a related lot; the tower loses its related lot 736
    write(path.join(changes, 'AlterD.JUSUKR.20261102.TH_SGCO_RNADR_MST.TXT'), [
      addressDbLine(RENAMED, { formerRoadAddress: '서울특별시 강남구 역삼로 20', changeCode: '34' }),
      addressDbLine(GONE, { changeCode: '63' }),
      addressDbLine(ADDED, { changeCode: '31' }),
    ]);
    write(path.join(changes, 'AlterD.JUSUKR.20261102.TH_SGCO_RNADR_LNBR.TXT'), [
      relatedLotLine(TOWER, { main: 736 }, '63'),
      relatedLotLine(ADDED, { main: 744, sub: 1 }, '31'),
    ]);
    // day 2 had nothing; its archive was extracted to a folder of its own
    mkdirSync(path.join(changes, '20261103_dailyjusukrdata'));
    writeFileSync(path.join(changes, '20261103_dailyjusukrdata', 'AlterD.JUSUKR.20261103.TH_SGCO_RNADR_MST.TXT'), 'No Data');
    writeFileSync(path.join(changes, '20261103_dailyjusukrdata', 'AlterD.JUSUKR.20261103.TH_SGCO_RNADR_LNBR.TXT'), 'No Data');
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(changes, { recursive: true, force: true });
  });

  test('the full release: buildings, related lots, and both names of a building', T, async () => {
    const result = await importAddressDb(dir, db.store);
    assert.deepEqual(result, { files: 2, rows: 3, deleted: 0, related_lots: 2, skipped: 0 });
    const lot = await find('서울 강남구 역삼동 736');
    assert.equal(lot.entry?.buildingId, TOWER.buildingId, 'a related lot finds the building on it');
    assert.equal(lot.fixedAddress, TOWER.roadAddress);
    const byRegister = await find('서울 강남구 역삼동 지에프씨 12층');
    assert.equal(byRegister.entry?.buildingId, TOWER.buildingId, 'the 건축물대장건물명 names the building too');
    assert.equal(byRegister.quality, 'corrected');
  });

  test('a day of changes, applied twice, leaves the same directory', T, async () => {
    for (let round = 0; round < 2; round++) {
      const result = await importAddressDb(changes, db.store);
      assert.deepEqual(result, { files: 4, rows: 2, deleted: 1, related_lots: 2, skipped: 0 }, `round ${round}`);
      assert.equal(await db.store.count(), 3);
    }
  });

  test('a renamed road: the new address is exact, the old one still finds the building, corrected', T, async () => {
    const now = await find('서울특별시 강남구 선릉로 433');
    assert.equal(now.quality, 'exact');
    const old = await find('서울 강남구 역삼로 20 3층');
    assert.equal(old.quality, 'corrected');
    assert.equal(old.entry?.buildingId, OLD.buildingId);
    assert.equal(old.fixedAddress, `${RENAMED.roadAddress}, 3층`);
    assert.deepEqual([now.formerRoad, old.formerRoad], [false, true], 'the old road marks a stale record');
    assert.deepEqual(old.changes.filter((c) => c.field === 'road_name' || c.field === 'building_number'), [
      { field: 'road_name', from: '역삼로', to: '선릉로' },
      { field: 'building_number', from: '20', to: '433' },
    ]);
    // the old road name alone, too
    assert.ok((await new LocalDirectory(db.store).find(parseAddress('서울 강남구 역삼로'))).some((e) => e.buildingId === OLD.buildingId));
  });

  test('폐지 deletes the building and its related lots; a new building and its lot are found', T, async () => {
    assert.equal((await find('서울 강남구 논현로 508')).quality, 'not_found');
    assert.equal((await find('서울 강남구 역삼동 743')).entry, null);
    assert.equal((await find('서울 강남구 논현로 510')).quality, 'exact');
    assert.equal((await find('서울 강남구 역삼동 744-1')).entry?.buildingId, ADDED.buildingId);
    assert.equal((await find('서울 강남구 역삼동 736')).entry, null, 'the tower no longer stands on 736');
  });
});

test('a file of another product is still refused when change files are expected', T, async () => {
  const db = await openAddressStore('sqlite');
  const dir = mkdtempSync(path.join(tmpdir(), 'addr-other-'));
  try {
    writeFileSync(path.join(dir, 'AlterD.JUSUKR.20261102.TH_SGCO_RNADR_MST.TXT'), 'a|b|c\n');
    await assert.rejects(importAddressDb(dir, db.store), /none of the 1 lines/);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
