import assert from 'node:assert/strict';
import { test } from 'node:test';
import { districtsOf, SIDOS, SIGUNGU_COUNT, sidoByAlias, sigunguRefs } from './regions.ts';

test('17 시/도, 세종 without 시/군/구', () => {
  assert.equal(SIDOS.length, 17);
  assert.deepEqual(SIDOS.find((s) => s.name === '세종특별자치시')?.sigungu, []);
  for (const s of SIDOS) if (s.name !== '세종특별자치시') assert.ok(s.sigungu.length >= 2, s.name);
});

const count = (sido: string): number => SIDOS.find((s) => s.name === sido)!.sigungu.length;

test('the 시/군/구 table has the real size and shape', () => {
  // 226 기초자치단체 less the cities that are split into 일반구, plus those 일반구
  assert.ok(SIGUNGU_COUNT >= 245 && SIGUNGU_COUNT <= 260, String(SIGUNGU_COUNT));
  assert.equal(count('서울특별시'), 25);
  assert.equal(count('부산광역시'), 16);
  assert.equal(count('대구광역시'), 9);
  assert.equal(count('제주특별자치도'), 2);
  for (const s of SIDOS) assert.equal(new Set(s.sigungu).size, s.sigungu.length, `${s.name} has no duplicates`);
  assert.deepEqual(districtsOf('경기도', '수원시'), ['수원시 장안구', '수원시 권선구', '수원시 팔달구', '수원시 영통구']);
  assert.deepEqual(districtsOf('경상남도', '창원시').length, 5);
  assert.deepEqual(districtsOf('서울특별시', '강남구'), []);
});

test('시/도 aliases, old names included', () => {
  const cases: Array<[string, string]> = [
    ['서울', '서울특별시'], ['서울시', '서울특별시'], ['부산시', '부산광역시'], ['경기', '경기도'], ['강원도', '강원특별자치도'],
    ['강원', '강원특별자치도'], ['전라북도', '전북특별자치도'], ['전북', '전북특별자치도'], ['전남', '전라남도'], ['충북', '충청북도'],
    ['충남', '충청남도'], ['경북', '경상북도'], ['경남', '경상남도'], ['제주도', '제주특별자치도'], ['세종시', '세종특별자치시'],
  ];
  for (const [alias, name] of cases) assert.equal(sidoByAlias(alias), name, alias);
  assert.equal(sidoByAlias('강남'), null);
});

test('시/군/구 spellings point at the right places', () => {
  assert.deepEqual(sigunguRefs('분당구'), [{ sido: '경기도', name: '성남시 분당구' }]);
  assert.deepEqual(sigunguRefs('수원시영통구'), [{ sido: '경기도', name: '수원시 영통구' }]);
  assert.deepEqual(sigunguRefs('수원'), [{ sido: '경기도', name: '수원시' }]);
  assert.deepEqual(sigunguRefs('양평'), [{ sido: '경기도', name: '양평군' }]);
  assert.equal(sigunguRefs('중구').length, 6);
  assert.equal(sigunguRefs('고성군').length, 2);
  assert.deepEqual(sigunguRefs('군위군'), [{ sido: '대구광역시', name: '군위군' }]);
  assert.deepEqual(sigunguRefs('강남'), [], 'bare 구 names are too ambiguous to recognise');
  assert.deepEqual(sigunguRefs('광주'), [], '광주 alone is the 광역시');
});
