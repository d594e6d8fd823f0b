import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildingKindOf, fitCandidate, matchAddress, sigunguAgrees } from './match.ts';
import { editDistance, jamoDistance, jamoEdits, RoadNameIndex, roadNameDistance, roadTypoCost } from './road-names.ts';
import { parseAddress } from './parse.ts';
import type { AddressMatch, DirectoryEntry } from './types.ts';

let serial = 0;
/** A directory entry; "지하 396", "110-2" as number; roadAddress derived like a directory would. */
function entry(sido: string, sigungu: string, road: string, number: string, more: Partial<DirectoryEntry> = {}): DirectoryEntry {
  const [, under, main, sub] = /^(지하 )?(\d+)(?:-(\d+))?$/.exec(number)!;
  const e: DirectoryEntry = {
    buildingId: `T${++serial}`, zipcode: '00000', sido, sigungu, eupmyeondong: '', ri: '', roadName: road,
    underground: under !== undefined, buildingMain: Number(main), buildingSub: Number(sub ?? 0),
    jibunMountain: false, jibunMain: 1, jibunSub: 0, buildingName: '', roadAddress: '', ...more,
  };
  e.roadAddress = [sido, sigungu, road, number].filter((x) => x !== '').join(' ');
  return e;
}

const FINANCE = entry('서울특별시', '강남구', '테헤란로', '152', {
  zipcode: '06236', eupmyeondong: '역삼동', jibunMain: 737, buildingName: '강남파이낸스센터',
});
const TEHERAN_154 = entry('서울특별시', '강남구', '테헤란로', '154', { zipcode: '06236', eupmyeondong: '역삼동', jibunMain: 738 });
const CITY_HALL = entry('서울특별시', '중구', '세종대로', '110', {
  zipcode: '04524', eupmyeondong: '태평로1가', jibunMain: 31, buildingName: '서울특별시청',
});
const CITY_HALL_2 = entry('서울특별시', '중구', '세종대로', '110-2', { zipcode: '04524', eupmyeondong: '태평로1가', jibunMain: 31, jibunSub: 2 });
const STATION = entry('서울특별시', '강남구', '강남대로', '지하 396', { zipcode: '06232', eupmyeondong: '역삼동', jibunMain: 858 });
const SUWON = entry('경기도', '수원시 팔달구', '중앙로', '12', { zipcode: '16489', eupmyeondong: '인계동' });
const ANSAN = entry('경기도', '안산시 단원구', '중앙로', '12', { zipcode: '15360', eupmyeondong: '고잔동' });
const BUSAN = entry('부산광역시', '중구', '중앙로', '12', { zipcode: '48900', eupmyeondong: '중앙동' });
const PANGYO = entry('경기도', '성남시 분당구', '판교역로', '235', { zipcode: '13494', eupmyeondong: '삼평동', jibunMain: 681 });
const SEJONG = entry('세종특별자치시', '', '한누리대로', '2130', { zipcode: '30151', eupmyeondong: '보람동', jibunMain: 716 });
const YANGPYEONG = entry('경기도', '양평군', '양근로', '12', { zipcode: '12554', eupmyeondong: '양평읍', ri: '양근리', jibunMain: 123, jibunSub: 4 });
const OFFICETEL = entry('서울특별시', '강남구', '역삼로', '20', { zipcode: '06247' });
const GANGNAM_JUNGANG_DAERO = entry('서울특별시', '강남구', '중앙대로', '12', { zipcode: '06000' });
const JONGNO_JUNGANG = entry('서울특별시', '종로구', '중앙로', '12', { zipcode: '03000' });
const ALL = [FINANCE, TEHERAN_154, CITY_HALL, STATION, SUWON, ANSAN, BUSAN, PANGYO, SEJONG, YANGPYEONG, OFFICETEL];

const match = (raw: string, candidates: DirectoryEntry[] = ALL): AddressMatch => matchAddress(parseAddress(raw), candidates);

