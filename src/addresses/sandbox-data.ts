// SYNTHETIC address world for the sandbox directory (SANDBOX.md). The 시/도 and 시/군/구 are real
// (regions.ts); every road, building, lot, building name and postal code below is made up, except
// the documented fixtures, which copy a few well-known real addresses. It is generated from the
// compact seeds in this file, deterministically (hashes of names and numbers, no randomness, no
// clock), once per process.

import { SIDOS } from '../domain/address/regions.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import type { DirectoryEntry } from '../domain/address/types.ts';

/** Road names used everywhere, so the same name exists in many 시/군/구 (as 중앙로 does in Korea). */
const COMMON_ROADS = (
  '중앙로 시청로 역전로 번영로 문화로 평화로 중앙대로 대학로 공원로 시장로 산업로 희망로 행복로 새마을로 구청로 ' +
  '법원로 학교로 강변로 호수로 공단로 동문로 서문로 남문로 북문로 향교로 장터로 시민로 체육관로 터미널로 운동장로 ' +
  '버들로 은행로 소나무로 느티나무로 솔밭로 매화로 벚꽃로 장미로 국화로 무궁화로 진달래로 개나리로 목련로 동백로 ' +
  '해맞이로 달맞이로 별빛로 햇살로 하늘로 구름로 노을로 새벽로 미래로 창조로 혁신로 과학로 첨단로 테크노로 벤처로 ' +
  '디지털로 정보로 미디어로 예술로 문예로 청년로 어린이로 효자로 충효로 충렬로 의병로 독립로 광복로 통일로 만세로 ' +
  '삼일로 현충로 한마음로 한빛로 한울로 누리로 가람로 나래로 다솜로 마루로 늘푸른로 초록로 금빛로 은빛로 황금로 ' +
  '백운로 청운로 자운로 동산로 서산로 남산로 봉화로 봉수로 성곽로 관문로 역말로 철도로 공항로 항만로 해안로 ' +
  '포구로 들말로 샘터로 우물로 방죽로 논골로 밤골로 감나무로 대추로 배나무로 복숭아로 참나무로 상록로 신흥로 ' +
  '신천로 대림로 송림로 송정로 도원로 월평로 명륜로 화정로 용두로 용마로 봉황로 학산로 금강로 만경로 덕진로 ' +
  '경수대로 경인로 동서대로 남북로 순환로 외곽순환로 시민공원로 예술회관로 종합운동장로 산단로'
).split(' ');

/** Real 법정동 stems reused as synthetic 동 names (any 시/군/구 may get any of them). */
const DONG_STEMS = (
  '중앙 신흥 평화 남산 대명 본 신촌 동산 서산 남문 북문 명륜 화정 도원 신월 월평 송림 대흥 신정 성내 구암 신평 ' +
  '송정 용두 용산 학산 금호 옥수 신당 황학 봉천 신림 상도 흑석 대방 노량진 당산 문래 양평 신길 대림 구로 가리봉 ' +
  '독산 시흥 광명 철산 하안 소하 범박 괴안 역곡 상동 중동 송내 부개 삼산 갈산 효성 계산 작전 서운 임학 용종 ' +
  '박촌 동양 귤현 방축 병방 다남 목상 선주지 이화 장기 둔산 탄방 월평 만년 궁 죽 반석 지족 노은 봉명 구성'
).split(' ');
const MYEON_STEMS = '동 서 남 북 상북 하남 내 외 산내 청운 금사 월곡 송산 오산 대산 신북 용문 옥천'.split(' ');
const RI_STEMS = '중 신 상 하 내 외 송정 대곡 월곡 신촌 용암 금곡 도곡 덕산 석교 오리 장평 구정 신대 마산'.split(' ');
const NAME_STEMS = '한빛 대한 동양 삼우 태영 우성 한신 성원 금강 동아 신화 제일 중앙 세진 영진 대성 한솔 미래 청솔 두레'.split(' ');
// Multi-unit words first: missingUnit keys off them (match.ts); the rest name single-occupant buildings.
const NAME_KINDS = '빌딩 타워 센터 프라자 오피스텔 아파트 상가 우체국 초등학교 교회 의원 회관'.split(' ');

