import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAddress } from '../domain/address/parse.ts';
import { SIDOS } from '../domain/address/regions.ts';
import { lotNumber, SANDBOX_FIXTURES, sandboxWorld } from './sandbox-data.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { SandboxDirectory } from './sandbox-directory.ts';

const ZIP_PREFIX: Record<string, [number, number]> = {
  서울특별시: [1, 9], 부산광역시: [46, 49], 대구광역시: [41, 43], 인천광역시: [21, 23], 광주광역시: [61, 62],
  대전광역시: [34, 35], 울산광역시: [44, 45], 세종특별자치시: [30, 30], 경기도: [10, 18], 강원특별자치도: [24, 26],
  충청북도: [27, 29], 충청남도: [31, 33], 전북특별자치도: [54, 56], 전라남도: [57, 59], 경상북도: [36, 40],
  경상남도: [50, 53], 제주특별자치도: [63, 63],
};

describe('sandbox world', () => {
  test('is built once, quickly, and is large', () => {
    const t = performance.now();
    const world = sandboxWorld();
    const ms = performance.now() - t;
    assert.equal(sandboxWorld(), world, 'built once per process');
    assert.ok(world.entries.length >= 50_000, String(world.entries.length));
    // well under a second on a quiet machine (~0.3 s); the bound leaves room for a loaded CI box
    assert.ok(ms < 2_000, `${ms} ms`);
  });

  test('covers every 시/도 and every 시/군/구', () => {
    const places = new Set(sandboxWorld().entries.map((e) => `${e.sido}|${e.sigungu}`));
    for (const s of SIDOS) {
      for (const sgg of s.sigungu.length > 0 ? s.sigungu : ['']) assert.ok(places.has(`${s.name}|${sgg}`), `${s.name} ${sgg}`);
    }
  });

  test('entries are well formed and unique', () => {
    const ids = new Set<string>();
    const addresses = new Set<string>();
    const lots = new Set<string>();
    for (const e of sandboxWorld().entries) {
      ids.add(e.buildingId);
      addresses.add(e.roadAddress);
      lots.add(`${e.sido}|${e.sigungu}|${e.ri || e.eupmyeondong}|${lotNumber(e.jibunMountain, e.jibunMain, e.jibunSub)}`);
      assert.match(e.zipcode, /^\d{5}$/);
      const [lo, hi] = ZIP_PREFIX[e.sido]!;
      const prefix = Number(e.zipcode.slice(0, 2));
      assert.ok(prefix >= lo && prefix <= hi, `${e.roadAddress} ${e.zipcode}`);
      assert.equal(e.roadAddress, roadAddressOf(e));
      assert.match(e.roadName, /(로|길)$/);
      assert.ok(e.buildingMain > 0 && e.jibunMain > 0);
      assert.match(e.eupmyeondong, /(동|가|읍|면|로)$/);
    }
    const n = sandboxWorld().entries.length;
    assert.equal(ids.size, n, 'building ids');
    assert.equal(addresses.size, n, 'road addresses');
    assert.equal(lots.size, n, 'lots');
  });

  test('the same road name exists in many 시/군/구, also within one 시/도', () => {
    const world = sandboxWorld();
    const places = (road: string): Set<string> => new Set((world.byRoad.get(road) ?? []).map((e) => `${e.sido} ${e.sigungu}`));
    assert.ok(places('중앙로').size >= 10);
    const spread = [...world.byRoad.keys()].filter((r) => places(r).size >= 5).length;
    assert.ok(spread >= 100, `${spread} road names in ≥ 5 places`);
    const gyeonggi = new Set((world.byRoad.get('중앙로') ?? []).filter((e) => e.sido === '경기도').map((e) => e.sigungu));
    assert.ok(gyeonggi.size >= 2);
    assert.deepEqual([...places('테헤란로')], ['서울특별시 강남구'], 'well-known roads stay where they are');
  });

  test('branch roads in both styles', () => {
    const names = sandboxWorld().roadNames;
    assert.ok(names.some((n) => /\d+길$/.test(n) && !n.endsWith('번길')));
    assert.ok(names.some((n) => n.endsWith('번길')));
  });
});

const zipOf = (address: string): string | undefined => sandboxWorld().entries.find((e) => e.roadAddress === address)?.zipcode;