describe('exact', () => {
  test('every given part agrees with one building and nothing changes', () => {
    const m = match('서울특별시 강남구 테헤란로 152');
    assert.equal(m.quality, 'exact');
    assert.deepEqual(m.changes, []);
    assert.equal(m.entry, FINANCE);
    assert.equal(m.fixedZipcode, '06236');
    assert.equal(m.fixedAddress, '서울특별시 강남구 테헤란로 152');
    assert.equal(m.candidates, 1);
    assert.equal(m.zipMismatch, false);
    assert.equal(m.outdatedZip, false);
    assert.equal(m.missingBuildingNumber, false);
  });

  test('the input detail is appended to the fixed address', () => {
    assert.equal(match('서울시 강남구 테헤란로152, 3층 301호').fixedAddress, '서울특별시 강남구 테헤란로 152, 3층 301호');
    assert.equal(match('서울 강남구 테헤란로 152 101동 1203').fixedAddress, '서울특별시 강남구 테헤란로 152, 101동 1203호');
  });

  test('aliases, the 법정동 in parentheses and a matching postal code are agreement, not changes', () => {
    const m = match('(06236) 서울 강남구 테헤란로 152 (역삼동, 강남파이낸스센터) 3층');
    assert.equal(m.quality, 'exact');
    assert.equal(m.zipMismatch, false);
  });

  test('a 행정동 ("역삼1동") agrees with its 법정동', () => {
    assert.equal(match('서울 강남구 역삼1동 737').quality, 'exact');
  });

  test('lot-number input matches the building on that lot and is fixed to its road address', () => {
    const m = match('서울 강남구 역삼동 737번지');
    assert.equal(m.quality, 'exact');
    assert.equal(m.fixedAddress, '서울특별시 강남구 테헤란로 152');
    assert.equal(match('경기도 양평군 양평읍 양근리 123-4').entry, YANGPYEONG);
  });

  test('세종 has no 시/군/구 on either side', () => {
    const m = match('세종특별자치시 한누리대로 2130');
    assert.equal(m.quality, 'exact');
    assert.equal(m.fixedAddress, '세종특별자치시 한누리대로 2130');
  });

  test('other plausible buildings do not spoil a unique best one', () => {
    const m = match('경기 수원시 팔달구 중앙로 12');
    assert.equal(m.quality, 'exact');
    assert.equal(m.entry, SUWON);
    assert.equal(m.candidates, 3);
  });

  test('"분당구" alone is read as 성남시 분당구', () => {
    assert.equal(match('경기 분당구 판교역로 235').quality, 'exact');
  });
});

