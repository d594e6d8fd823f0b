import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAddress } from './parse.ts';
import type { ParsedAddress } from './types.ts';

type Expect = Partial<Omit<ParsedAddress, 'raw'>>;

const road = (name: string, main: number, sub = 0, underground = false): ParsedAddress['road'] => ({ name, underground, main, sub });
const jibun = (dong: string, main: number, sub = 0, mountain = false): ParsedAddress['jibun'] => ({ dong, mountain, main, sub });
const unit = (dong: string | null, floor: string | null, ho: string | null): ParsedAddress['unit'] => ({ dong, floor, ho });
const zip = (value: string, outdated = false): ParsedAddress['zipcode'] => ({ value, outdated });

function expectParse(input: string, expected: Expect): void {
  const p = parseAddress(input);
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(p[key as keyof ParsedAddress], value, `${JSON.stringify(input)} → ${key}`);
  }
}

function cases(name: string, list: ReadonlyArray<readonly [string, Expect]>): void {
  describe(name, () => {
    for (const [input, expected] of list) test(input === '' ? '(empty)' : input, () => expectParse(input, expected));
  });
}

const GANGNAM = { sido: '서울특별시', sigungu: '강남구' } as const;

cases('road-name addresses', [
  ['서울특별시 강남구 테헤란로 152', { ...GANGNAM, road: road('테헤란로', 152), form: 'road', jibun: null, detail: null }],
  ['서울 강남구 테헤란로152', { ...GANGNAM, road: road('테헤란로', 152) }],
  ['  서울시   강남구    테헤란로  152  ', { ...GANGNAM, road: road('테헤란로', 152) }],
  ['서울특별시,강남구,테헤란로 152', { ...GANGNAM, road: road('테헤란로', 152) }],
  ['서울특별시 강남구 테헤란로 152번', { road: road('테헤란로', 152) }],
  ['서울 강남구 강남대로 지하 396', { road: road('강남대로', 396, 0, true) }],
  ['서울 강남구 강남대로지하396', { road: road('강남대로', 396, 0, true) }],
  ['서울특별시 중구 세종대로 110-1', { sigungu: '중구', road: road('세종대로', 110, 1) }],
  ['서울 중구 세종대로 110 - 1', { road: road('세종대로', 110, 1) }],
  ['서울 중구 세종대로 110－1', { road: road('세종대로', 110, 1) }],
  ['경기도 수원시 영통구 중앙로 12번길 3', { sigungu: '수원시 영통구', road: road('중앙로12번길', 3) }],
  ['경기 수원시 영통구 중앙로12번길 3', { road: road('중앙로12번길', 3) }],
  ['경기 수원시 영통구 중앙로 12 번길 3', { road: road('중앙로12번길', 3) }],
  ['경기 수원시 영통구 중앙로12번길3', { road: road('중앙로12번길', 3) }],
  ['서울 강남구 도산대로45길 10', { road: road('도산대로45길', 10) }],
  ['서울 강남구 도산대로 45길 10', { road: road('도산대로45길', 10) }],
  ['서울 송파구 올림픽로35가길 10', { sigungu: '송파구', road: road('올림픽로35가길', 10) }],
  ['서울 강남구 테헤란로', { road: null, roadNameOnly: '테헤란로', form: 'road' }],
  ['서울 강남구 테헤란로 강남파이낸스센터', { roadNameOnly: '테헤란로', buildingName: '강남파이낸스센터' }],
  ['서울 종로구 종로 1', { sigungu: '종로구', road: road('종로', 1) }],
  ['서울시 금천구 가산디지털1로 168 우림라이온스밸리 A동 1004호',
    { sigungu: '금천구', road: road('가산디지털1로', 168), buildingName: '우림라이온스밸리', detail: 'A동 1004호' }],
  ['서울 구로구 디지털로 300 (구로동) 지밸리비즈플라자 1205호', { road: road('디지털로', 300), eupmyeondong: '구로동', detail: '1205호' }],
  ['서울 강남구 역삼동 테헤란로 152', { eupmyeondong: '역삼동', road: road('테헤란로', 152), form: 'road' }],
  ['서울 강남구 테헤란로 152 역삼동', { eupmyeondong: '역삼동', road: road('테헤란로', 152) }],
]);

