import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import iconv from 'iconv-lite';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { ADDRESS_BATCH_SIZE, type AddressStore } from '../store/address-store.ts';
import { describeEachAddressStore, type OpenAddressStore, openAddressStore } from '../../test/helpers/address-stores.ts';
import { addressDbLine, generateEntries, writeAddressDbFixture } from './address-db-fixture.ts';
import { ADDRESS_DB_COLUMNS, importAddressDb, parseAddressDbLine } from './address-db-import.ts';

const T = { timeout: 60_000 };

const SPECIAL: DirectoryEntry = {
  buildingId: '4183025021101230004000099', zipcode: '12554', sido: '경기도', sigungu: '양평군', eupmyeondong: '양평읍', ri: '양근리',
  roadName: '양평시장길', underground: true, buildingMain: 12, buildingSub: 3, jibunMountain: true, jibunMain: 45, jibunSub: 6,
  buildingName: '양평물맑은시장', roadAddress: '경기도 양평군 양평읍 양평시장길 지하 12-3',
};
const SEJONG: DirectoryEntry = {
  buildingId: '3611011000100010000000077', zipcode: '30103', sido: '세종특별자치시', sigungu: '', eupmyeondong: '어진동', ri: '',
  roadName: '한누리대로', underground: false, buildingMain: 2130, buildingSub: 0, jibunMountain: false, jibunMain: 1, jibunSub: 0,
  buildingName: '', roadAddress: '세종특별자치시 한누리대로 2130',
};
const cols = addressDbLine(SPECIAL).split('|');
const withCol = (i: number, v: string): string => cols.map((c, j) => (j === i ? v : c)).join('|');
const MALFORMED = [
  cols.slice(0, 23).join('|'), // a column short
  `${addressDbLine(SPECIAL)}|extra`, // a column too many
  withCol(12, '12a'), // 건물본번 not a number
  withCol(8, '-1'), // 지번부번 negative
  withCol(11, 'Y'), // 지하여부 not 0/1
  withCol(16, '1255'), // 기초구역번호 not 5 digits
  withCol(0, ''), // no 관리번호
];

describe('parseAddressDbLine', () => {
  test('24 columns in the documented order; roadAddress derived; 시군구용건물명 is the name', () => {
    assert.equal(ADDRESS_DB_COLUMNS.length, 24);
    const line = addressDbLine(SPECIAL, { registerBuildingName: '대장상 이름' });
    assert.deepEqual(parseAddressDbLine(line), { ...SPECIAL, registerName: '대장상 이름' });
    assert.equal(line.split('|')[21], '대장상 이름');
    // the same name twice is kept once
    assert.deepEqual(parseAddressDbLine(addressDbLine(SPECIAL)), SPECIAL);
    // 공동주택구분 1: a 공동주택
    const flat = addressDbLine(SPECIAL, { apartment: true });
    assert.equal(flat.split('|')[19], '1');
    assert.deepEqual(parseAddressDbLine(flat), { ...SPECIAL, apartment: true });
  });

  test('세종 (no 시군구) has no double space', () => {
    assert.deepEqual(parseAddressDbLine(addressDbLine(SEJONG)), SEJONG);
  });

  test('malformed lines are refused', () => {
    for (const line of MALFORMED) assert.equal(parseAddressDbLine(line), null, line);
  });

  test('a UTF-8 line read as CP949 is refused rather than stored as mojibake', () => {
    const misread = iconv.decode(Buffer.from(addressDbLine(SPECIAL), 'utf8'), 'cp949');
    assert.equal(misread.split('|').length, 24);
    assert.equal(parseAddressDbLine(misread), null);
  });
});

/** A store that takes everything and keeps nothing, for what is refused before anything is written. */
const NULL_SINK = {
  upsertEntries: async () => {}, rebuildIndexes: async () => {}, deferIndexes: async () => false, analyze: async () => {},
} as unknown as AddressStore;

