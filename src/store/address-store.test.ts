import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { describeEachAddressStore, type OpenAddressStore, openAddressStore } from '../../test/helpers/address-stores.ts';
import { generateEntries } from '../addresses/address-db-fixture.ts';
import { ADDRESS_BATCH_SIZE, anywhereKey, type AnywhereKey, lotKey, type LotKey, mainKey, type MainKey, type RelatedLotOf, roadInKey, type RoadInKey, roadKey, roadNameKey, type RoadNameKey } from './address-store.ts';

const many1 = (m: Map<string, DirectoryEntry[]>): DirectoryEntry[] => [...m.values()][0]!;

const T = { timeout: 30_000 };

const entry = (over: Partial<DirectoryEntry>): DirectoryEntry => ({
  buildingId: '1168010100107370000000001', zipcode: '06236', sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동',
  ri: '', roadName: '테헤란로', underground: false, buildingMain: 152, buildingSub: 0, jibunMountain: false, jibunMain: 737,
  jibunSub: 0, buildingName: '강남파이낸스센터', roadAddress: '서울특별시 강남구 테헤란로 152', ...over,
});

const GFC = entry({});
const GFC_ANNEX = entry({ buildingId: '1168010100107370001000002', buildingSub: 2, jibunSub: 1, buildingName: '', roadAddress: '서울특별시 강남구 테헤란로 152-2' });
const OTHER_GU = entry({ buildingId: '1165010800100010000000003', sigungu: '서초구', eupmyeondong: '서초동', buildingMain: 152, jibunMain: 1, buildingName: '' });
const BUSAN = entry({ buildingId: '2635010500100010000000004', sido: '부산광역시', sigungu: '해운대구', eupmyeondong: '우동', buildingMain: 152, jibunMain: 5, buildingName: '' });
const RURAL = entry({
  buildingId: '4183025021101230000000005', zipcode: '12554', sido: '경기도', sigungu: '양평군', eupmyeondong: '양평읍', ri: '양근리',
  roadName: '중앙로', buildingMain: 7, jibunMain: 123, jibunSub: 4, jibunMountain: true, underground: true, buildingName: '',
  roadAddress: '경기도 양평군 양평읍 중앙로 지하 7', apartment: true,
});
const ALL = [GFC, GFC_ANNEX, OTHER_GU, BUSAN, RURAL];
const ids = (es: DirectoryEntry[]): string[] => es.map((e) => e.buildingId);