describe('documented fixtures', () => {
  test('exist exactly once, exactly as documented', () => {
    const world = sandboxWorld();
    for (const { entry: f } of SANDBOX_FIXTURES) {
      const same = world.entries.filter((e) => e.roadAddress === roadAddressOf(f));
      assert.equal(same.length, 1, roadAddressOf(f));
      const { buildingId: _id, roadAddress: _address, ...rest } = same[0]!;
      assert.deepEqual(rest, f);
    }
  });

  test('the well-known ones', () => {
    assert.equal(zipOf('서울특별시 강남구 테헤란로 152'), '06236');
    assert.equal(zipOf('서울특별시 중구 세종대로 110'), '04524');
    assert.equal(zipOf('경기도 성남시 분당구 판교역로 235'), '13494');
    assert.equal(zipOf('부산광역시 해운대구 센텀중앙로 79'), '48058');
    assert.equal(zipOf('세종특별자치시 한누리대로 2130'), '30151');
  });
});

describe('SandboxDirectory.find', () => {
  const dir = new SandboxDirectory();
  const find = (raw: string, limit?: number) => dir.find(parseAddress(raw), limit);

  test('source and close', async () => {
    assert.equal(dir.source, 'sandbox');
    await dir.close();
  });

  test('every fixture is found first by its own road address and by its lot', async () => {
    for (const { entry: f } of SANDBOX_FIXTURES) {
      const byRoad = await find(roadAddressOf(f));
      assert.equal(byRoad[0]?.roadAddress, roadAddressOf(f));
      const lot = `${f.jibunMountain ? '산' : ''}${f.jibunMain}${f.jibunSub ? `-${f.jibunSub}` : ''}`;
      const byLot = await find([f.sido, f.sigungu, f.eupmyeondong, f.ri, lot].filter((x) => x !== '').join(' '));
      assert.equal(byLot[0]?.roadAddress, roadAddressOf(f), `${f.eupmyeondong} ${lot}`);
    }
  });

  test('a wrong 구 still finds the road where it is', async () => {
    assert.equal((await find('서울 서초구 테헤란로 152'))[0]?.roadAddress, '서울특별시 강남구 테헤란로 152');
  });

  test('road-name typos are forgiven within the edit distance', async () => {
    assert.equal((await find('서울 강남구 태헤란로 152'))[0]?.roadAddress, '서울특별시 강남구 테헤란로 152');
    assert.equal((await find('서울 강남구 태해란로 152'))[0]?.roadAddress, '서울특별시 강남구 테헤란로 152');
  });

  test('a road name without a number gives that road, best place first, at most `limit`', async () => {
    const all = await find('서울 강남구 테헤란로');
    assert.ok(all.length > 5);
    assert.ok(all.every((e) => e.roadName === '테헤란로'));
    assert.equal((await find('중앙로', 5)).length, 5);
    assert.equal((await find('중앙로', 0)).length, 0);
    const gyeonggi = await find('경기도 중앙로', 50);
    assert.equal(gyeonggi[0]?.sido, '경기도');
  });

  test('a 행정동 finds lots of its 법정동', async () => {
    assert.equal((await find('서울 강남구 역삼1동 737'))[0]?.roadAddress, '서울특별시 강남구 테헤란로 152');
  });

  test('a 동 without a number lists its buildings', async () => {
    const list = await find('서울 강남구 역삼동');
    assert.ok(list.length > 1 && list.every((e) => e.eupmyeondong === '역삼동' && e.sigungu === '강남구'));
  });

  test('nothing for nothing', async () => {
    assert.deepEqual(await find(''), []);
    assert.deepEqual(await find('asdf'), []);
    assert.deepEqual(await find('서울 강남구 없는길로 1'), []);
  });
});

describe('a building written by its name alone', () => {
  test('is found in its 동 across the sandbox, as the local directory finds it; its road address is the answer', async () => {
    const world = sandboxWorld();
    const dir = new SandboxDirectory();
    const { matchAddress } = await import('../domain/address/match.ts');
    // named buildings whose name is theirs alone in their 동
    const counts = new Map<string, number>();
    for (const e of world.entries) if (e.buildingName) counts.set(`${e.sigungu}|${e.eupmyeondong}|${e.buildingName}`, (counts.get(`${e.sigungu}|${e.eupmyeondong}|${e.buildingName}`) ?? 0) + 1);
    // a 동 named like a road ("세종로") reads as the road: those are left out
    const unique = world.entries.filter((e) => e.buildingName && !e.ri && /[동가]$/.test(e.eupmyeondong) && counts.get(`${e.sigungu}|${e.eupmyeondong}|${e.buildingName}`) === 1).slice(0, 40);
    assert.ok(unique.length >= 20);
    for (const e of unique) {
      const written = `${e.sigungu} ${e.eupmyeondong} ${e.buildingName} 3층`;
      const q = parseAddress(written);
      const m = matchAddress(q, await dir.find(q));
      assert.equal(m.entry?.buildingId, e.buildingId, written);
      assert.equal(m.quality, 'corrected', written);
      assert.equal(m.fixedAddress, `${e.roadAddress}, 3층`, written);
      assert.equal(m.missingBuildingNumber, false);
    }
  });
});