/** Postal code prefixes (first two digits, inclusive) per 시/도, as the 기초구역번호 are laid out. */
const ZIP_PREFIX: Readonly<Record<string, readonly [number, number]>> = {
  서울특별시: [1, 9], 부산광역시: [46, 49], 대구광역시: [41, 43], 인천광역시: [21, 23], 광주광역시: [61, 62],
  대전광역시: [34, 35], 울산광역시: [44, 45], 세종특별자치시: [30, 30], 경기도: [10, 18], 강원특별자치도: [24, 26],
  충청북도: [27, 29], 충청남도: [31, 33], 전북특별자치도: [54, 56], 전라남도: [57, 59], 경상북도: [36, 40],
  경상남도: [50, 53], 제주특별자치도: [63, 63],
};

/** Well-known roads, only where they really are: "road: 시도|시군구|동, …". */
const ANCHORED_ROADS: Readonly<Record<string, string>> = {
  테헤란로: '서울특별시|강남구|역삼동',
  세종대로: '서울특별시|중구|태평로1가, 서울특별시|종로구|세종로',
  강남대로: '서울특별시|강남구|역삼동, 서울특별시|서초구|서초동',
  도산대로: '서울특별시|강남구|신사동',
  올림픽로: '서울특별시|송파구|잠실동',
  을지로: '서울특별시|중구|을지로2가',
  종로: '서울특별시|종로구|종로2가',
  여의대로: '서울특별시|영등포구|여의도동',
  판교역로: '경기도|성남시 분당구|삼평동',
  센텀중앙로: '부산광역시|해운대구|우동',
  해운대로: '부산광역시|해운대구|우동',
  한누리대로: '세종특별자치시||보람동',
};

export interface SandboxFixture {
  entry: Omit<DirectoryEntry, 'buildingId' | 'roadAddress'>;
  note: string;
}

const fx = (
  sido: string, sigungu: string, eupmyeondong: string, ri: string, roadName: string, number: string, jibun: string,
  zipcode: string, buildingName: string, note: string,
): SandboxFixture => {
  const [, under, main, sub] = /^(지하 )?(\d+)(?:-(\d+))?$/.exec(number)!;
  const [, mountain, jMain, jSub] = /^(산)?(\d+)(?:-(\d+))?$/.exec(jibun)!;
  return {
    entry: {
      zipcode, sido, sigungu, eupmyeondong, ri, roadName, underground: under !== undefined,
      buildingMain: Number(main), buildingSub: Number(sub ?? 0), jibunMountain: mountain !== undefined,
      jibunMain: Number(jMain), jibunSub: Number(jSub ?? 0), buildingName,
    },
    note,
  };
};

/** Always present, exactly as listed (SANDBOX.md); they override generated buildings in their place. */
export const SANDBOX_FIXTURES: readonly SandboxFixture[] = [
  fx('서울특별시', '강남구', '역삼동', '', '테헤란로', '152', '737', '06236', '강남파이낸스센터', 'real address'),
  fx('서울특별시', '중구', '태평로1가', '', '세종대로', '110', '31', '04524', '서울특별시청', 'real address'),
  fx('경기도', '성남시 분당구', '삼평동', '', '판교역로', '235', '681', '13494', '에이치스퀘어 N동', 'real address'),
  fx('부산광역시', '해운대구', '우동', '', '센텀중앙로', '79', '1470', '48058', '센텀사이언스파크', 'real road address; lot synthetic'),
  fx('세종특별자치시', '', '보람동', '', '한누리대로', '2130', '716', '30151', '세종특별자치시청', 'real road address; lot synthetic'),
  fx('서울특별시', '강남구', '역삼동', '', '강남대로', '지하 396', '858', '06232', '강남역', 'underground; synthetic'),
  fx('서울특별시', '중구', '태평로1가', '', '세종대로', '110-2', '31-2', '04524', '', 'sub number beside 세종대로 110; synthetic'),
  fx('경기도', '수원시 팔달구', '인계동', '', '중앙로', '12', '1001', '16489', '인계타워', 'same road and number as the next; synthetic'),
  fx('경기도', '안산시 단원구', '고잔동', '', '중앙로', '12', '501', '15360', '', 'same road and number as the previous; synthetic'),
  fx('경기도', '양평군', '양평읍', '양근리', '양근로', '12', '123-4', '12554', '', '읍 and 리; synthetic'),
];

export interface SandboxWorld {
  entries: readonly DirectoryEntry[];
  /** by road name, across the country */
  byRoad: ReadonlyMap<string, readonly DirectoryEntry[]>;
  /** by `시도|시군구|road` */
  bySigunguRoad: ReadonlyMap<string, readonly DirectoryEntry[]>;
  /** by 동 (or 리), then lotNumber(산, 본번, 부번), across the country */
  byJibun: ReadonlyMap<string, ReadonlyMap<number, readonly DirectoryEntry[]>>;
  roadNames: readonly string[];
}

