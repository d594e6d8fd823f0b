// Generates 주소DB-style lines (24 '|'-separated columns, CP949) for tests and import benchmarks.
// Deterministic for a seed, and streamed to disk, so a million-line file costs no more memory
// than a ten-line one.

import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { seededRandom } from '../domain/seeded-random.ts';
import { SIDOS } from '../domain/address/regions.ts';

/** Columns the DirectoryEntry does not carry; the generator makes plausible ones up. */
export interface LineExtras {
  legalDongCode?: string;
  roadCode?: string;
  adminDongCode?: string;
  adminDongName?: string;
  effectiveDate?: string;
  apartment?: boolean;
  /** 건축물대장건물명; 시군구용건물명 is the entry's buildingName */
  registerBuildingName?: string;
  /** 이전도로명주소: the road address before a renaming */
  formerRoadAddress?: string;
  /** 이동사유코드 (31 신규, 34 변경, 63 폐지 …) */
  changeCode?: string;
}

/** One line in the file layout (the inverse of parseAddressDbLine). */
export function addressDbLine(e: DirectoryEntry, x: LineExtras = {}): string {
  return [
    e.buildingId, x.legalDongCode ?? e.buildingId.slice(0, 10), e.sido, e.sigungu, e.eupmyeondong, e.ri,
    e.jibunMountain ? '1' : '0', String(e.jibunMain), String(e.jibunSub), x.roadCode ?? '116803122010', e.roadName,
    e.underground ? '1' : '0', String(e.buildingMain), String(e.buildingSub), x.adminDongCode ?? e.buildingId.slice(0, 10),
    x.adminDongName ?? e.eupmyeondong, e.zipcode, x.formerRoadAddress ?? '', x.effectiveDate ?? '20240101', (x.apartment ?? e.apartment) ? '1' : '0',
    x.changeCode ?? '', x.registerBuildingName ?? e.registerName ?? e.buildingName, e.buildingName, '',
  ].join('|');
}

/** A related-lot line (jibun_rnaddrkor_*.txt, a change file's _LNBR): the lot `lot` of building `e`. */
export function relatedLotLine(e: DirectoryEntry, lot: { eupmyeondong?: string; ri?: string; mountain?: boolean; main: number; sub?: number }, changeCode = '31'): string {
  return [
    e.buildingId, e.buildingId.slice(0, 10), e.sido, e.sigungu, lot.eupmyeondong ?? e.eupmyeondong, lot.ri ?? e.ri, lot.mountain ? '1' : '0',
    String(lot.main), String(lot.sub ?? 0), '116803122010', e.underground ? '1' : '0', String(e.buildingMain), String(e.buildingSub), changeCode,
  ].join('|');
}


// 시도, its code, and some of its 시군구: urban ones have 동, the 도 have 읍/면 with 리
const AREAS: readonly { sido: string; code: string; sigungu: readonly string[]; rural: boolean }[] = [
  { sido: '서울특별시', code: '11', sigungu: ['강남구', '서초구', '종로구', '마포구', '송파구', '관악구'], rural: false },
  { sido: '부산광역시', code: '26', sigungu: ['해운대구', '부산진구', '동래구', '사하구'], rural: false },
  { sido: '인천광역시', code: '28', sigungu: ['연수구', '남동구', '부평구'], rural: false },
  { sido: '경기도', code: '41', sigungu: ['수원시 영통구', '성남시 분당구', '고양시 일산동구', '양평군', '가평군'], rural: true },
  { sido: '강원특별자치도', code: '51', sigungu: ['춘천시', '홍천군', '평창군'], rural: true },
  { sido: '전북특별자치도', code: '52', sigungu: ['전주시 완산구', '완주군'], rural: true },
  { sido: '경상남도', code: '48', sigungu: ['창원시 성산구', '거제시', '함안군'], rural: true },
  { sido: '세종특별자치시', code: '36', sigungu: [''], rural: false },
];
// every 시/도 and 시/군/구 (the national scale): 도 and 군 have 읍/면 with 리
const NATIONAL: readonly { sido: string; code: string; sigungu: readonly string[]; rural: boolean }[] = SIDOS.map((s, n) => ({
  sido: s.name, code: String(11 + n), sigungu: s.sigungu.length > 0 ? s.sigungu : [''], rural: s.name.endsWith('도'),
}));
// road names at the national scale: as many syllables as real names draw on, so a 시군구's ~1,000
// roads are as far apart as real ones (the 26 above make every one-letter typo another road)
const NATIONAL_SYLLABLES = Array.from('가간갈감강개거건경계고곡공관광교구국군궁권귀규금기길나남내노녹농다단달담당대덕도독동두둔라래로룡류리마만매명모목무문미민박반방배백번범벽병보복본봉부북분비사산삼상새서석선설성세소송수순숭시신심아안암압애양어언여연영예오옥온와왕외용우운울원월위유율은을음의이인일임자작장재전정제조종주죽중지진차창천청초촌추춘충치칠탑태토통파판평포풍하학한함해행향허헌현형혜호홍화환황회효후훈흥희');
const SYLLABLES = ['가', '남', '대', '동', '명', '문', '봉', '산', '서', '성', '수', '신', '양', '연', '영', '원', '월', '장', '중', '진', '천', '청', '평', '한', '화', '흥'];
const BUILDING_WORDS = ['타워', '빌딩', '프라자', '아파트', '오피스텔', '센터', '빌라', '상가'];

