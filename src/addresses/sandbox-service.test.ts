// The whole address check on the sandbox directory: free text → parse → find → match.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AddressDirectory, MatchQuality } from '../domain/address/types.ts';
import { createAddressService } from './address-service.ts';
import { SandboxDirectory } from './sandbox-directory.ts';

const service = createAddressService(new SandboxDirectory());

const CASES: ReadonlyArray<readonly [raw: string, quality: MatchQuality, fixed: string | null, zip: string | null]> = [
  ['서울특별시 강남구 테헤란로 152', 'exact', '서울특별시 강남구 테헤란로 152', '06236'],
  ['서울시 강남구 테헤란로152, 3층 301호', 'exact', '서울특별시 강남구 테헤란로 152, 3층 301호', '06236'],
  ['  서울   강남구 테헤란로 152 (역삼동, 강남파이낸스센터) 31층 ', 'exact', '서울특별시 강남구 테헤란로 152, 31층', '06236'],
  ['서울특별시　강남구　테헤란로　１５２，　３층', 'exact', '서울특별시 강남구 테헤란로 152, 3층', '06236'],
  ['서울시강남구테헤란로152', 'exact', '서울특별시 강남구 테헤란로 152', '06236'],
  ['서울 중구 세종대로 110 (태평로1가)', 'exact', '서울특별시 중구 세종대로 110', '04524'],
  ['경기도성남시분당구판교역로235', 'exact', '경기도 성남시 분당구 판교역로 235', '13494'],
  ['경기 분당구 판교역로 235 에이치스퀘어 N동 5층', 'exact', '경기도 성남시 분당구 판교역로 235, N동 5층', '13494'],
  ['부산시 해운대구 센텀중앙로 79', 'exact', '부산광역시 해운대구 센텀중앙로 79', '48058'],
  ['세종시 한누리대로 2130', 'exact', '세종특별자치시 한누리대로 2130', '30151'],
  ['서울 강남구 역삼동 737번지', 'exact', '서울특별시 강남구 테헤란로 152', '06236'],
  ['서울 강남구 강남대로 지하 396', 'exact', '서울특별시 강남구 강남대로 지하 396', '06232'],
  ['경기 양평군 양평읍 양근리 123-4', 'exact', '경기도 양평군 양평읍 양근로 12', '12554'],
  ['서울 서초구 테헤란로 152', 'corrected', '서울특별시 강남구 테헤란로 152', '06236'],
  ['서울 강남구 태헤란로 152', 'corrected', '서울특별시 강남구 테헤란로 152', '06236'],
  ['강남구 테헤란로 152', 'corrected', '서울특별시 강남구 테헤란로 152', '06236'],
  ['[135-080] 서울 강남구 역삼동 737', 'corrected', '서울특별시 강남구 테헤란로 152', '06236'],
  ['(06234) 서울 강남구 테헤란로 152', 'corrected', '서울특별시 강남구 테헤란로 152', '06236'],
  ['경기 성남시 판교역로 235', 'corrected', '경기도 성남시 분당구 판교역로 235', '13494'],
  ['서울 강남구 강남대로 396', 'corrected', '서울특별시 강남구 강남대로 지하 396', '06232'],
  ['서울 강남구 테헤란로', 'ambiguous', null, null],
  ['경기도 중앙로 12', 'ambiguous', null, null],
  ['서울 중구 세종대로 110-1', 'ambiguous', null, null],
  ['서울 강남구 테헤란로 99999', 'not_found', null, null],
  ['서울 강남구 없는길로 1', 'not_found', null, null],
  ['asdf', 'not_found', null, null],
];

describe('address check on the sandbox', () => {
  for (const [raw, quality, fixed, zip] of CASES) {
    test(`${raw} → ${quality}`, async () => {
      const r = await service.check(raw);
      assert.equal(r.quality, quality);
      assert.equal(r.fixedAddress, fixed);
      assert.equal(r.fixedZipcode, zip);
      assert.equal(r.parsed.raw, raw);
    });
  }

  test('corrections name each changed field', async () => {
    assert.deepEqual((await service.check('서울 서초구 태헤란로 152')).changes, [
      { field: 'sigungu', from: '서초구', to: '강남구' },
      { field: 'road_name', from: '태헤란로', to: '테헤란로' },
    ]);
    const old = await service.check('[135-080] 서울 강남구 역삼동 737');
    assert.deepEqual(old.changes, [{ field: 'zipcode', from: '135-080', to: '06236' }]);
    assert.equal(old.outdatedZip, true);
  });

  test('flags', async () => {
    assert.equal((await service.check('서울 강남구 테헤란로')).missingBuildingNumber, true);
    assert.equal((await service.check('서울 강남구 테헤란로 152')).missingUnit, true);
    assert.equal((await service.check('서울 강남구 테헤란로 152 3층')).missingUnit, false);
    assert.equal((await service.check('(06234) 서울 강남구 테헤란로 152')).zipMismatch, true);
  });

  test('the service reports its directory source', () => {
    assert.equal(service.source, 'sandbox');
  });
});

describe('address service edges', () => {
  const failing: AddressDirectory = {
    source: 'juso',
    find: () => Promise.reject(new Error('juso down')),
    close: () => Promise.resolve(),
  };

  test('blank input is not_found without asking the directory', async () => {
    const svc = createAddressService(failing);
    for (const blank of ['', '   ', '\t\n']) {
      const r = await svc.check(blank);
      assert.equal(r.quality, 'not_found');
      assert.equal(r.fixedAddress, null);
      assert.equal(r.fixedZipcode, null);
      assert.deepEqual(r.changes, []);
      assert.equal(r.candidates, 0);
      assert.equal(r.parsed.form, 'unknown');
    }
  });

  test('a directory failure reaches the caller', async () => {
    await assert.rejects(createAddressService(failing).check('서울 강남구 테헤란로 152'), /juso down/);
  });
});

describe('the sandbox keeps to the written 시도', () => {
  test('a road name found only in another 시도, or a typo away there, is not a correction', async () => {
    // 중앙로 1 exists in 서울 동작구; nothing in 전북 익산시 is near it
    const moved = await service.check('전북 익산시 중앙로 1 B동 203호');
    assert.equal(moved.quality, 'not_found', JSON.stringify(moved.changes));
    const typo = await service.check('전북 익산시 중앙노 1');
    assert.equal(typo.quality, 'not_found', JSON.stringify(typo.changes));
  });
});