describeEachAddressStore('AddressStore', (kind) => {
  let db: OpenAddressStore;
  before(async () => {
    db = await openAddressStore(kind);
    await db.store.upsertEntries(ALL);
  });
  after(() => db.close());

  test('entries come back exactly as stored, flags included', T, async () => {
    assert.equal(await db.store.count(), ALL.length);
    assert.deepEqual(await db.store.findByRoad('양평군', '중앙로', 7, 0, 10), [RURAL]);
  });

  test('the migration is safe to run twice', T, async () => {
    await db.migrateAgain();
    assert.equal(await db.store.count(), ALL.length);
  });

  test('findByRoad: exact number, any 부번, any number, any 시군구', T, async () => {
    assert.deepEqual(ids(await db.store.findByRoad('강남구', '테헤란로', 152, 0, 10)), [GFC.buildingId]);
    assert.deepEqual(ids(await db.store.findByRoad('강남구', '테헤란로', 152, null, 10)), [GFC.buildingId, GFC_ANNEX.buildingId], '부번 0 first');
    assert.deepEqual(ids(await db.store.findByRoad('강남구', '테헤란로', null, null, 10)), [GFC.buildingId, GFC_ANNEX.buildingId]);
    assert.deepEqual(new Set(ids(await db.store.findByRoad(null, '테헤란로', 152, 0, 10))), new Set([GFC.buildingId, OTHER_GU.buildingId, BUSAN.buildingId]));
    assert.deepEqual(await db.store.findByRoad('강남구', '테헤란로', 999, null, 10), []);
  });

  test('findByRoadName: within a 시도, or anywhere', T, async () => {
    assert.deepEqual(new Set(ids(await db.store.findByRoadName('테헤란로', '서울특별시', 10))), new Set([GFC.buildingId, GFC_ANNEX.buildingId, OTHER_GU.buildingId]));
    assert.equal((await db.store.findByRoadName('테헤란로', null, 10)).length, 4);
    assert.deepEqual(ids(await db.store.findByRoadName('테헤란로', '부산광역시', 10)), [BUSAN.buildingId]);
  });

  test('findByJibun: by 동 or by 리, with or without 부번, narrowed by 시도/시군구', T, async () => {
    assert.deepEqual(ids(await db.store.findByJibun('서울특별시', '강남구', '역삼동', 737, 0, 10)), [GFC.buildingId]);
    assert.deepEqual(ids(await db.store.findByJibun(null, null, '역삼동', 737, null, 10)), [GFC.buildingId, GFC_ANNEX.buildingId]);
    assert.deepEqual(ids(await db.store.findByJibun(null, '양평군', '양근리', 123, 4, 10)), [RURAL.buildingId]);
    assert.deepEqual(ids(await db.store.findByJibun('경기도', null, '양평읍', 123, null, 10)), [RURAL.buildingId]);
    assert.deepEqual(await db.store.findByJibun('부산광역시', null, '역삼동', 737, null, 10), []);
    // an empty 리 must never match an empty dong
    assert.deepEqual(await db.store.findByJibun(null, null, '', 737, null, 10), []);
  });

  test('limit is respected', T, async () => {
    assert.equal((await db.store.findByRoadName('테헤란로', null, 2)).length, 2);
    assert.deepEqual(await db.store.findByRoadName('테헤란로', null, 0), []);
  });

  test('upsert replaces by buildingId; twice in one call keeps the last', T, async () => {
    const renamed = { ...GFC, buildingName: 'GFC', zipcode: '06237' };
    await db.store.upsertEntries([{ ...GFC, buildingName: 'first' }, renamed]);
    assert.equal(await db.store.count(), ALL.length);
    assert.deepEqual(await db.store.findByRoad('강남구', '테헤란로', 152, 0, 10), [renamed]);
    await db.store.upsertEntries([GFC]);
    assert.deepEqual(await db.store.findByRoad('강남구', '테헤란로', 152, 0, 10), [GFC]);
    await db.store.upsertEntries([]);
  });

  test('more rows than one batch are all written', T, async () => {
    const many = [...generateEntries(ADDRESS_BATCH_SIZE * 2 + 17, { seed: 3 })];
    await db.store.upsertEntries(many);
    assert.equal(await db.store.count(), ALL.length + many.length);
    const sample = many[ADDRESS_BATCH_SIZE + 5]!;
    const found = await db.store.findByRoad(sample.sigungu, sample.roadName, sample.buildingMain, sample.buildingSub, 50);
    assert.ok(found.some((e) => e.buildingId === sample.buildingId));
    assert.deepEqual(found.find((e) => e.buildingId === sample.buildingId), sample);
  });
});