export const sigunguRoadKey = (sido: string, sigungu: string, road: string): string => `${sido}|${sigungu}|${road}`;
export const lotNumber = (mountain: boolean, main: number, sub: number): number => (mountain ? 1e9 : 0) + main * 1e4 + sub;

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** `count` distinct items of `list`, the same for the same seed. */
function choose(list: readonly string[], count: number, seed: string): string[] {
  return [...new Set(list)].map((x) => [fnv(`${seed}|${x}`), x] as const).toSorted((a, b) => a[0] - b[0]).slice(0, count).map(([, x]) => x);
}


interface Place {
  sido: string;
  sigungu: string;
  index: number;
  zipFrom: number;
  zipSpan: number;
}

function placesOf(): Place[] {
  const places: Place[] = [];
  for (const { name: sido, sigungu } of SIDOS) {
    const [lo, hi] = ZIP_PREFIX[sido]!;
    const names = sigungu.length > 0 ? sigungu : [''];
    const span = ((hi - lo + 1) * 1000) / names.length;
    names.forEach((s, i) => places.push({ sido, sigungu: s, index: places.length, zipFrom: lo * 1000 + Math.floor(i * span), zipSpan: Math.max(1, Math.floor(span)) }));
  }
  return places;
}

/** murmur3's finaliser over two integers: per-building draws without hashing strings (keeps the build fast). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function build(): SandboxWorld {
  const entries: DirectoryEntry[] = [];
  const places = placesOf();
  const anchored = new Map<string, Array<[road: string, dong: string]>>();
  for (const [road, spots] of Object.entries(ANCHORED_ROADS)) {
    for (const spot of spots.split(', ')) {
      const [sido, sigungu, dong] = spot.split('|') as [string, string, string];
      anchored.set(`${sido}|${sigungu}`, [...(anchored.get(`${sido}|${sigungu}`) ?? []), [road, dong]]);
    }
  }
  const fixturePlaces = new Set(SANDBOX_FIXTURES.map(({ entry: f }) => `${f.sido}|${f.sigungu}`));
  const fixtures = new Set(SANDBOX_FIXTURES.map(({ entry: f }) => `${f.sido}|${f.sigungu}|${f.roadName}|${f.underground}|${f.buildingMain}|${f.buildingSub}`));
  const fixtureLots = new Set(SANDBOX_FIXTURES.map(({ entry: f }) => `${f.sido}|${f.sigungu}|${f.ri || f.eupmyeondong}|${f.jibunMain}`));
  // Not the 25-digit 건물관리번호: "SBX" + place + serial, unmistakably synthetic and stable run to run.
  let serial = 0;
  const idOf = (place: number): string => `SBX${place * 1_000_000 + ++serial}`;

  for (const p of places) {
    const seed = `${p.sido}|${p.sigungu}`;
    const h = fnv(seed);
    const isGun = p.sigungu.endsWith('군');
    const hasFixtures = fixturePlaces.has(seed);
    const roads: Array<[string, string]> = [...(anchored.get(seed) ?? [])];
    const dongs = isGun
      ? [`${p.sigungu.slice(0, -1)}읍`, ...choose(MYEON_STEMS, 4 + (h % 3), seed).map((m) => `${m}면`)]
      : choose(DONG_STEMS, 6 + (h % 6), seed).map((d) => `${d}동`);
    const ris = isGun ? choose(RI_STEMS, 8, seed).map((r) => `${r}리`) : [''];
    choose(COMMON_ROADS, 12 + (h % 7), seed).forEach((road, k) => roads.push([road, dongs[k % dongs.length]!]));
    const lots = new Map<string, number>();
    const zips = new Map<number, string>();
    // one postal area per 40 building numbers of a road (and its branches), as 기초구역 follow streets
    const zipOf = (zr: number, main: number): string => {
      const key = zr * 64 + Math.floor(main / 40);
      let zip = zips.get(key);
      if (zip === undefined) zips.set(key, (zip = pad(p.zipFrom + (mix(zr, Math.floor(main / 40)) % p.zipSpan), 5)));
      return zip;
    };

    const add = (road: string, dong: string, ri: string, r: number, zr: number, main: number, sub: number, underground: boolean): void => {
      const lotDong = ri || dong;
      const g = mix(r, main * 16 + sub);
      let lot = (lots.get(lotDong) ?? 100 + (mix(h, lots.size) % 400)) + 1 + (g % 7);
      if (hasFixtures) {
        while (fixtureLots.has(`${seed}|${lotDong}|${lot}`)) lot++;
        if (fixtures.has(`${seed}|${road}|${underground}|${main}|${sub}`)) return;
      }
      lots.set(lotDong, lot);
      const e: DirectoryEntry = {
        buildingId: idOf(p.index), zipcode: zipOf(zr, main), sido: p.sido, sigungu: p.sigungu,
        eupmyeondong: dong, ri, roadName: road, underground, buildingMain: main, buildingSub: sub,
        jibunMountain: false, jibunMain: lot, jibunSub: g % 10 === 0 ? 1 + ((g >>> 4) % 4) : 0,
        buildingName: g % 100 < 15 ? NAME_STEMS[(g >>> 8) % NAME_STEMS.length]! + NAME_KINDS[(g >>> 16) % NAME_KINDS.length]! : '',
        roadAddress: '',
      };
      e.roadAddress = roadAddressOf(e);
      entries.push(e);
    };

    roads.forEach(([road, dong], k) => {
      const r = fnv(`${seed}|${road}`);
      const ri = ris[k % ris.length]!;
      let main = 1 + (r % 20);
      const count = 8 + (r % 7);
      for (let b = 0; b < count; b++) {
        const g = mix(r, 1000 + b);
        add(road, dong, ri, r, r, main, 0, road.endsWith('대로') && g % 100 === 0);
        if (g % 10 === 1) add(road, dong, ri, r, r, main, 1 + ((g >>> 8) % 3), false);
        main += 2 + 2 * ((g >>> 4) % 5);
      }
      // branch roads: 서울 numbers them 길, most other places 번길; they share the main road's postal areas
      const seoul = p.sido === '서울특별시';
      for (let n = 0; n < r % 3; n++) {
        const branch = `${road}${2 * (n + 1) + (r % 7) * 2 + (seoul ? 1 : 0)}${seoul ? '길' : '번길'}`;
        const len = 3 + ((r >>> (4 + n)) % 4);
        const br = mix(r, 2000 + n);
        for (let b = 0; b < len; b++) add(branch, dong, ri, br, r, 3 + b * 4, 0, false);
      }
    });
  }
  for (const { entry } of SANDBOX_FIXTURES) {
    const p = places.find((x) => x.sido === entry.sido && x.sigungu === entry.sigungu)!;
    entries.push({ buildingId: idOf(p.index), ...entry, roadAddress: roadAddressOf(entry) });
  }
  return index(entries);
}

function index(entries: DirectoryEntry[]): SandboxWorld {
  const byRoad = new Map<string, DirectoryEntry[]>();
  const bySigunguRoad = new Map<string, DirectoryEntry[]>();
  const byJibun = new Map<string, Map<number, DirectoryEntry[]>>();
  // Buildings come road by road, so the string keys are made once per run, not once per building.
  let run: DirectoryEntry | undefined;
  let roadList: DirectoryEntry[] = [];
  let placeList: DirectoryEntry[] = [];
  for (const e of entries) {
    if (run === undefined || e.roadName !== run.roadName || e.sigungu !== run.sigungu || e.sido !== run.sido) {
      run = e;
      roadList = byRoad.get(e.roadName) ?? [];
      byRoad.set(e.roadName, roadList);
      const key = sigunguRoadKey(e.sido, e.sigungu, e.roadName);
      placeList = bySigunguRoad.get(key) ?? [];
      bySigunguRoad.set(key, placeList);
    }
    roadList.push(e);
    placeList.push(e);
    const dong = e.ri || e.eupmyeondong;
    let lots = byJibun.get(dong);
    if (!lots) byJibun.set(dong, (lots = new Map()));
    const lot = lotNumber(e.jibunMountain, e.jibunMain, e.jibunSub);
    const onLot = lots.get(lot);
    if (onLot) onLot.push(e);
    else lots.set(lot, [e]);
  }
  return { entries, byRoad, bySigunguRoad, byJibun, roadNames: [...byRoad.keys()] };
}

let world: SandboxWorld | undefined;

/** The sandbox world, built on first use (~0.1 s) and kept for the life of the process. */
export function sandboxWorld(): SandboxWorld {
  world ??= build();
  return world;
}