export interface GenerateOptions {
  seed?: number;
  /** running number of the first entry; files of one fixture need disjoint ranges */
  firstIndex?: number;
  /** one 시도 per file, like the official files (default: any) */
  sido?: string;
  /**
   * 'road' (default) groups buildings by road as the official files do; 'random' scatters every
   * line, the worst case for index locality on import
   */
  order?: 'road' | 'random';
  /** every 시/도 and 시/군/구, and road names drawn from many syllables (national-scale benches) */
  national?: boolean;
}

/** Entries for a fixture: the same seed and options always yield the same buildings. */
export function* generateEntries(count: number, opts: GenerateOptions = {}): Generator<DirectoryEntry> {
  const random = seededRandom(opts.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const syllables = opts.national ? NATIONAL_SYLLABLES : SYLLABLES;
  const word = (n: number): string => Array.from({ length: n }, () => pick(syllables)).join('');
  const all = opts.national ? NATIONAL : AREAS;
  const areas = opts.sido === undefined ? all : all.filter((a) => a.sido === opts.sido);
  if (areas.length === 0) throw new RangeError(`no fixture area for ${opts.sido}`);
  const start = opts.firstIndex ?? 0;
  const end = start + count;
  let i = start;
  while (i < end) {
    // one road of one 동: a run of buildings with rising numbers, as a real road has
    const area = pick(areas);
    const sigunguNo = int(0, area.sigungu.length - 1);
    const rural = area.rural && random() < 0.5;
    const eupmyeondong = rural ? `${word(2)}${random() < 0.3 ? '읍' : '면'}` : `${word(2)}${random() < 0.2 ? `${int(1, 5)}가` : ''}동`;
    const ri = rural ? `${word(2)}리` : '';
    const roadName = random() < 0.4 ? `${word(2)}로${int(1, 60)}번길` : `${word(int(2, 3))}${random() < 0.7 ? '로' : '길'}`;
    const legalDongCode = `${area.code}${String(110 + sigunguNo * (opts.national ? 10 : 30)).padStart(3, '0')}${String(int(101, 399)).padStart(5, '0')}`;
    const zipcode = `${area.code.slice(0, 1)}${String(int(0, 9999)).padStart(4, '0')}`;
    const buildings = opts.order === 'random' ? 1 : int(1, 60);
    let main = int(0, 20);
    let lot = int(1, 1500);
    for (let b = 0; b < buildings && i < end; b++, i++) {
      main += int(1, 6);
      lot += int(0, 8);
      const underground = random() < 0.01;
      const buildingSub = random() < 0.7 ? 0 : int(1, 40);
      const sigungu = area.sigungu[sigunguNo] ?? '';
      yield {
        // 법정동코드 + a running number: unique across the fixture, and 25 digits like the real one
        buildingId: `${legalDongCode}${String(i).padStart(15, '0')}`,
        zipcode,
        sido: area.sido,
        sigungu,
        eupmyeondong,
        ri,
        roadName,
        underground,
        buildingMain: main,
        buildingSub,
        jibunMountain: random() < 0.03,
        jibunMain: lot,
        jibunSub: random() < 0.5 ? 0 : int(1, 60),
        buildingName: random() < 0.25 ? `${word(2)}${pick(BUILDING_WORDS)}` : '',
        // the file has no such column: this is what the import derives from the others
        roadAddress: roadAddressOf({ sido: area.sido, sigungu, eupmyeondong, roadName, underground, buildingMain: main, buildingSub }),
      };
    }
  }
}

export interface FixtureOptions extends GenerateOptions {
  /** extra raw lines (malformed ones, say), written as they are after the generated ones */
  extraLines?: readonly string[];
  /** CRLF like files edited on Windows; the import must not care */
  crlf?: boolean;
}

/** Writes `count` generated lines (then any extra lines) to `file` in CP949. */
export async function writeAddressDbFixture(file: string, count: number, opts: FixtureOptions = {}): Promise<void> {
  const eol = opts.crlf ? '\r\n' : '\n';
  async function* encoded(): AsyncGenerator<Buffer> {
    let chunk: string[] = [];
    for (const e of generateEntries(count, opts)) {
      chunk.push(addressDbLine(e) + eol);
      // encoding a few thousand lines at a time keeps iconv calls few and the buffer small
      if (chunk.length >= 5_000) {
        yield iconv.encode(chunk.join(''), 'cp949');
        chunk = [];
      }
    }
    for (const line of opts.extraLines ?? []) chunk.push(line + eol);
    if (chunk.length > 0) yield iconv.encode(chunk.join(''), 'cp949');
  }
  // pipeline waits for the disk (drain) and closes the file on error too
  await pipeline(encoded(), createWriteStream(file));
}