describeEachAddressStore('AddressStore, many buildings at once, and what a directory keeps in memory', (kind) => {
  const underground = entry({ buildingId: '1168010100107370000000009', underground: true, buildingName: '', roadAddress: '서울특별시 강남구 테헤란로 지하 152' });
  let db: OpenAddressStore;
  before(async () => {
    db = await openAddressStore(kind);
    await db.store.upsertEntries([underground, ...ALL]);
  });
  after(() => db.close());

  test('findByRoadMany answers each key as findByRoad does: same rows, same order, absent ones empty, repeats once', T, async () => {
    const keys = [
      { sigungu: '강남구', roadName: '테헤란로', main: 152, sub: 0 },
      { sigungu: '강남구', roadName: '테헤란로', main: 152, sub: 2 },
      { sigungu: '양평군', roadName: '중앙로', main: 7, sub: 0 },
      { sigungu: '강남구', roadName: '테헤란로', main: 999, sub: 0 },
      { sigungu: '강남구', roadName: '테헤란로', main: 152, sub: 0 },
    ];
    for (const limit of [1, 20]) {
      const many = await db.store.findByRoadMany(keys, limit);
      assert.equal(many.size, 4);
      for (const k of keys) assert.deepEqual(many.get(roadKey(k)), await db.store.findByRoad(k.sigungu, k.roadName, k.main, k.sub, limit), `${JSON.stringify(k)}, limit ${limit}`);
    }
    assert.deepEqual(ids(many1(await db.store.findByRoadMany(keys, 20))), [GFC.buildingId, underground.buildingId]);
  });

  test('findByRoadsAt answers each road name as findByRoad(null, …) does: same rows, same order, absent names empty', T, async () => {
    const names = ['테헤란로', '중앙로', '없는로'];
    for (const [main, sub] of [[152, 0], [7, 0], [152, 2], [999, 0]] as const) {
      for (const limit of [1, 2, 20]) {
        const at = await db.store.findByRoadsAt(names, main, sub, limit);
        assert.deepEqual([...at.keys()], names);
        for (const n of names) assert.deepEqual(at.get(n), await db.store.findByRoad(null, n, main, sub, limit), `${n} ${main}-${sub}, limit ${limit}`);
      }
    }
    assert.equal((await db.store.findByRoadsAt(names, 152, 0, 20)).get('테헤란로')!.length, 4, 'every 시군구 and 시도, above ground first');
  });

  // what a directory keeps in memory (directory-memory.ts)
  test('roadNumbersIn: the 시군구\'s buildings by road and number, with rows findByRoadAt answers as findByRoad does', T, async () => {
    const rows = await db.store.roadNumbersIn('강남구');
    assert.deepEqual(rows.map(([road, main, sub]) => [road, main, sub]), [['테헤란로', 152, 0], ['테헤란로', 152, 0], ['테헤란로', 152, 2]]);
    assert.deepEqual(await db.store.roadNumbersIn('없는구'), []);
    if (kind === 'postgres') {
      assert.ok(rows.every((r) => r[3] === null), 'no rows to give');
      return;
    }
    const at = (main: number, sub: number): number[] => rows.filter((r) => r[1] === main && r[2] === sub).map((r) => r[3]!);
    for (const limit of [1, 20]) {
      assert.deepEqual(await db.store.findByRoadAt(at(152, 0), '강남구', '테헤란로', 152, 0, limit), await db.store.findByRoad('강남구', '테헤란로', 152, 0, limit));
      assert.deepEqual(await db.store.findByRoadAt(at(152, 2), '강남구', '테헤란로', 152, 2, limit), await db.store.findByRoad('강남구', '테헤란로', 152, 2, limit));
    }
    // a row that no longer holds the address (an import since): findByRoad is to say what does
    await db.store.upsertEntries([{ ...GFC_ANNEX, buildingSub: 4, roadAddress: '서울특별시 강남구 테헤란로 152-4' }]);
    assert.equal(await db.store.findByRoadAt(at(152, 2), '강남구', '테헤란로', 152, 2, 20), null);
    await db.store.upsertEntries([GFC_ANNEX]);
  });

  test('sigunguNames and formerRoadNames: each name once', T, async () => {
    assert.deepEqual(new Set(await db.store.sigunguNames()), new Set(['강남구', '서초구', '해운대구', '양평군']));
    assert.equal((await db.store.sigunguNames()).length, 4);
    const known = await db.store.formerRoadNames();
    assert.ok(!known.includes('역삼로'));
    const former = { kind: 'former_road', sigungu: '강남구', roadName: '역삼로', underground: false, main: 1, sub: 0 } as const;
    await db.store.addFormerRoads([{ buildingId: GFC.buildingId, former }, { buildingId: GFC_ANNEX.buildingId, former: { ...former, sub: 2 } }]);
    assert.deepEqual((await db.store.formerRoadNames()).toSorted(), [...known, '역삼로'].toSorted());
  });

  test('every write to the directory raises its version', T, async () => {
    const lot = { buildingId: GFC.buildingId, sido: GFC.sido, sigungu: GFC.sigungu, lot: { kind: 'related_lot', eupmyeondong: '역삼동', ri: '', mountain: false, main: 738, sub: 0 } } as const;
    const writes: [string, () => Promise<void>][] = [
      ['upsertEntries', () => db.store.upsertEntries([GFC])],
      ['addFormerRoads', () => db.store.addFormerRoads([{ buildingId: GFC.buildingId, former: { kind: 'former_road', sigungu: '강남구', roadName: '논현로', underground: false, main: 9, sub: 0 } }])],
      ['addRelatedLots', () => db.store.addRelatedLots([lot])],
      ['deleteRelatedLots', () => db.store.deleteRelatedLots([lot])],
      ['deleteBuildings', () => db.store.deleteBuildings([underground.buildingId])],
    ];
    for (const [name, write] of writes) {
      const was = await db.store.directoryVersion();
      await write();
      assert.ok((await db.store.directoryVersion()) > was, name);
    }
  });
});