cases('building name and 참고항목 in parentheses', [
  ['서울특별시 강남구 테헤란로 152 (역삼동, 강남파이낸스센터)',
    { eupmyeondong: '역삼동', buildingName: '강남파이낸스센터', road: road('테헤란로', 152) }],
  ['서울특별시 강남구 테헤란로 152(역삼동)', { eupmyeondong: '역삼동', buildingName: null }],
  ['서울특별시 강남구 테헤란로 152, 강남파이낸스센터 31층', { buildingName: '강남파이낸스센터', detail: '31층' }],
  ['서울특별시 강남구 테헤란로 152 강남파이낸스센터 3층 (역삼동)', { eupmyeondong: '역삼동', buildingName: '강남파이낸스센터', detail: '3층' }],
  ['서울 중구 세종대로 110 (태평로1가)', { eupmyeondong: '태평로1가', road: road('세종대로', 110) }],
  ['(주)한국상사 서울 강남구 테헤란로 152', { ...GANGNAM, road: road('테헤란로', 152), buildingName: null }],
  ['㈜한국상사 서울 강남구 테헤란로 152', { ...GANGNAM, road: road('테헤란로', 152), buildingName: null }],
  ['서울 강남구 테헤란로 152 (역삼동 737)', { road: road('테헤란로', 152), jibun: jibun('역삼동', 737), eupmyeondong: '역삼동', form: 'road' }],
  ['서울 강남구 737번지 (역삼동)', { jibun: jibun('역삼동', 737), eupmyeondong: '역삼동', form: 'jibun' }],
]);

cases('postal codes', [
  ['(06236) 서울특별시 강남구 테헤란로 152', { zipcode: zip('06236'), road: road('테헤란로', 152) }],
  ['서울특별시 강남구 테헤란로 152 (06236)', { zipcode: zip('06236'), road: road('테헤란로', 152) }],
  ['우) 06236 서울 강남구 테헤란로 152', { zipcode: zip('06236'), ...GANGNAM }],
  ['(우)06236 서울 강남구 테헤란로 152', { zipcode: zip('06236'), ...GANGNAM }],
  ['우편번호: 06236 서울 강남구 테헤란로 152', { zipcode: zip('06236'), ...GANGNAM }],
  ['06236 서울 강남구 테헤란로 152', { zipcode: zip('06236'), ...GANGNAM }],
  ['서울 강남구 테헤란로 152 06236', { zipcode: zip('06236'), road: road('테헤란로', 152) }],
  ['［06236］서울 강남구 테헤란로 152', { zipcode: zip('06236'), ...GANGNAM }],
  ['[135-080] 서울 강남구 역삼동 737', { zipcode: zip('135-080', true), jibun: jibun('역삼동', 737) }],
  ['135-080 서울 강남구 역삼동 737', { zipcode: zip('135-080', true), jibun: jibun('역삼동', 737) }],
  ['서울 강남구 테헤란로 152 135-080', { zipcode: zip('135-080', true), road: road('테헤란로', 152) }],
  ['우편번호 135080 서울 강남구 역삼동 737', { zipcode: zip('135-080', true) }],
  ['서울 강남구 역삼동 123-456', { zipcode: null, jibun: jibun('역삼동', 123, 456) }],
  ['서울 강남구 테헤란로 152', { zipcode: null }],
]);