describe('corrected', () => {
  test('wrong 시/군/구', () => {
    const m = match('서울 서초구 테헤란로 152');
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'sigungu', from: '서초구', to: '강남구' }]);
    assert.equal(m.fixedAddress, '서울특별시 강남구 테헤란로 152');
  });

  test('wrong 시/도', () => {
    assert.deepEqual(match('경기도 강남구 테헤란로 152').changes, [{ field: 'sido', from: '경기도', to: '서울특별시' }]);
  });

  test('missing 시/도 and a city without its 일반구 are listed as filled in', () => {
    assert.deepEqual(match('강남구 테헤란로 152').changes, [{ field: 'sido', from: null, to: '서울특별시' }]);
    const m = match('경기 성남시 판교역로 235');
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'sigungu', from: '성남시', to: '성남시 분당구' }]);
  });

  test('road-name typo within the edit distance', () => {
    const m = match('서울 강남구 태헤란로 152');
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'road_name', from: '태헤란로', to: '테헤란로' }]);
  });

  test('postal code that differs', () => {
    const m = match('(06234) 서울 강남구 테헤란로 152');
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'zipcode', from: '06234', to: '06236' }]);
    assert.equal(m.zipMismatch, true);
    assert.equal(m.outdatedZip, false);
  });

  test('old 6-digit postal code: outdated, replaced, not counted as a mismatch', () => {
    const m = match('[135-080] 서울 강남구 테헤란로 152');
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'zipcode', from: '135-080', to: '06236' }]);
    assert.equal(m.outdatedZip, true);
    assert.equal(m.zipMismatch, false);
  });

  test('부번 that does not exist beside the one that does', () => {
    const m = match('서울 중구 세종대로 110-1', [CITY_HALL]);
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'building_number', from: '110-1', to: '110' }]);
  });

  test('지하 left out', () => {
    assert.deepEqual(match('서울 강남구 강남대로 396').changes, [{ field: 'building_number', from: '396', to: '지하 396' }]);
  });

  test('wrong 법정동 next to a correct road address', () => {
    const m = match('서울 강남구 테헤란로 152 (삼성동)');
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes, [{ field: 'eupmyeondong', from: '삼성동', to: '역삼동' }]);
  });

  test('several parts at once, listed field by field in a stable order', () => {
    const m = match('(06234) 서울 서초구 태헤란로 152');
    assert.deepEqual(m.changes.map((c) => c.field), ['sigungu', 'road_name', 'zipcode']);
  });

  test('a postal code can settle which of two same-named roads was meant', () => {
    const m = match('경기 중앙로 12 (15360)');
    assert.equal(m.entry, ANSAN);
    assert.deepEqual(m.changes, [{ field: 'sigungu', from: null, to: '안산시 단원구' }]);
  });
});

describe('ambiguous', () => {
  test('no building number: the road is known, the building is not', () => {
    const m = match('서울 강남구 테헤란로');
    assert.equal(m.quality, 'ambiguous');
    assert.equal(m.missingBuildingNumber, true);
    assert.equal(m.candidates, 2);
    assert.equal(m.entry, null);
    assert.equal(m.fixedAddress, null);
    assert.equal(m.fixedZipcode, null);
    assert.deepEqual(m.changes, []);
  });

  test('no building number even when only one building is on the road', () => {
    const m = match('서울 중구 세종대로', [CITY_HALL]);
    assert.equal(m.quality, 'ambiguous');
    assert.equal(m.missingBuildingNumber, true);
  });

  test('the same road and number in several 시/군/구 of the input 시/도', () => {
    const m = match('경기도 중앙로 12');
    assert.equal(m.quality, 'ambiguous');
    assert.equal(m.candidates, 3); // 부산 중구 is plausible too, but not among the best
    assert.equal(m.missingBuildingNumber, false);
  });

  test('중구 without a 시/도', () => {
    assert.deepEqual(match('중구 중앙로 12').changes, [{ field: 'sido', from: null, to: '부산광역시' }]);
    assert.equal(match('중구 중앙로 12', [BUSAN, { ...BUSAN, buildingId: 'X', sido: '대구광역시' }]).quality, 'ambiguous');
  });

  test('a 부번 that matches neither of two neighbours', () => {
    assert.equal(match('서울 중구 세종대로 110-1', [CITY_HALL, CITY_HALL_2]).quality, 'ambiguous');
  });

  test('a short road name one edit from another road is no better than the same name elsewhere', () => {
    const m = match('서울 강남구 중앙로 12', [GANGNAM_JUNGANG_DAERO, JONGNO_JUNGANG]);
    assert.equal(m.quality, 'ambiguous');
  });
});

describe('not_found', () => {
  test('no candidates', () => {
    const m = match('서울 강남구 테헤란로 152', []);
    assert.equal(m.quality, 'not_found');
    assert.equal(m.candidates, 0);
    assert.equal(m.fixedAddress, null);
    assert.equal(m.fixedZipcode, null);
    assert.equal(m.zipMismatch, false);
  });

  test('a building number the road does not have', () => {
    assert.equal(match('서울 강남구 테헤란로 999').quality, 'not_found');
  });

  test('a road name too far from any road', () => {
    assert.equal(match('서울 강남구 테크노밸리로 152').quality, 'not_found');
  });

  test('too many wrong parts at once is a different address, not a correction', () => {
    // wrong 시/도 (3) + wrong 시/군/구 (2) + typo (1) > 5
    assert.equal(match('부산 해운대구 태헤란로 152').quality, 'not_found');
  });

  test('garbage', () => {
    const m = match('asdf');
    assert.equal(m.quality, 'not_found');
    assert.equal(m.missingBuildingNumber, false);
    assert.equal(m.missingUnit, false);
  });

  test('outdated zip is reported even when nothing matches', () => {
    assert.equal(match('[135-080] 어딘가', []).outdatedZip, true);
  });
});

