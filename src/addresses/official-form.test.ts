// The official address forms, and the same fixed address whichever directory answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jibunAddressOf, referenceOf, roadAddressOf } from '../domain/address/official-form.ts';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { openAddressStore, type OpenAddressStore } from '../../test/helpers/address-stores.ts';
import { createAddressService } from './address-service.ts';
import { startFakeJuso, type FakeJuso } from './fake-juso-server.ts';
import { JusoDirectory } from './juso-client.ts';
import { LocalDirectory } from './local-directory.ts';
import { SANDBOX_FIXTURES, sandboxWorld } from './sandbox-data.ts';
import { SandboxDirectory } from './sandbox-directory.ts';

const parts = (over: Partial<DirectoryEntry>) => ({
  sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동', ri: '', roadName: '테헤란로', underground: false, buildingMain: 152, buildingSub: 0,
  jibunMountain: false, jibunMain: 737, jibunSub: 0, buildingName: '강남파이낸스센터', ...over,
});

test('the road address carries the 읍/면 in 읍/면 areas and never the 동', () => {
  assert.equal(roadAddressOf(parts({})), '서울특별시 강남구 테헤란로 152');
  assert.equal(roadAddressOf(parts({ sido: '세종특별자치시', sigungu: '', eupmyeondong: '조치원읍', roadName: '새내로', buildingMain: 96 })), '세종특별자치시 조치원읍 새내로 96');
  assert.equal(roadAddressOf(parts({ sido: '경기도', sigungu: '양평군', eupmyeondong: '양평읍', roadName: '양근로', buildingMain: 12 })), '경기도 양평군 양평읍 양근로 12');
  assert.equal(roadAddressOf(parts({ sido: '강원특별자치도', sigungu: '홍천군', eupmyeondong: '내면', roadName: '구룡령로', buildingMain: 3, buildingSub: 2, underground: true })), '강원특별자치도 홍천군 내면 구룡령로 지하 3-2');
  assert.equal(roadAddressOf(parts({ sido: '세종특별자치시', sigungu: '', eupmyeondong: '보람동', roadName: '한누리대로', buildingMain: 2130 })), '세종특별자치시 한누리대로 2130');
});

test('the lot address and the 참고항목', () => {
  assert.equal(jibunAddressOf(parts({})), '서울특별시 강남구 역삼동 737');
  assert.equal(jibunAddressOf(parts({ sido: '경기도', sigungu: '양평군', eupmyeondong: '양평읍', ri: '양근리', jibunMountain: true, jibunMain: 123, jibunSub: 4 })), '경기도 양평군 양평읍 양근리 산 123-4');
  assert.equal(referenceOf(parts({})), '(역삼동, 강남파이낸스센터)');
  assert.equal(referenceOf(parts({ buildingName: '' })), '(역삼동)');
  assert.equal(referenceOf(parts({ eupmyeondong: '양평읍', buildingName: '' })), null);
});

// every documented sandbox fixture, written as road and as lot address, through each directory
const fixtures = SANDBOX_FIXTURES.map((f) => f.entry);
const written = fixtures.flatMap((e) => [roadAddressOf(e), jibunAddressOf(e)]);

let store: OpenAddressStore;
let juso: FakeJuso;
before(async () => {
  const ids = new Set(fixtures.map((f) => roadAddressOf(f)));
  const entries = sandboxWorld().entries.filter((e) => ids.has(e.roadAddress));
  store = await openAddressStore('sqlite');
  await store.store.upsertEntries(entries);
  juso = await startFakeJuso({ entries, confmKey: 'k' });
});
after(async () => {
  await store.close();
  await juso.close();
});

test('the fixed address is the same whichever directory answered: sandbox, imported files, juso', async () => {
  const services = [
    createAddressService(new SandboxDirectory()),
    createAddressService(new LocalDirectory(store.store)),
    createAddressService(new JusoDirectory({ baseUrl: juso.url, confmKey: 'k' })),
  ];
  let compared = 0;
  for (const raw of written) {
    const answers = await Promise.all(services.map(async (s) => (await s.check(raw)).fixedAddress));
    if (answers[0] === null) continue;
    assert.deepEqual(answers, [answers[0], answers[0], answers[0]], raw);
    compared++;
  }
  assert.ok(compared >= fixtures.length, `${compared} addresses compared`);
  assert.ok(written.some((w) => w.includes('양평읍 양근로')), 'a 읍 address is among them');
});

test('a renamed road and a related lot are answered alike by the imported files and by juso', async () => {
  const tower: DirectoryEntry = { ...parts({ buildingName: '', roadName: '선릉로', buildingMain: 433, jibunMain: 740 }), buildingId: '1168010100107400000000002', zipcode: '06212', roadAddress: '' };
  tower.roadAddress = roadAddressOf(tower);
  const local = await openAddressStore('sqlite');
  const fake = await startFakeJuso({ entries: [tower], confmKey: 'k', aliases: { [tower.buildingId]: ['서울특별시 강남구 역삼로 20', '서울특별시 강남구 역삼동 741'] } });
  try {
    await local.store.upsertEntries([tower]);
    await local.store.addFormerRoads([{ buildingId: tower.buildingId, former: { kind: 'former_road', sigungu: '강남구', roadName: '역삼로', underground: false, main: 20, sub: 0 } }]);
    await local.store.addRelatedLots([{ buildingId: tower.buildingId, sido: '서울특별시', sigungu: '강남구', lot: { kind: 'related_lot', eupmyeondong: '역삼동', ri: '', mountain: false, main: 741, sub: 0 } }]);
    const services = [createAddressService(new LocalDirectory(local.store)), createAddressService(new JusoDirectory({ baseUrl: fake.url, confmKey: 'k' }))];
    for (const raw of ['서울특별시 강남구 역삼로 20', '서울 강남구 역삼동 741', '서울특별시 강남구 선릉로 433']) {
      const [a, b] = await Promise.all(services.map((s) => s.check(raw)));
      assert.equal(a!.fixedAddress, tower.roadAddress, raw);
      assert.deepEqual([b!.quality, b!.fixedAddress, b!.changes, b!.formerRoad], [a!.quality, a!.fixedAddress, a!.changes, a!.formerRoad], raw);
      assert.equal(a!.formerRoad, raw.includes('역삼로'), raw);
    }
  } finally {
    await local.close();
    await fake.close();
  }
});