cases('시/도 and 시/군/구 aliases', [
  ['강원도 춘천시 중앙로 1', { sido: '강원특별자치도', sigungu: '춘천시' }],
  ['강원 강릉시 경강로 2100', { sido: '강원특별자치도', sigungu: '강릉시' }],
  ['전라북도 전주시 완산구 노송광장로 10', { sido: '전북특별자치도', sigungu: '전주시 완산구' }],
  ['전북 전주 완산구 노송광장로 10', { sido: '전북특별자치도', sigungu: '전주시 완산구' }],
  ['충북 청주시 상당구 상당로 155', { sido: '충청북도', sigungu: '청주시 상당구' }],
  ['충남 천안시 동남구 번영로 1', { sido: '충청남도', sigungu: '천안시 동남구' }],
  ['경북 포항시 남구 시청로 1', { sido: '경상북도', sigungu: '포항시 남구' }],
  ['경북 포항 남구 시청로 1', { sido: '경상북도', sigungu: '포항시 남구' }],
  ['경북 남구 시청로 1', { sido: '경상북도', sigungu: '포항시 남구' }],
  ['경남 창원시 마산합포구 3·15대로 1', { sido: '경상남도', sigungu: '창원시 마산합포구', road: road('3·15대로', 1) }],
  ['서울 강북구 4.19로 1', { sigungu: '강북구', road: road('4·19로', 1) }],
  ['전남 순천시 장명로 30', { sido: '전라남도', sigungu: '순천시' }],
  ['전라남도 무안군 삼향읍 오룡길 1', { sido: '전라남도', sigungu: '무안군', road: road('오룡길', 1), eupmyeondong: '삼향읍' }],
  ['제주도 서귀포시 중앙로 1', { sido: '제주특별자치도', sigungu: '서귀포시' }],
  ['제주 제주시 첨단로 242', { sido: '제주특별자치도', sigungu: '제주시', road: road('첨단로', 242) }],
  ['부산시 해운대구 센텀중앙로 79', { sido: '부산광역시', sigungu: '해운대구', road: road('센텀중앙로', 79) }],
  ['부산 남구 수영로 1', { sido: '부산광역시', sigungu: '남구' }],
  ['부산진구 중앙대로 1', { sido: null, sigungu: '부산진구' }],
  ['경기 성남시 분당구 판교역로 235', { sido: '경기도', sigungu: '성남시 분당구', road: road('판교역로', 235) }],
  ['분당구 판교역로 235', { sido: null, sigungu: '성남시 분당구' }],
  ['수원 영통구 중앙로 1', { sido: null, sigungu: '수원시 영통구' }],
  ['경기 성남시 판교역로 235', { sido: '경기도', sigungu: '성남시' }],
  ['경기도 고양시 일산동구 중앙로 1', { sigungu: '고양시 일산동구' }],
  ['경기도 부천시 원미구 길주로 1', { sigungu: '부천시 원미구' }],
  ['중구 세종대로 110', { sido: null, sigungu: '중구' }],
  ['경기 광주시 오포읍 신현리 12', { sido: '경기도', sigungu: '광주시', eupmyeondong: '오포읍 신현리' }],
  ['경기 광주 오포읍 신현리 12', { sido: '경기도', sigungu: '광주시' }],
  ['광주 서구 내방로 111', { sido: '광주광역시', sigungu: '서구' }],
  ['광주광역시 서구 내방로 111', { sido: '광주광역시', sigungu: '서구' }],
  ['대구 군위군 군위읍 중앙길 1', { sido: '대구광역시', sigungu: '군위군' }],
  // moved to 대구 in 2023: a list from before still writes 경북
  ['경상북도 군위군 군위읍 중앙길 1', { sido: '대구광역시', sigungu: '군위군', road: road('중앙길', 1) }],
  ['경북 군위 효령면 화계리 12', { sido: '대구광역시', sigungu: '군위군', jibun: jibun('화계리', 12) }],
  ['경북군위군군위읍중앙길1', { sido: '대구광역시', sigungu: '군위군' }],
  ['경기 양평 양평읍 양근리 123-4', { sido: '경기도', sigungu: '양평군' }],
  ['고성군 간성읍 중앙로 1', { sido: null, sigungu: '고성군' }],
  ['경남 고성군 고성읍 중앙로 1', { sido: '경상남도', sigungu: '고성군' }],
  ['인천 남구 중앙로 1', { sido: '인천광역시', sigungu: '남구' }],
]);