describe('importAddressDb input handling', () => {
  test('a DIR without *.txt files is an error, not an empty import', T, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    try {
      writeFileSync(path.join(dir, 'readme.md'), 'not an address file');
      const sink = NULL_SINK;
      await assert.rejects(importAddressDb(dir, sink), /no \*\.txt address files/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file without line breaks is skipped piecemeal, not read into memory', T, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    try {
      writeFileSync(path.join(dir, 'rnaddrkor_zip.txt'), Buffer.alloc(3 * 2 ** 20, 'x|'));
      const sink = NULL_SINK;
      // skipped piecemeal, and then refused: nothing in it was a building
      await assert.rejects(importAddressDb(dir, sink), /none of the \d+ lines .* is a line of the 도로명주소 한글 files/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a folder of another product (주소DB 주소_*.txt, other columns) is refused with a clear error, not "imported 0 rows"', T, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    try {
      // 주소DB lines: 도로명주소관리번호|법정동코드|시도명|… in another layout (fewer columns)
      writeFileSync(path.join(dir, '주소_서울특별시.txt'), iconv.encode('11680101001073700000|1168010100|서울특별시|강남구|역삼동||0|737|0|116803122010|테헤란로|0|152|0|06236\n'.repeat(3), 'cp949'));
      const sink = NULL_SINK;
      await assert.rejects(importAddressDb(dir, sink), /another product/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('lines with one more empty field at the end (some releases) are read', () => {
    const line = addressDbLine(SPECIAL);
    assert.deepEqual(parseAddressDbLine(`${line}|`), parseAddressDbLine(line));
    assert.equal(parseAddressDbLine(`${line}|x`), null, 'a 25th field with something in it is not that');
  });

  test('a failing store fails the import, reading stops, and the deferred indexes are built again', T, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    const db = await openAddressStore('sqlite');
    const indexes = async () => (await db.all("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")).map((r) => r.name);
    try {
      const built = await indexes();
      assert.ok(built.length >= 8);
      await writeAddressDbFixture(path.join(dir, 'rnaddrkor_big.txt'), ADDRESS_BATCH_SIZE * 8);
      let calls = 0;
      db.store.upsertEntries = async () => { calls++; throw new Error('disk full'); };
      await assert.rejects(importAddressDb(dir, db.store), /disk full/);
      assert.ok(calls <= 2, `stopped after the first failed batch, not after ${calls}`);
      assert.deepEqual(await indexes(), built);
      assert.equal((await db.all('SELECT name FROM address_deferred_indexes')).length, 0);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('indexes an import that died midway left unbuilt are built by the next one', T, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    const db = await openAddressStore('sqlite');
    try {
      assert.equal(await db.store.deferIndexes(), true, 'an empty directory defers its indexes');
      assert.ok((await db.all('SELECT name FROM address_deferred_indexes')).length >= 8);
      await writeAddressDbFixture(path.join(dir, 'rnaddrkor_a.txt'), 10);
      await importAddressDb(dir, db.store);
      assert.equal((await db.all('SELECT name FROM address_deferred_indexes')).length, 0);
      const plan = await db.all("EXPLAIN QUERY PLAN SELECT building_id FROM address_directory WHERE sigungu = 'a' AND road_name = 'b' AND building_main = 1 AND building_sub = 0");
      assert.match(String(plan[0]?.detail), /USING INDEX address_directory_road/);
      assert.equal(await db.store.deferIndexes(), false, 'a directory with rows keeps its indexes');
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeEachAddressStore('a first import defers the directory\'s indexes', (kind) => {
  test('dropped while it loads, every one built again at its end, none left waiting', T, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    const db = await openAddressStore(kind);
    const catalog = kind === 'postgres'
      ? "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename LIKE 'address_%' ORDER BY 1"
      : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'address_%' AND sql IS NOT NULL ORDER BY 1";
    try {
      const built = (await db.all(catalog)).map((r) => r.name);
      assert.equal(await db.store.deferIndexes(), true);
      const waiting = (await db.all('SELECT name FROM address_deferred_indexes')).length;
      assert.ok(waiting >= 8, `${waiting} deferred`);
      assert.ok((await db.all(catalog)).length <= built.length - waiting, 'dropped meanwhile');
      await writeAddressDbFixture(path.join(dir, 'rnaddrkor_a.txt'), 10);
      assert.equal((await importAddressDb(dir, db.store)).rows, 10);
      assert.deepEqual((await db.all(catalog)).map((r) => r.name), built);
      assert.equal((await db.all('SELECT name FROM address_deferred_indexes')).length, 0);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeEachAddressStore('importAddressDb', (kind) => {
  let db: OpenAddressStore;
  let dir: string;
  // more than one batch, so progress is reported more than once
  const GENERATED = ADDRESS_BATCH_SIZE + 700;
  const seoul = [...generateEntries(GENERATED, { seed: 11, sido: '서울특별시' })];
  const gyeonggi = [...generateEntries(300, { seed: 12, firstIndex: GENERATED, sido: '경기도' })];
  before(async () => {
    db = await openAddressStore(kind);
    dir = mkdtempSync(path.join(tmpdir(), 'addrdb-'));
    await writeAddressDbFixture(path.join(dir, 'rnaddrkor_seoul.txt'), GENERATED, { seed: 11, sido: '서울특별시', extraLines: ['', ...MALFORMED] });
    // CRLF, and the special lines at the end of the file with no final newline
    await writeAddressDbFixture(path.join(dir, 'rnaddrkor_gyeonggi.txt'), 300, { seed: 12, firstIndex: GENERATED, sido: '경기도', crlf: true });
    const tail = iconv.encode(`${addressDbLine(SPECIAL)}\r\n${addressDbLine(SEJONG)}`, 'cp949');
    writeFileSync(path.join(dir, 'rnaddrkor_gyeonggi.txt'), tail, { flag: 'a' });
    writeFileSync(path.join(dir, 'layout.hwp'), 'ignored: not .txt');
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the fixture really is CP949, not UTF-8', T, () => {
    const bytes = readFileSync(path.join(dir, 'rnaddrkor_seoul.txt'));
    assert.equal(bytes.includes(Buffer.from('특별시', 'utf8')), false);
    assert.ok(bytes.includes(iconv.encode('특별시', 'cp949')));
  });

  test('every well-formed line is stored; malformed ones are counted', T, async () => {
    const progress: number[] = [];
    const result = await importAddressDb(dir, db.store, { onProgress: (n) => progress.push(n) });
    assert.deepEqual(result, { files: 2, rows: GENERATED + 300 + 2, deleted: 0, related_lots: 0, skipped: MALFORMED.length });
    assert.equal(await db.store.count(), GENERATED + 302);
    assert.ok(progress.length >= 2);
    assert.deepEqual(progress, progress.toSorted((a, b) => a - b));
    assert.equal(progress.at(-1), result.rows);
  });

  test('지하 and 산 flags, 리, and 세종 come through', T, async () => {
    assert.deepEqual(await db.store.findByRoad('양평군', '양평시장길', 12, 3, 5), [SPECIAL]);
    assert.deepEqual(await db.store.findByJibun('경기도', '양평군', '양근리', 45, 6, 5), [SPECIAL]);
    assert.deepEqual(await db.store.findByRoadName('한누리대로', '세종특별자치시', 5), [SEJONG]);
  });

  test('generated rows read back equal to what was generated (CRLF file included)', T, async () => {
    for (const e of [seoul[0]!, seoul[GENERATED - 1]!, gyeonggi[0]!, gyeonggi[299]!]) {
      const found = await db.store.findByRoad(e.sigungu || null, e.roadName, e.buildingMain, e.buildingSub, 50);
      assert.deepEqual(found.find((f) => f.buildingId === e.buildingId), e);
    }
  });

  test('importing again changes nothing', T, async () => {
    const result = await importAddressDb(dir, db.store);
    assert.equal(result.rows, GENERATED + 302);
    assert.equal(await db.store.count(), GENERATED + 302);
  });
});
