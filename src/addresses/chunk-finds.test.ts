import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { type AddressStore, lotKey, type LotKey } from '../store/address-store.ts';
import { ChunkFinds } from './chunk-finds.ts';

const entry = (buildingId: string): DirectoryEntry => ({
  buildingId, zipcode: '06236', sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동', ri: '', roadName: '테헤란로', underground: false,
  buildingMain: 152, buildingSub: 0, jibunMountain: false, jibunMain: 737, jibunSub: 0, buildingName: '', roadAddress: '서울특별시 강남구 테헤란로 152',
});

/** A store whose findByJibunMany answers each lot with one building named after it, and records what it was asked. */
function lotStore(fail = false): { store: AddressStore; asked: LotKey[][] } {
  const asked: LotKey[][] = [];
  const store = {
    findByJibunMany(keys: readonly LotKey[]): Promise<Map<string, DirectoryEntry[]>> {
      asked.push([...keys]);
      if (fail) return Promise.reject(new Error('the store is gone'));
      return Promise.resolve(new Map(keys.map((k) => [lotKey(k), k.main === 0 ? [] : [entry(`${k.dong}-${k.main}`)]])));
    },
  } as unknown as AddressStore;
  return { store, asked };
}

test('the questions asked in one turn of the event loop go to the store as one, each key once; each asker gets a list of its own', async () => {
  const { store, asked } = lotStore();
  const finds = new ChunkFinds(store);
  const lot = (dong: string, main: number) => finds.findByJibun('서울특별시', null, dong, main, 0, 20);
  const [a, b, again, none] = await Promise.all([lot('역삼동', 1), lot('삼성동', 2), lot('역삼동', 1), lot('역삼동', 0)]);
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0]!.map((k) => `${k.dong} ${k.main}`), ['역삼동 1', '삼성동 2', '역삼동 0']);
  assert.deepEqual([a, b, again, none].map((es) => es.map((e) => e.buildingId)), [['역삼동-1'], ['삼성동-2'], ['역삼동-1'], []]);
  a.push(entry('x'));
  assert.equal(again.length, 1, 'a list one asker adds to is not another\'s');
  // a question asked after the answers came is a statement of its own
  assert.deepEqual((await lot('역삼동', 3)).map((e) => e.buildingId), ['역삼동-3']);
  assert.equal(asked.length, 2);
  assert.equal(finds.calls, 2);
});

test('a store that fails fails every question it was asked with its error', async () => {
  const finds = new ChunkFinds(lotStore(true).store);
  const results = await Promise.allSettled([finds.findByJibun(null, null, '역삼동', 1, 0, 20), finds.findByJibun(null, null, '역삼동', 2, 0, 20)]);
  assert.deepEqual(results.map((r) => r.status === 'rejected' && (r.reason as Error).message), ['the store is gone', 'the store is gone']);
});