describe('flags', () => {
  test('missingUnit: a named multi-unit building without 동/층/호', () => {
    assert.equal(match('서울 강남구 테헤란로 152').missingUnit, true); // 강남파이낸스센터
    assert.equal(match('서울 강남구 테헤란로 152 3층').missingUnit, false);
    assert.equal(match('서울 중구 세종대로 110').missingUnit, false); // 서울특별시청: one occupant
  });

  test('missingUnit: the input says it is an 오피스텔 / 빌딩 / 아파트', () => {
    assert.equal(match('서울 강남구 역삼로 20 한빛오피스텔').missingUnit, true);
    assert.equal(match('서울 강남구 역삼로 20 한빛오피스텔 1203호').missingUnit, false);
    assert.equal(match('서울 강남구 역삼로 20').missingUnit, false);
  });

  test('missingBuildingNumber also for a 동 without a lot number', () => {
    const m = match('서울 강남구 역삼동');
    assert.equal(m.missingBuildingNumber, true);
    assert.equal(m.quality, 'ambiguous');
  });

  test('duplicated candidates count once', () => {
    assert.equal(match('서울 강남구 테헤란로 152', [FINANCE, FINANCE, { ...FINANCE }]).quality, 'exact');
  });
});

describe('lot and road disagree', () => {
  test('road fits, lot does not: the road wins and the lot is corrected', () => {
    const m = match('서울 강남구 테헤란로 152 (역삼동 738)');
    assert.equal(m.entry, FINANCE);
    assert.deepEqual(m.changes, [{ field: 'jibun', from: '역삼동 738', to: '역삼동 737' }]);
  });

  test('a wrong road with a lot that fits one building', () => {
    const p = parseAddress('서울 강남구 역삼동 737');
    const fit = fitCandidate({ ...p, road: { name: '논현로', underground: false, main: 5, sub: 0 }, form: 'road' }, FINANCE);
    assert.equal(fit.plausible, true);
    assert.deepEqual(fit.changes.map((c) => c.field), ['road_name', 'building_number']);
  });
});

