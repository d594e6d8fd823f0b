import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { describeEachAddressStore, type OpenAddressStore, openAddressStore } from '../../test/helpers/address-stores.ts';
import { LocalDirectory } from './local-directory.ts';
import { matchAddress } from '../domain/address/match.ts';
import { parseAddress } from '../domain/address/parse.ts';
import { generateEntries } from './address-db-fixture.ts';
import type { RelatedLotOf } from '../store/address-store.ts';
import { mailingsFrom } from '../../scripts/eval/as-written.ts';

const T = { timeout: 30_000 };

const entry = (over: Partial<DirectoryEntry>): DirectoryEntry => ({
  buildingId: '1168010100107370000000001', zipcode: '06236', sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동',
  ri: '', roadName: '테헤란로', underground: false, buildingMain: 152, buildingSub: 0, jibunMountain: false, jibunMain: 737,
  jibunSub: 0, buildingName: '강남파이낸스센터', roadAddress: '서울특별시 강남구 테헤란로 152', ...over,
});
const GFC = entry({});
const NEXT_DOOR = entry({ buildingId: '1168010100107380000000002', buildingMain: 154, jibunMain: 738, buildingName: '', roadAddress: '서울특별시 강남구 테헤란로 154' });
const GFC_UNDER = entry({ buildingId: '1168010100107370000000003', underground: true, buildingName: '', roadAddress: '서울특별시 강남구 테헤란로 지하 152' });
const LOT_SUB = entry({ buildingId: '1168010100107370001000004', buildingMain: 150, jibunSub: 1, buildingName: '', roadAddress: '서울특별시 강남구 테헤란로 150' });
const BUSAN = entry({ buildingId: '2635010500100010000000005', sido: '부산광역시', sigungu: '해운대구', eupmyeondong: '우동', jibunMain: 5, buildingName: '', roadAddress: '부산광역시 해운대구 테헤란로 152' });
const RURAL = entry({
  buildingId: '4183025021101230000000006', zipcode: '12554', sido: '경기도', sigungu: '양평군', eupmyeondong: '양평읍', ri: '양근리',
  roadName: '중앙로', buildingMain: 7, jibunMain: 123, jibunMountain: true, buildingName: '', roadAddress: '경기도 양평군 중앙로 7',
});

const parsed = (p: Partial<ParsedAddress>): ParsedAddress => ({
  raw: '', sido: null, sigungu: null, eupmyeondong: null, road: null, roadNameOnly: null, jibun: null, detail: null,
  unit: null, buildingName: null, zipcode: null, form: 'unknown', ...p,
});
const road = (name: string, main: number, sub = 0, underground = false) => ({ name, main, sub, underground });
const jibun = (dong: string, main: number, sub = 0, mountain = false) => ({ dong, main, sub, mountain });
const ids = (es: DirectoryEntry[]): string[] => es.map((e) => e.buildingId);