cases('세종 and glued input', [
  ['세종특별자치시 한누리대로 2130', { sido: '세종특별자치시', sigungu: null, road: road('한누리대로', 2130) }],
  ['세종시 보람동 한누리대로 2130', { sido: '세종특별자치시', sigungu: null, eupmyeondong: '보람동' }],
  ['세종시한누리대로2130', { sido: '세종특별자치시', road: road('한누리대로', 2130) }],
  ['서울시강남구테헤란로152', { ...GANGNAM, road: road('테헤란로', 152) }],
  ['경기도성남시분당구판교역로235', { sido: '경기도', sigungu: '성남시 분당구', road: road('판교역로', 235) }],
  ['서울강남구역삼동737', { ...GANGNAM, jibun: jibun('역삼동', 737) }],
  ['서울 동대문구 서울시립대로 163', { sigungu: '동대문구', road: road('서울시립대로', 163) }],
  ['제주 제주시 제주대학로 102', { sigungu: '제주시', road: road('제주대학로', 102) }],
  ['인천 서구 인천대로 1', { sido: '인천광역시', road: road('인천대로', 1) }],
  // a road named after its 군 keeps its name when a branch follows it
  ['대구광역시 달성군 논공읍 달성군청로188번길 5-15', { sigungu: '달성군', road: road('달성군청로188번길', 5, 15), buildingName: null }],
  ['대구 달성군 논공읍 달성군청로 5', { sigungu: '달성군', road: road('달성군청로', 5) }],
  ['대구달성군현풍로12길3', { sido: '대구광역시', sigungu: '달성군', road: road('현풍로12길', 3) }],
  ['대구달성군중앙1길3', { sido: '대구광역시', sigungu: '달성군', road: road('중앙1길', 3) }],
]);

cases('lot-number addresses', [
  ['서울 강남구 역삼동 737', { ...GANGNAM, jibun: jibun('역삼동', 737), eupmyeondong: '역삼동', road: null, form: 'jibun' }],
  ['서울 강남구 역삼동 737번지', { jibun: jibun('역삼동', 737), form: 'jibun' }],
  ['서울 강남구 역삼동 737 번지', { jibun: jibun('역삼동', 737) }],
  ['서울 강남구 역삼동 산 12-3', { jibun: jibun('역삼동', 12, 3, true) }],
  ['서울 강남구 역삼동산12-3', { jibun: jibun('역삼동', 12, 3, true) }],
  ['서울 강남구 역삼동737-1번지 3층', { jibun: jibun('역삼동', 737, 1), detail: '3층' }],
  ['서울 중구 태평로1가 31', { jibun: jibun('태평로1가', 31), eupmyeondong: '태평로1가', road: null }],
  ['서울 강남구 역삼1동 737', { jibun: jibun('역삼1동', 737), eupmyeondong: '역삼1동' }],
  ['경기도 양평군 양평읍 양근리 123-4', { sigungu: '양평군', eupmyeondong: '양평읍 양근리', jibun: jibun('양근리', 123, 4) }],
  ['서울 강남구 역삼동 737 강남파이낸스센터 3층', { jibun: jibun('역삼동', 737), buildingName: '강남파이낸스센터', detail: '3층' }],
  ['서울 강남구 역삼동', { eupmyeondong: '역삼동', jibun: null, road: null, form: 'unknown' }],
]);