describeEachAddressStore('AddressStore, a chunk\'s lots and roads in one statement', (kind) => {
  let db: OpenAddressStore;
  const entries = [...generateEntries(1_500, { seed: 30 })];
  // buildings standing on lots besides their own: some on another building's lot (a lot with
  // buildings of its own and others), some on lots of their own 동 or 리 no building has, some
  // on a mountain lot, several on one such lot
  const related: RelatedLotOf[] = entries.filter((_, i) => i % 9 === 0).map((e, i) => {
    const other = entries[(i * 37) % entries.length]!;
    const onOther = i % 3 === 0;
    const byRi = !onOther && e.ri !== '' && i % 2 === 0;
    return {
      buildingId: e.buildingId, sido: onOther ? other.sido : e.sido, sigungu: onOther ? other.sigungu : e.sigungu,
      lot: onOther
        ? { kind: 'related_lot', eupmyeondong: other.eupmyeondong, ri: other.ri, mountain: other.jibunMountain, main: other.jibunMain, sub: other.jibunSub }
        : { kind: 'related_lot', eupmyeondong: e.eupmyeondong, ri: e.ri, mountain: i % 5 === 0, main: 9_000 + (i % 4), sub: byRi ? 1 : 0 },
    };
  });
  before(async () => {
    db = await openAddressStore(kind);
    await db.store.upsertEntries(entries);
    await db.store.addRelatedLots(related);
  });
  after(() => db.close());

  test('findByJibunMany and findByRelatedLotMany answer each lot as findByJibun and findByRelatedLot do', T, async () => {
    const keys: LotKey[] = [];
    for (const [i, e] of entries.entries()) {
      if (i % 4 !== 0) continue;
      const dong = e.ri !== '' && i % 8 === 0 ? e.ri : e.eupmyeondong;
      keys.push({ sido: e.sido, sigungu: e.sigungu, dong, main: e.jibunMain, sub: e.jibunSub });
      keys.push({ sido: i % 3 === 0 ? null : e.sido, sigungu: null, dong, main: e.jibunMain, sub: e.jibunSub });
      // another 시군구's, and a lot nobody has
      keys.push({ sido: e.sido, sigungu: entries[(i + 1) % entries.length]!.sigungu, dong, main: e.jibunMain, sub: e.jibunSub });
      keys.push({ sido: null, sigungu: null, dong, main: e.jibunMain + 50_000, sub: 0 });
    }
    for (const r of related) {
      const dong = r.lot.ri !== '' && r.lot.sub === 1 ? r.lot.ri : r.lot.eupmyeondong;
      keys.push({ sido: r.sido, sigungu: r.sigungu, dong, main: r.lot.main, sub: r.lot.sub }, { sido: null, sigungu: null, dong, main: r.lot.main, sub: r.lot.sub });
    }
    keys.push(keys[0]!, { sido: null, sigungu: null, dong: '', main: entries[0]!.jibunMain, sub: entries[0]!.jibunSub });
    let own = 0;
    let onIt = 0;
    for (const limit of [1, 3, 20]) {
      const lots = await db.store.findByJibunMany(keys, limit);
      const standing = await db.store.findByRelatedLotMany(keys, limit);
      for (const k of keys) {
        const why = `${JSON.stringify(k)}, limit ${limit}`;
        const one = await db.store.findByJibun(k.sido, k.sigungu, k.dong, k.main, k.sub, limit);
        assert.deepEqual(lots.get(lotKey(k)), one, why);
        assert.deepEqual(standing.get(lotKey(k)), await db.store.findByRelatedLot(k.sido, k.sigungu, k.dong, k.main, k.sub, limit), why);
        if (limit === 20) {
          own += one.length;
          onIt += standing.get(lotKey(k))!.length;
        }
      }
    }
    // the keys found what they were made to find
    assert.ok(own > 500 && onIt > 100, `${own} own, ${onIt} standing on them`);
  });

  test('findByRoadAnywhereMany answers each road and number as findByRoad(null, …) does', T, async () => {
    const keys: AnywhereKey[] = entries.filter((_, i) => i % 3 === 0).flatMap((e) => [
      { roadName: e.roadName, main: e.buildingMain, sub: e.buildingSub },
      { roadName: e.roadName, main: e.buildingMain + 1, sub: 0 },
    ]);
    keys.push(keys[0]!, { roadName: '없는로', main: 1, sub: 0 });
    let found = 0;
    for (const limit of [1, 2, 80]) {
      const many = await db.store.findByRoadAnywhereMany(keys, limit);
      for (const k of keys) {
        const one = await db.store.findByRoad(null, k.roadName, k.main, k.sub, limit);
        assert.deepEqual(many.get(anywhereKey(k)), one, `${JSON.stringify(k)}, limit ${limit}`);
        if (limit === 80) found += one.length;
      }
    }
    assert.ok(found > 500, `${found} found`);
  });

  test('findByRoadMainMany, findByRoadNameMany and findByRoadInMany answer each road as findByRoad(null, road, 본번, null, …), findByRoadName and findByRoad(시군구, road, null, null, …) do', T, async () => {
    // one road name in several 시군구 and 시도, with 부번, underground buildings and one 본번 many times over
    const spread: DirectoryEntry[] = ['강남구', '서초구', '중구', '동구', '남구', '가평군'].flatMap((sigungu, s) =>
      [0, 1, 2, 3].map((sub) => ({
        ...entries[s]!, buildingId: `99${String(s)}${String(sub).padStart(22, '0')}`, sigungu, sido: s % 2 === 0 ? '서울특별시' : '부산광역시', roadName: '한마음로',
        buildingMain: 7 + (sub % 2), buildingSub: sub, underground: sub === 2, roadAddress: `${sigungu} 한마음로 ${7 + (sub % 2)}-${sub}`,
      })));
    // an underground building at an address above-ground one has, its id ordered before that one's
    spread.push(...spread.filter((e) => e.buildingSub === 0).map((e) => ({ ...e, buildingId: `98${e.buildingId.slice(2)}`, underground: true, roadAddress: `${e.sigungu} 한마음로 지하 7` })));
    await db.store.upsertEntries(spread);
    try {
      const mains: MainKey[] = entries.filter((_, i) => i % 3 === 0).flatMap((e) => [{ roadName: e.roadName, main: e.buildingMain }, { roadName: e.roadName, main: e.buildingMain + 1 }]);
      mains.push(mains[0]!, { roadName: '한마음로', main: 7 }, { roadName: '한마음로', main: 8 }, { roadName: '없는로', main: 1 });
      const names: RoadNameKey[] = entries.filter((_, i) => i % 5 === 0).flatMap((e, i) => [{ roadName: e.roadName, sido: i % 2 === 0 ? e.sido : null }, { roadName: e.roadName, sido: '제주특별자치도' }]);
      names.push(names[0]!, { roadName: '한마음로', sido: null }, { roadName: '한마음로', sido: '부산광역시' }, { roadName: '없는로', sido: null });
      let found = 0;
      for (const limit of [1, 3, 80]) {
        const byMain = await db.store.findByRoadMainMany(mains, limit);
        for (const k of mains) {
          const one = await db.store.findByRoad(null, k.roadName, k.main, null, limit);
          assert.deepEqual(byMain.get(mainKey(k)), one, `${JSON.stringify(k)}, limit ${limit}`);
          if (limit === 80) found += one.length;
        }
        const byName = await db.store.findByRoadNameMany(names, limit);
        for (const k of names) assert.deepEqual(byName.get(roadNameKey(k)), await db.store.findByRoadName(k.roadName, k.sido, limit), `${JSON.stringify(k)}, limit ${limit}`);
      }
      assert.ok(found > 500, `${found} found`);
      assert.equal((await db.store.findByRoadNameMany([{ roadName: '한마음로', sido: null }], 80)).get(roadNameKey({ roadName: '한마음로', sido: null }))!.length, 30);
      // a road of a 시군구 whatever the number
      const ins: RoadInKey[] = entries.filter((_, i) => i % 5 === 0).flatMap((e) => [{ sigungu: e.sigungu, roadName: e.roadName }, { sigungu: '없는구', roadName: e.roadName }]);
      ins.push(ins[0]!, ...spread.map((e) => ({ sigungu: e.sigungu, roadName: e.roadName })));
      for (const limit of [1, 3, 80]) {
        const byIn = await db.store.findByRoadInMany(ins, limit);
        for (const k of ins) assert.deepEqual(byIn.get(roadInKey(k)), await db.store.findByRoad(k.sigungu, k.roadName, null, null, limit), `${JSON.stringify(k)}, limit ${limit}`);
      }
    } finally {
      await db.store.deleteBuildings(spread.map((e) => e.buildingId));
    }
  });
});
