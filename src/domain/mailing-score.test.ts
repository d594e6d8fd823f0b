import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress } from './address/parse.ts';
import type { AddressCheck, DirectoryEntry } from './address/types.ts';
import { addressKeyOf, deliveryPointOf } from './mailing-score.ts';

const BUILDING = '1168010100107370000000001';
const checked = (raw: string, buildingId: string | null): AddressCheck =>
  ({ quality: buildingId ? 'exact' : 'not_found', entry: buildingId ? ({ buildingId } as DirectoryEntry) : null, parsed: parseAddress(raw) }) as AddressCheck;

test('a delivery point is the building and the unit the address names: its 동, then its 호, or its 층 without a 호', () => {
  assert.equal(deliveryPointOf(checked('서울 강남구 테헤란로 152', BUILDING)), BUILDING);
  assert.equal(deliveryPointOf(checked('서울 강남구 테헤란로 152 3층 301호', BUILDING)), `${BUILDING} 301호`);
  assert.equal(deliveryPointOf(checked('서울특별시 강남구 테헤란로 152, 제301호', BUILDING)), `${BUILDING} 301호`);
  assert.equal(deliveryPointOf(checked('서울 강남구 테헤란로 152 12층', BUILDING)), `${BUILDING} 12층`);
  assert.equal(deliveryPointOf(checked('서울 강남구 테헤란로 152 101동 1203호', BUILDING)), `${BUILDING} 101동 1203호`);
  assert.equal(deliveryPointOf(checked('서울 강남구 없는로 1 301호', null)), null);
  assert.equal(deliveryPointOf(null), null);
});

test('an address no building was found for is counted as written, spacing and punctuation aside', () => {
  assert.equal(addressKeyOf('서울 강남구 없는로 1, 301호', null), addressKeyOf('서울 강남구 없는로 1 (301호)', null));
  assert.equal(addressKeyOf('', `${BUILDING} 301호`), null);
  assert.equal(addressKeyOf('서울 강남구 테헤란로 152 301호', `${BUILDING} 301호`), `${BUILDING} 301호`);
});