describe('helpers', () => {
  test('editDistance', () => {
    assert.equal(editDistance('테헤란로', '테헤란로'), 0);
    assert.equal(editDistance('태헤란로', '테헤란로'), 1);
    assert.equal(editDistance('테헤로', '테헤란로'), 1);
    assert.equal(editDistance('', '중앙로'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  test('roadNameDistance: typo limits, and numbers must agree', () => {
    assert.equal(roadNameDistance('태헤란로', '테헤란로'), 1);
    assert.equal(roadNameDistance('태해란로', '테헤란로'), 2);
    assert.equal(roadNameDistance('중앙로', '중앙대로'), 1);
    assert.equal(roadNameDistance('중앙로', '시청로'), null);
    assert.equal(roadNameDistance('도산대로45길', '도산대로46길'), null);
    assert.equal(roadNameDistance('도산대로45길', '도산대료45길'), 1);
    assert.equal(roadNameDistance('중앙로12번길', '중앙로'), null);
  });

  test('sigunguAgrees', () => {
    assert.equal(sigunguAgrees('강남구', '강남구'), true);
    assert.equal(sigunguAgrees('성남시', '성남시 분당구'), true);
    assert.equal(sigunguAgrees('남구', '포항시 남구'), true);
    assert.equal(sigunguAgrees('서초구', '강남구'), false);
    assert.equal(sigunguAgrees('성남', '성남시 분당구'), false);
  });

  test('fitCandidate orders a wrong 구 below a typo, and both below a perfect fit', () => {
    const p = parseAddress('서울 강남구 테헤란로 152');
    const perfect = fitCandidate(p, FINANCE).penalty;
    const typo = fitCandidate(parseAddress('서울 강남구 태헤란로 152'), FINANCE).penalty;
    const wrongGu = fitCandidate(parseAddress('서울 서초구 테헤란로 152'), FINANCE).penalty;
    assert.ok(perfect < typo && typo < wrongGu, `${perfect} ${typo} ${wrongGu}`);
    assert.equal(fitCandidate(p, TEHERAN_154).plausible, false);
  });
});

test('why an address was not found: an unknown road, a number the road does not have, an unknown lot, nothing readable', () => {
  assert.equal(match('서울 강남구 테헤란로 999').notFound, 'no_such_number');
  assert.equal(match('서울 강남구 테헤란로 999').quality, 'not_found');
  assert.equal(match('서울 강남구 없는길로 12', []).notFound, 'unknown_road');
  assert.equal(match('서울 강남구 역삼동 9999-1', []).notFound, 'unknown_lot');
  assert.equal(match('본사 2층 총무팀', []).notFound, 'unreadable');
  assert.equal(match('서울 강남구 테헤란로 152').notFound, null, 'found addresses have no why');
});

test('a building in a 읍 or 면 is on a rural round; one in a 동, or no building matched, is not', () => {
  assert.equal(match('경기도 양평군 양근로 12').rural, true);
  assert.equal(match('서울 강남구 테헤란로 152').rural, false);
  assert.equal(match('서울 강남구 테헤란로 999').rural, false, 'nothing matched');
  const village = entry('강원특별자치도', '평창군', '기화길', '7', { eupmyeondong: '봉평면', ri: '창동리' });
  assert.equal(match('강원 평창군 봉평면 기화길 7', [village]).rural, true);
});

test('the building kind from its names: the directory’s first, then the one the input wrote', () => {
  assert.equal(buildingKindOf('래미안블레스티지', null, true), 'apartment');
  assert.equal(buildingKindOf('역삼 한화오피스텔', null, true), 'officetel');
  assert.equal(buildingKindOf('광교 푸르지오시티', null, true), 'officetel', 'an officetel brand, not the apartment brand it contains');
  assert.equal(buildingKindOf('가산 SK V1 center', null, true), 'knowledge_center');
  assert.equal(buildingKindOf('성수 아이티캐슬', null, true), 'knowledge_center');
  assert.equal(buildingKindOf('대륭테크노타운 18차', null, true), 'knowledge_center');
  assert.equal(buildingKindOf('문정 지식산업센터', null, true), 'knowledge_center');
  assert.equal(buildingKindOf('우림라이온스밸리', null, true), 'knowledge_center');
  assert.equal(buildingKindOf('강변테크노마트', null, true), 'office', 'a shopping mall');
  assert.equal(buildingKindOf('강남파이낸스센터', null, true), 'office');
  assert.equal(buildingKindOf('한빛빌라', null, true), 'villa');
  assert.equal(buildingKindOf(null, null, true), 'house', 'a matched building without a name');
  assert.equal(buildingKindOf(null, '푸르지오시티', false), 'officetel');
  assert.equal(buildingKindOf(null, '래미안', false), 'apartment');
  assert.equal(buildingKindOf(null, null, false), 'unknown');
  assert.equal(match('서울 강남구 테헤란로 152').buildingKind, 'office');
  assert.equal(match('서울 강남구 테헤란로 154').buildingKind, 'house');
  // the directory's 공동주택 flag: a brand we do not list, or a 다세대 without a name
  assert.equal(buildingKindOf('더클래식500', null, true, true), 'apartment');
  assert.equal(buildingKindOf(null, null, true, true), 'villa');
  assert.equal(buildingKindOf('한빛빌딩', null, true, true), 'office', 'its name says more than the flag');
});

test('a letter without 동/호 to a building of many units: its name says so, or the directory does', () => {
  const flats = [
    entry('서울특별시', '강남구', '언주로', '30', { buildingName: '래미안블레스티지' }),
    entry('서울특별시', '강남구', '언주로', '32', { apartment: true }),
    entry('서울특별시', '강남구', '언주로', '34'),
  ];
  assert.equal(match('서울 강남구 언주로 30', flats).missingUnit, true, 'an apartment complex named by its brand');
  assert.equal(match('서울 강남구 언주로 30 101동 1203호', flats).missingUnit, false);
  assert.equal(match('서울 강남구 언주로 32', flats).missingUnit, true, 'a 공동주택 without a name');
  assert.equal(match('서울 강남구 언주로 32', flats).buildingKind, 'villa');
  assert.equal(match('서울 강남구 언주로 34', flats).missingUnit, false, 'a house');
});

test('the road-name index finds exactly the names roadNameDistance accepts, nearest first', () => {
  const names = ['테헤란로', '테헤란길', '태헤란로', '세종대로', '세종로', '세중대로', '번영로', '번영로1번길', '번영로2번길', '번엉로1번길', '가로', '나로', '다로길', '중앙로', '중앙로45번길', '중앙로46번길', '중앙로45번가길'];
  const index = new RoadNameIndex(names);
  for (const written of [...names, '테헤란', '세종대료', '중앙로45번길', '번영로1번기', '가', '없는길이름로']) {
    const brute = names.filter((n) => n !== written && roadNameDistance(written, n) !== null);
    assert.deepEqual(index.near(written).toSorted(), brute.toSorted(), written);
    const ds = index.near(written).map((n) => roadNameDistance(written, n)!);
    assert.deepEqual(ds, ds.toSorted((a, b) => a - b), `${written}: nearest first`);
  }
});

test('a building named alone is the building of that name in its 동, the road and number given as corrections; two of that name stay ambiguous', () => {
  const named = entry('경기도', '성남시 분당구', '정자일로', '95', { eupmyeondong: '정자동', buildingName: '한빛타워' });
  const other = entry('경기도', '성남시 분당구', '정자일로', '97', { eupmyeondong: '정자동', buildingName: '두리빌딩' });
  const m = matchAddress(parseAddress('성남시 분당구 정자동 한빛타워 1205호'), [other, named]);
  assert.equal(m.quality, 'corrected');
  assert.equal(m.entry?.buildingId, named.buildingId);
  assert.equal(m.fixedAddress, `${named.roadAddress}, 1205호`);
  assert.deepEqual(m.changes.filter((c) => c.field === 'road_name' || c.field === 'building_number'), [{ field: 'road_name', from: null, to: '정자일로' }, { field: 'building_number', from: null, to: '95' }]);
  assert.equal(m.missingBuildingNumber, false);
  const twin = entry('경기도', '성남시 분당구', '정자일로', '99', { eupmyeondong: '정자동', buildingName: '한빛 타워' });
  assert.equal(matchAddress(parseAddress('성남시 분당구 정자동 한빛타워'), [named, twin]).quality, 'ambiguous');
  assert.equal(matchAddress(parseAddress('성남시 분당구 정자동 없는타워'), [named, other]).quality, 'ambiguous', 'an unknown name: the 동 as before');
});

describe('typos in jamo', () => {
  test('jamoDistance: one per 초성/중성/종성, a half for vowels spoken alike', () => {
    assert.equal(jamoDistance('앙', '앙'), 0);
    assert.equal(jamoDistance('앙', '안'), 1, '받침');
    assert.equal(jamoDistance('대', '데'), 0.5, 'ㅐ/ㅔ');
    assert.equal(jamoDistance('왜', '웨'), 0.5, 'ㅙ/ㅞ');
    assert.equal(jamoDistance('앙', '얀'), 2);
    assert.equal(jamoDistance('가', 'A'), 3);
    assert.equal(jamoEdits('테헤란로', '테헤란'), 3, 'a letter left out');
  });

  test('a road one jamo off outranks one a whole letter off; ㅐ/ㅔ is the cheapest slip', () => {
    assert.ok(roadTypoCost('테헤란로', '태헤란로') < roadTypoCost('테헤란로', '테헤란대로'));
    assert.ok(roadTypoCost('테헤란로', '테혜란로') < roadTypoCost('테헤란로', '테가란로'));
    assert.ok(roadTypoCost('세종대로', '세종데로') < roadTypoCost('세종대로', '세종더로'));
    const index = new RoadNameIndex(['중안로', '중앙로', '증앙로']);
    assert.deepEqual(index.near('중얀로').slice(0, 1), ['중안로']);
  });

  test('two slips of one jamo each in a three-letter name are still that road; a whole other road is not', () => {
    assert.equal(roadNameDistance('증양로', '중앙로'), 2);
    assert.equal(roadNameDistance('동작로', '중앙로'), null);
    const m = match('경기도 수원시 팔달구 증양로 12', [SUWON]);
    assert.equal(m.quality, 'corrected');
    assert.deepEqual(m.changes.find((c) => c.field === 'road_name'), { field: 'road_name', from: '증양로', to: '중앙로' });
  });

  test('the nearer of two roads in jamo is the match; equally near ones stay ambiguous', () => {
    const near = entry('경기도', '양평군', '중안로', '7');
    const far = entry('경기도', '양평군', '중앙로', '7');
    assert.equal(match('경기도 양평군 중얀로 7', [near, far]).entry, near);
    assert.equal(match('경기도 양평군 중앗로 7', [near, far]).quality, 'ambiguous');
  });
});

describe('found another way: a renamed road, a related lot, the register name', () => {
  test('a building found by its former road address is corrected to today\'s, the rename listed', () => {
    const moved: DirectoryEntry = { ...OFFICETEL, buildingId: 'MOVED', roadName: '선릉로', buildingMain: 433, roadAddress: '서울특별시 강남구 선릉로 433',
      via: { kind: 'former_road', sigungu: '강남구', roadName: '역삼로', underground: false, main: 20, sub: 0 } };
    const m = match('서울특별시 강남구 역삼로 20', [moved]);
    assert.equal(m.quality, 'corrected');
    assert.equal(m.fixedAddress, '서울특별시 강남구 선릉로 433');
    assert.deepEqual(m.changes, [
      { field: 'road_name', from: '역삼로', to: '선릉로' },
      { field: 'building_number', from: '20', to: '433' },
    ]);
    assert.equal(fitCandidate(parseAddress('서울특별시 강남구 역삼로 20'), moved).penalty, 1);
    // today's address beats the former one of another building
    assert.equal(match('서울특별시 강남구 역삼로 20', [moved, OFFICETEL]).entry, OFFICETEL);
  });

  test('a lot the building stands on besides its own is its lot', () => {
    const onLot: DirectoryEntry = { ...FINANCE, via: { kind: 'related_lot', eupmyeondong: '역삼동', ri: '', mountain: false, main: 736, sub: 0 } };
    const m = match('서울 강남구 역삼동 736', [onLot]);
    assert.equal(m.entry, onLot);
    assert.equal(m.fixedAddress, FINANCE.roadAddress);
    assert.equal(match('서울 강남구 역삼동 735', [onLot]).quality, 'not_found');
  });

  test('the 건축물대장건물명 names the building as its 시군구용건물명 does', () => {
    const named = { ...FINANCE, registerName: '지에프씨' };
    assert.equal(match('서울 강남구 역삼동 지에프씨', [named]).entry, named);
    assert.equal(match('서울 강남구 역삼동 지에프씨', [FINANCE]).entry, null);
  });
});