cases('unit part (동/층/호)', [
  ['서울 강남구 도산대로45길 10, 101동 1203호', { detail: '101동 1203호', unit: unit('101동', null, '1203호') }],
  ['서울 강남구 도산대로45길 10 101동1203호', { detail: '101동 1203호', unit: unit('101동', null, '1203호') }],
  ['서울 강남구 도산대로45길 10 101동 1203', { detail: '101동 1203호', unit: unit('101동', null, '1203호') }],
  ['서울 강남구 도산대로45길 10 101동 3층 301호', { detail: '101동 3층 301호', unit: unit('101동', '3층', '301호') }],
  ['서울 중구 세종대로 110 B1층', { detail: '지하1층', unit: unit(null, '지하1층', null) }],
  ['서울 중구 세종대로 110 지하1층', { detail: '지하1층' }],
  ['서울 중구 세종대로 110 지하 1층', { detail: '지하1층', road: road('세종대로', 110) }],
  ['서울 중구 세종대로 110, 제3층', { detail: '3층' }],
  ['서울 중구 세종대로 110 3F', { detail: '3층' }],
  ['서울 중구 세종대로 110 301호', { detail: '301호', unit: unit(null, null, '301호') }],
  ['서울 중구 세종대로 110, 3층 301호', { detail: '3층 301호', unit: unit(null, '3층', '301호') }],
  ['서울 중구 세종대로 110 3층301호', { detail: '3층 301호' }],
  ['서울 중구 세종대로 110 3 층', { detail: '3층' }],
  ['서울 중구 세종대로 110 가동 201호', { detail: '가동 201호', unit: unit('가동', null, '201호') }],
  ['서울 중구 세종대로 110 (3층)', { detail: '3층', buildingName: null }],
  ['서울 송파구 올림픽로 300 롯데월드타워 B1', { detail: '지하1층', buildingName: '롯데월드타워' }],
  ['서울 송파구 올림픽로 300 B101호', { detail: 'B101호', unit: unit(null, null, 'B101호') }],
  ['서울특별시 강남구 테헤란로 152 1층 일부', { detail: '1층', buildingName: null }],
  ['서울 강남구 테헤란로 152-3층', { road: road('테헤란로', 152), detail: '3층' }],
  ['경기 성남시 분당구 판교역로 235 에이치스퀘어 N동 5층', { detail: 'N동 5층', buildingName: '에이치스퀘어', unit: unit('N동', '5층', null) }],
  ['서울 중구 세종대로 110', { detail: null, unit: null }],
]);

cases('full-width and odd punctuation', [
  ['서울특별시　강남구　테헤란로　１５２，　３층', { ...GANGNAM, road: road('테헤란로', 152), detail: '3층' }],
  ['（０６２３６）서울특별시 강남구 테헤란로 １５２', { zipcode: zip('06236'), road: road('테헤란로', 152) }],
  ['"서울 강남구 테헤란로 152"', { road: road('테헤란로', 152) }],
  ['서울 강남구 테헤란로 152\t3층\n301호', { detail: '3층 301호' }],
  ['서울 중구 세종대로 110–1', { road: road('세종대로', 110, 1) }],
]);

const NOTHING: Expect = {
  sido: null, sigungu: null, eupmyeondong: null, road: null, roadNameOnly: null, jibun: null,
  detail: null, unit: null, buildingName: null, zipcode: null, form: 'unknown',
};

cases('garbage in, nulls out', [
  ['', NOTHING],
  ['   ', NOTHING],
  ['asdf qwer', NOTHING],
  ['((((', NOTHING],
  ['-----', NOTHING],
  ['???', NOTHING],
  ['테스트 주소', NOTHING],
  ['1234', NOTHING],
  ['주소 없음', NOTHING],
]);

describe('totality', () => {
  test('keeps the raw text as given', () => {
    assert.equal(parseAddress('  서울 강남구  ').raw, '  서울 강남구  ');
  });

  test('non-string input from untyped callers does not throw', () => {
    for (const bad of [null, undefined, 42, {}, []] as unknown[]) {
      const p = parseAddress(bad as string);
      assert.equal(p.form, 'unknown');
      assert.equal(p.raw, '');
    }
  });

  test('very long input is read without blowing up', () => {
    const long = `서울 강남구 테헤란로 152 ${'가'.repeat(100_000)}`;
    // how long it takes is measured by `npm run bench:functions`
    assert.deepEqual(parseAddress(long).road, road('테헤란로', 152));
  });

  test('random address-like noise never throws', () => {
    const alphabet = ['서울', '강남구', '로', '길', '동', '리', '읍', '면', '가', '산', '지하', '층', '호', '번지', '번길', '(', ')', '[', ']',
      ',', ' ', '  ', '-', '0', '1', '2', '9', '12', '152', '06236', '135-080', 'B', 'F', '제', '우)', '　', '１', '㈜', '시', '군', '구'];
    let seed = 12345;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 3_000; i++) {
      let s = '';
      const n = next() % 25;
      for (let j = 0; j < n; j++) s += alphabet[next() % alphabet.length]!;
      const p = parseAddress(s);
      assert.equal(p.raw, s);
      assert.ok(['road', 'jibun', 'unknown'].includes(p.form));
    }
  });
});