describeEachAddressStore('LocalDirectory', (kind) => {
  let db: OpenAddressStore;
  let dir: LocalDirectory;
  before(async () => {
    db = await openAddressStore(kind);
    await db.store.upsertEntries([GFC, NEXT_DOOR, GFC_UNDER, LOT_SUB, BUSAN, RURAL]);
    dir = new LocalDirectory(db.store);
  });
  after(async () => {
    await dir.close();
    await db.close();
  });

  test('road form in its 시군구: the building, the one above ground first', T, async () => {
    assert.equal(dir.source, 'local');
    assert.deepEqual(ids(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', road: road('테헤란로', 152) }))), [GFC.buildingId, GFC_UNDER.buildingId]);
    assert.deepEqual(ids(await dir.find(parsed({ sigungu: '강남구', road: road('테헤란로', 152, 0, true) }))), [GFC_UNDER.buildingId, GFC.buildingId]);
  });

  test('a building written by its name alone, in its 동 or without one, spacing aside; another 동 or an unknown name finds nothing', T, async () => {
    for (const written of ['서울 강남구 역삼동 강남파이낸스센터 5층', '역삼동 강남 파이낸스센터 1205호', '강남구 강남파이낸스센터']) {
      const q = parseAddress(written);
      const found = await dir.find(q);
      assert.deepEqual(ids(found), [GFC.buildingId], written);
      const m = matchAddress(q, found);
      assert.equal(m.entry?.roadAddress, GFC.roadAddress, written);
      assert.notEqual(m.quality, 'not_found', written);
    }
    assert.deepEqual(await dir.find(parseAddress('서울 강남구 삼성동 강남파이낸스센터')), [], 'not in that 동');
    assert.deepEqual(await dir.find(parseAddress('서울 강남구 역삼동 없는타워')), []);
  });

  test('without a 시군구 the 시도 keeps other cities out', T, async () => {
    assert.deepEqual(ids(await dir.find(parsed({ sido: '부산광역시', road: road('테헤란로', 152) }))), [BUSAN.buildingId]);
  });

  test('a wrong 시군구 still finds the number within the 시도', T, async () => {
    assert.deepEqual(ids(await dir.find(parsed({ sido: '서울특별시', sigungu: '서초구', road: road('테헤란로', 152) }))), [GFC.buildingId, GFC_UNDER.buildingId]);
  });

  test('a wrong number falls back to the road in the 시도: the buildings of that 본번, else one that shows the road exists', T, async () => {
    const wrongSub = await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', road: road('테헤란로', 152, 7) }));
    assert.deepEqual(new Set(ids(wrongSub)), new Set([GFC.buildingId, GFC_UNDER.buildingId]));
    const wrongMain = parsed({ sido: '서울특별시', sigungu: '강남구', road: road('테헤란로', 999) });
    const found = await dir.find(wrongMain);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.roadName, '테헤란로');
    assert.equal(matchAddress(wrongMain, found).notFound, 'no_such_number');
    const nameOnly = await dir.find(parsed({ sido: '부산광역시', roadNameOnly: '테헤란로' }));
    assert.deepEqual(ids(nameOnly), [BUSAN.buildingId]);
  });

  test('jibun form, by 동 or 리; 산 preferred when asked for', T, async () => {
    assert.deepEqual(new Set(ids(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', jibun: jibun('역삼동', 737) })))), new Set([GFC.buildingId, GFC_UNDER.buildingId]));
    assert.deepEqual(ids(await dir.find(parsed({ sigungu: '양평군', jibun: jibun('양근리', 123, 0, true) }))), [RURAL.buildingId]);
  });

  test('a lot as it was meant: its 동 as the 행정동, or its 시군구 as it was called before (matched as a correction)', T, async () => {
    assert.deepEqual(new Set(ids(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', jibun: jibun('역삼1동', 737) })))), new Set([GFC.buildingId, GFC_UNDER.buildingId]));
    // 양평군 written as a 시군구 it is not in: the lot within the 시도 (a renamed or split 시군구)
    const moved = parseAddress('경기도 가평군 양평읍 양근리 산 123');
    const found = await dir.find(moved);
    assert.deepEqual(ids(found), [RURAL.buildingId]);
    assert.equal(matchAddress(moved, found).quality, 'corrected');
    // without a 시도 the lot is not looked for in a 시군구 the written one does not name: a 동's
    // name and a lot number recur across the country
    assert.deepEqual(await dir.find(parsed({ sigungu: '가평군', jibun: jibun('양근리', 123, 0, true) })), []);
    assert.deepEqual(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', jibun: jibun('역삼1동', 999) })), []);
  });

  test('a lot under its 동 mistyped in the written 시군구 (역샘동 737 for 역삼동), matched as corrected; a two-letter 동 is not guessed at', T, async () => {
    const typo = parseAddress('서울 강남구 역샘동 737');
    const found = await dir.find(typo);
    assert.deepEqual(new Set(ids(found)), new Set([GFC.buildingId, GFC_UNDER.buildingId]));
    const m = matchAddress(typo, found.slice(0, 1));
    assert.equal(m.quality, 'corrected');
    assert.ok(m.changes.some((c) => c.field === 'eupmyeondong'), JSON.stringify(m.changes));
    assert.deepEqual(await dir.find(parseAddress('서울 강남구 역샘동 999')), []);
    assert.deepEqual(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', jibun: jibun('역동', 737) })), []);
  });

  test('a lot whose 부번 is wrong falls back to the lot', T, async () => {
    const found = await dir.find(parsed({ sigungu: '강남구', jibun: jibun('역삼동', 737, 9) }));
    assert.deepEqual(new Set(ids(found)), new Set([GFC.buildingId, GFC_UNDER.buildingId, LOT_SUB.buildingId]));
  });

  test('both forms pointing at one building give it once', T, async () => {
    const found = await dir.find(parsed({ sigungu: '강남구', road: road('테헤란로', 152), jibun: jibun('역삼동', 737) }));
    assert.deepEqual(ids(found), [GFC.buildingId, GFC_UNDER.buildingId]);
  });

  test('limit, and nothing searchable', T, async () => {
    assert.equal((await dir.find(parsed({ sido: '서울특별시', roadNameOnly: '테헤란로' }), 2)).length, 2);
    assert.deepEqual(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구' })), []);
    assert.deepEqual(await dir.find(parsed({ sigungu: '강남구', road: road('없는로', 1) })), []);
  });

  test('a road name with a typo finds the road of the 시군구 it is a typo of, and the matcher says what changed', T, async () => {
    const check = async (raw: string) => matchAddress(parseAddress(raw), await dir.find(parseAddress(raw)));
    // a vowel slip, two, a 받침 slip in 혜, the 로 left out
    for (const raw of ['서울 강남구 태헤란로 152', '서울특별시 강남구 태해란로 152', '강남구 테혜란로 152', '서울 강남구 테헤란 152 3층']) {
      const m = await check(raw);
      assert.equal(m.quality, 'corrected', raw);
      assert.equal(m.entry?.buildingId, GFC.buildingId, raw);
      assert.deepEqual(m.changes.find((c) => c.field === 'road_name')?.to, '테헤란로', raw);
    }
    // no number: the road it is a typo of, whatever its numbers
    assert.ok((await dir.find(parsed({ sigungu: '강남구', roadNameOnly: '태헤란로' }))).some((e) => e.buildingId === GFC.buildingId));
    // a typo is looked for in the written 시군구 only: 해운대구 has a 테헤란로 too, but not for 강남구's typo
    assert.ok((await dir.find(parseAddress('서울 강남구 태헤란로 152'))).every((e) => e.sigungu === '강남구'));
  });

  test('a typo two roads are equally near stays ambiguous; the road fewer jamo away wins', T, async () => {
    const other = entry({ ...RURAL, buildingId: '4183025021101230000000099', roadName: '중안로', roadAddress: '경기도 양평군 중안로 7' });
    await db.store.upsertEntries([other]);
    const fresh = new LocalDirectory(db.store);
    // 앗: one 받침 from 앙 and one from 안
    const raw = '경기도 양평군 중앗로 7';
    const m = matchAddress(parseAddress(raw), await fresh.find(parseAddress(raw)));
    assert.equal(m.quality, 'ambiguous');
    assert.equal(m.candidates, 2);
    // 얀: one jamo from 안 (ㅑ/ㅏ), two from 앙 (ㅑ/ㅏ and ㄴ/ㅇ)
    const near = '경기도 양평군 중얀로 7';
    const n = matchAddress(parseAddress(near), await fresh.find(parseAddress(near)));
    assert.equal(n.quality, 'corrected');
    assert.equal(n.entry?.roadName, '중안로');
  });

  test('findMany answers each address of a chunk as find does, with a limit or without', T, async () => {
    const qs = [
      parsed({ sido: '서울특별시', sigungu: '강남구', road: road('테헤란로', 152) }),
      parsed({ sigungu: '강남구', road: road('테헤란로', 152, 0, true) }),
      parsed({ sido: '부산광역시', sigungu: '강남구', road: road('테헤란로', 152) }),
      parsed({ sido: '부산광역시', sigungu: '해운대구', road: road('테헤란로', 152) }),
      parsed({ sigungu: '강남구', road: road('테헤란로', 152), jibun: jibun('역삼동', 737) }),
      parsed({ sigungu: '강남구', road: road('테헤란로', 999) }),
      parsed({ sigungu: '강남구', road: road('테헤란로', 150) }),
      parsed({ sigungu: '강남구', road: road('태헤란로', 152) }),
      parsed({ sido: '서울특별시', road: road('테헤란로', 152) }),
      parsed({ sigungu: '양평군', road: road('중앙로', 7) }),
      parsed({ sigungu: '양평군', jibun: jibun('양근리', 123, 0, true) }),
      parsed({}),
    ];
    for (const limit of [20, 1, 0]) {
      assert.deepEqual(await dir.findMany(qs, limit), await Promise.all(qs.map((q) => dir.find(q, limit))), `limit ${limit}`);
    }
  });
});

describeEachAddressStore('LocalDirectory, what it keeps in memory', (kind) => {
  test('an import shows within a second: what is kept is read again once the directory\'s version moves', T, async () => {
    const db = await openAddressStore(kind);
    try {
      await db.store.upsertEntries([GFC, BUSAN]);
      let now = 0;
      const dir = new LocalDirectory(db.store, { now: () => now });
      // a typo is looked for among the road names kept of 강남구
      const typo = parsed({ sido: '서울특별시', sigungu: '강남구', road: road('논헌로', 5) });
      assert.deepEqual(await dir.find(typo), []);
      const added = entry({ buildingId: '1168010800100010000000010', eupmyeondong: '논현동', roadName: '논현로', buildingMain: 5, jibunMain: 1, buildingName: '', roadAddress: '서울특별시 강남구 논현로 5' });
      await db.store.upsertEntries([added]);
      now += 999;
      assert.deepEqual(await dir.find(typo), [], 'within the second: as read before');
      now += 1;
      assert.deepEqual(ids(await dir.find(typo)), [added.buildingId]);
      assert.deepEqual(ids(await dir.find(parsed({ sigungu: '강남구', road: road('논현로', 5) }))), [added.buildingId]);
      await db.store.deleteBuildings([added.buildingId]);
      now += 1_000;
      assert.deepEqual(await dir.find(typo), [], 'gone again');
    } finally {
      await db.close();
    }
  });

  test('while an import writes, the store is asked; the numbers are read again once the directory stands still for 10 s', T, async () => {
    const db = await openAddressStore(kind);
    try {
      await db.store.upsertEntries([GFC, BUSAN]);
      let reads = 0;
      const read = db.store.roadNumbersIn.bind(db.store);
      db.store.roadNumbersIn = (...args) => {
        reads++;
        return read(...args);
      };
      let now = 0;
      const dir = new LocalDirectory(db.store, { now: () => now });
      const q = parsed({ sido: '서울특별시', sigungu: '강남구', road: road('테헤란로', 152) });
      assert.deepEqual(await dir.find(q), [GFC]);
      assert.equal(reads, 1);
      await db.store.upsertEntries([NEXT_DOOR]);
      now += 1_000;
      assert.deepEqual(await dir.find(q), [GFC]);
      assert.deepEqual(await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', road: road('테헤란로', 154) })), [NEXT_DOOR]);
      assert.equal(reads, 1, 'not read while the directory moves');
      now += 10_000;
      assert.deepEqual(await dir.find(q), [GFC]);
      assert.equal(reads, 2);
    } finally {
      await db.close();
    }
  });

  test('a 시군구 the directory does not hold is asked of the store as before; findMany answers as find does', T, async () => {
    const db = await openAddressStore(kind);
    try {
      await db.store.upsertEntries([GFC]);
      const dir = new LocalDirectory(db.store);
      assert.deepEqual(await dir.find(parsed({ sigungu: '없는구', road: road('테헤란로', 152) })), [GFC], 'the road and number elsewhere');
      assert.deepEqual(await dir.find(parsed({ sigungu: '없는구', road: road('없는로', 152) })), []);
      assert.deepEqual(await dir.find(parsed({ sido: '서울특별시', sigungu: '서초구', road: road('테헤란로', 152) })), [GFC], 'elsewhere in the 시도');
      assert.deepEqual(await dir.findMany([parsed({ sigungu: '강남구', road: road('테헤란로', 152) }), parsed({ sigungu: '강남구', road: road('태헤란로', 152) })]), [[GFC], [GFC]]);
    } finally {
      await db.close();
    }
  });

});

test('close() leaves the borrowed store open', T, async () => {
  const db = await openAddressStore('sqlite');
  try {
    await new LocalDirectory(db.store).close();
    assert.equal(await db.store.count(), 0);
  } finally {
    await db.close();
  }
});

describeEachAddressStore('LocalDirectory, a chunk at once', (kind) => {
  test('findMany answers lists as written, lots and addresses without a 시군구 among them, as find does', T, async () => {
    const db = await openAddressStore(kind);
    try {
      const entries = [...generateEntries(2_000, { seed: 31 })];
      await db.store.upsertEntries(entries);
      // buildings standing on other buildings' lots, and on lots no building has as its own
      const related: RelatedLotOf[] = entries.filter((_, i) => i % 7 === 0).map((e, i) => {
        const other = entries[(i * 53) % entries.length]!;
        const lot = i % 2 === 0
          ? { eupmyeondong: other.eupmyeondong, ri: other.ri, mountain: other.jibunMountain, main: other.jibunMain, sub: other.jibunSub }
          : { eupmyeondong: e.eupmyeondong, ri: e.ri, mountain: false, main: 8_000 + i, sub: 0 };
        return { buildingId: e.buildingId, sido: i % 2 === 0 ? other.sido : e.sido, sigungu: i % 2 === 0 ? other.sigungu : e.sigungu, lot: { kind: 'related_lot', ...lot } };
      });
      await db.store.addRelatedLots(related);
      // the directory's questions counted by finder
      const asked = new Map<string, number>();
      const counted = new Proxy(db.store, {
        get(target, name, receiver) {
          const v: unknown = Reflect.get(target, name, receiver);
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            if (typeof name === 'string' && name.startsWith('findBy')) asked.set(name, (asked.get(name) ?? 0) + 1);
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      // the chunk's later questions asked together, as on PostgreSQL, on either store
      const dir = new LocalDirectory(counted, { together: true });
      const written = mailingsFrom(entries, 1_200, 31).map((m) => m.address);
      // lots and roads as lists write them without the 시군구, or without 시도 and 시군구
      for (const [i, e] of entries.entries()) {
        if (i % 10 !== 0) continue;
        const lot = `${e.ri || e.eupmyeondong} ${e.jibunMountain ? '산' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`;
        written.push(`${e.sido} ${lot}`, lot, `${e.sido} ${e.roadName} ${e.buildingMain}`, `${e.roadName} ${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`);
      }
      for (const r of related) written.push(`${r.sido} ${r.sigungu} ${r.lot.eupmyeondong} ${r.lot.main}${r.lot.sub ? `-${r.lot.sub}` : ''}`);
      const qs = written.map((raw) => parseAddress(raw));
      assert.ok(qs.filter((q) => q.jibun).length > 300 && qs.filter((q) => q.road && q.sigungu === null).length > 100, 'the chunk asks what it was made to ask');
      const total = (): number => [...asked.values()].reduce((a, b) => a + b, 0);
      for (const limit of [20, 2]) {
        asked.clear();
        const many = await dir.findMany(qs, limit);
        const askedMany = total();
        asked.clear();
        const one = await Promise.all(qs.map((q) => dir.find(q, limit)));
        // the chunk's questions went to the store together: a few statements per step, not one per address and step
        assert.ok(askedMany * 25 < total(), `findMany asked the store ${askedMany} times, find() ${total()} times`);
        qs.forEach((q, i) => assert.deepEqual(many[i], one[i], `${q.raw}, limit ${limit}`));
        if (limit === 20) assert.ok(one.filter((es) => es.some((e) => e.via?.kind === 'related_lot')).length > 20, 'some are found by a lot a building stands on');
      }
    } finally {
      await db.close();
    }
  });
});
