import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AddressDirectory, DirectoryEntry } from '../domain/address/types.ts';
import { describeEachAddressStore, openAddressStore } from '../../test/helpers/address-stores.ts';
import { generateEntries } from './address-db-fixture.ts';
import { mailingsFrom } from '../../scripts/eval/as-written.ts';
import { LocalDirectory } from './local-directory.ts';
import { createAddressService } from './address-service.ts';

const T = { timeout: 30_000 };

/** Buildings whose 법정동 is named like a road (세종로, 신문로1가 …): "종로구 세종로 1-68" is their lot. */
function roadNamedDongs(base: DirectoryEntry): DirectoryEntry[] {
  return ['세종로', '태평로', '충무로', '을지로'].flatMap((dong, d) => [1, 2, 3].map((n) => ({
    ...base, buildingId: `1111${String(d)}${String(n).padStart(20, '0')}`, sido: '서울특별시', sigungu: '종로구', eupmyeondong: dong, ri: '',
    roadName: `${dong.slice(0, 2)}대로`, buildingMain: 100 + n, buildingSub: 0, jibunMountain: false, jibunMain: n, jibunSub: 60 + n, roadAddress: `서울특별시 종로구 ${dong.slice(0, 2)}대로 ${100 + n}`,
  })));
}

describeEachAddressStore('AddressService.checkMany', (kind) => {
  test('a chunk\'s checks equal check() of each: lot readings of road-like 동 names included, asked of the directory together', T, async () => {
    const db = await openAddressStore(kind);
    try {
      const entries = [...generateEntries(1_500, { seed: 41 })];
      const dongs = roadNamedDongs(entries[0]!);
      await db.store.upsertEntries([...entries, ...dongs]);
      const local = new LocalDirectory(db.store);
      let manyCalls = 0;
      const directory: AddressDirectory = {
        source: local.source,
        find: (q) => local.find(q),
        findMany: (qs, limit) => {
          manyCalls++;
          return local.findMany(qs, limit);
        },
        close: () => local.close(),
      };
      const service = createAddressService(directory);
      const raws = [
        ...mailingsFrom(entries, 600, 41).map((m) => m.address),
        // the lot reading finds them; then one it does not, and roads that exist nowhere
        ...dongs.map((e) => `${e.sigungu} ${e.eupmyeondong} ${e.jibunMain}-${e.jibunSub}`),
        '종로구 세종로 9-99', '서울 종로구 없는로 12', '부산 해운대구 가나로 3',
        '', '   ',
      ];
      const many = await service.checkMany(raws);
      assert.equal(manyCalls, 2, 'the addresses, then the lot readings of those that found nothing');
      assert.deepEqual([...many.keys()], [...new Set(raws)], 'each text once, in the order given');
      for (const raw of new Set(raws)) assert.deepEqual(many.get(raw), await service.check(raw), raw);
      const lots = dongs.map((e) => many.get(`${e.sigungu} ${e.eupmyeondong} ${e.jibunMain}-${e.jibunSub}`));
      assert.ok(lots.every((c) => c && !(c instanceof Error) && c.quality !== 'not_found' && c.parsed.form === 'jibun'), 'read as the lot they are');
    } finally {
      await db.close();
    }
  });
});