test('a building written by its name after its 동 or 시군구, with no road or lot, is read as the building name', () => {
  for (const [written, name, detail] of [
    ['성남시 분당구 정자동 한빛타워 1205호', '한빛타워', '1205호'],
    ['서울 강남구 역삼동 테헤란빌딩 5층', '테헤란빌딩', '5층'],
    ['강남구 강남파이낸스센터', '강남파이낸스센터', null],
  ] as const) {
    const p = parseAddress(written);
    assert.equal(p.buildingName, name, written);
    assert.equal(p.detail, detail, written);
    assert.equal(p.road, null);
    assert.equal(p.jibun, null);
  }
  // with a lot or a road the name stays what it was: a name beside the address
  assert.deepEqual(parseAddress('서울 강남구 역삼동 737 강남파이낸스센터').jibun?.main, 737);
});

test('a road written without its 로/길 after the 시군구 is read as written; a building name followed by a number is not a road', () => {
  assert.deepEqual(parseAddress('서울 강남구 테헤란 152 3층').road, { name: '테헤란', underground: false, main: 152, sub: 0 });
  assert.deepEqual(parseAddress('경기도 양평군 양근 12-3').road, { name: '양근', underground: false, main: 12, sub: 3 });
  const lot = parseAddress('성남시 분당구 정자동 네이버 178-1');
  assert.equal(lot.road, null, 'after a 동, a name and a lot');
  assert.deepEqual(lot.jibun, { dong: '정자동', mountain: false, main: 178, sub: 1 });
  assert.equal(parseAddress('서울 강남구 한빛타워 12').road, null);
  assert.equal(parseAddress('서울 강남구 역삼동 737').road, null, 'a 동 and its lot stay a lot');
  assert.equal(parseAddress('테헤란 152').road, null, 'without a 시군구 a word and a number say too little');
});

test('a name typed with a space before its suffix is read whole; a word that is a name by itself keeps its own', () => {
  assert.deepEqual(parseAddress('서울특별시 중구 을지 로 62 A동 1936호').road, { name: '을지로', underground: false, main: 62, sub: 0 });
  assert.deepEqual(parseAddress('서울 종로구 창신 32길 40').road, { name: '창신32길', underground: false, main: 40, sub: 0 });
  assert.deepEqual(parseAddress('광주시 광주대로 118번길 26').road?.name, '광주대로118번길');
  assert.deepEqual(parseAddress('서울 서초구 서초 동 562 1층').jibun, { dong: '서초동', mountain: false, main: 562, sub: 0 });
  assert.equal(parseAddress('경기 남양주시 진접 읍 장현리 12').eupmyeondong, '진접읍 장현리');
  // 101 동 is a unit; 강남구 and 역삼동 are names already
  assert.equal(parseAddress('서울 강남구 테헤란로 152 101 동 1203호').unit?.dong, '101동');
  assert.equal(parseAddress('서울 강남구 역삼동 737').jibun?.dong, '역삼동');
});

test('"광주시" with an 읍 or 면 is 경기 광주시 (광주광역시 has none); otherwise 광주광역시', () => {
  const rural = parseAddress('광주시 오포읍 능평리 75');
  assert.equal(rural.sido, '경기도');
  assert.equal(rural.sigungu, '광주시');
  assert.equal(parseAddress('광주시 서구 상무대로 1').sido, '광주광역시');
  assert.equal(parseAddress('광주광역시 광산구 하남산단로 2').sigungu, '광산구');
});
