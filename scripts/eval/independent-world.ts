// An evaluation world written without the bounce model in view: what happens to a letter sent to
// a row of a Korean customer list, from how Korea Post returns business mail. `node
// scripts/eval-model.ts --worlds independent` runs it.
//
// The world has a map (independent-places.ts: some 80 시/군/구, ~15,000 buildings in the 도로명주소
// file layout), businesses that sit in those buildings, four customers whose lists were copied at
// different times and in different hands, and a registry the fake NTS answers. What a row's letter
// meets is decided by how the business and its premises went on after the list copied the address:
//
// - the carrier must place the letter: a number that does not exist, no number, or no 동/호 in an
//   apartment complex, an officetel or a 지식산업센터 make it 주소불명/주소불충분 — unless the carrier
//   finds the addressee anyway (a signboard, a named building, a village round where everyone is known);
// - the addressee must be there: closed or moved businesses leave premises that are re-let (the new
//   occupant or the management office returns the letter: 수취인불명/이사불명) or stand empty (ordinary
//   mail piles up, registered mail comes back 폐문부재); a sole proprietor who worked from home still
//   lives there; a restaurant sold with its name, or a business turned into a corporation, keeps
//   receiving; a shared office (비상주) forwards while the contract runs and returns everything after;
//   suspended businesses keep the premises shut; recent movers may have mail forwarded; village
//   carriers redirect local movers;
// - registered mail (the tax firm's) needs someone to sign: home-based one-person businesses are
//   often out;
// - some letters are refused (수취거절, mostly marketing) or lost for other reasons (기타).
//
// Invisible to anyone holding only the list and the registry: moves (NTS answers no address), the
// de facto closed businesses the NTS still lists as 계속 (not yet closed by 직권폐업), successors at
// the same premises, whether a home business's owner still lives there, forwarding, a shared office.

import { checkDigitOf } from '../../src/domain/bizno.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';
import type { NtsRecord } from '../../src/domain/status.ts';
import { unregisteredRecord } from '../../src/registry/sandbox.ts';
import { between, chance, GIVEN, pick, type Rand, STEMS, SURNAMES, weighted } from './independent-names.ts';
import { type Building, buildDirectory, type Kind, missingNumberOn, namesAt, SIDO_SHORT, type Sigungu, unitOf } from './independent-places.ts';

export interface Mailing {
  account: number;
  bno: string;
  name: string;
  address: string;
  truth: Record<string, string | number | boolean>;
  p: number;
  bounced: boolean;
}

/**
 * The keys of a mailing's truth that someone holding the list, the registry's answers and the
 * directory could know or work out: what the business is (entity, trade, premises, building),
 * how the address is written and damaged, what NTS answers and since when. The rest (whether it
 * moved, a closure NTS has not filed, who is at the address now, the list's age) is hidden.
 */
export const VISIBLE_TRUTH = ['nts', 'entity', 'trade', 'premise', 'kind', 'rural', 'damage', 'unitMissing', 'form', 'zip', 'closedAgo'] as const;

export interface IndependentWorld {
  name: string;
  description: string;
  /** the keys of a mailing's truth that someone holding the list, the registry and the directory could know */
  visible: readonly string[];
  accounts: string[];
  /** rnaddrkor_*.txt lines (24 columns) */
  directoryLines: string[];
  /** jibun_rnaddrkor_*.txt lines (related lots) */
  relatedLines: string[];
  records: Map<string, NtsRecord>;
  pool: Mailing[][];
  test: Mailing[][];
}

type Premise = 'home' | 'shop' | 'office' | 'officetel' | 'knowledge' | 'factory' | 'virtual';
type Entity = 'indiv' | 'exempt' | 'corp' | 'branch' | 'nonprofit';
type TradeKey =
  | 'restaurant' | 'cafe' | 'retail' | 'beauty' | 'academy' | 'clinic' | 'realestate' | 'professional' | 'online' | 'construction'
  | 'manufacturing' | 'it' | 'wholesale' | 'logistics' | 'branch' | 'lodging' | 'farm' | 'nonprofit' | 'autoservice';

interface Trade {
  names: readonly ((s: string, person: string, place: string) => string)[];
  /** names when run from home (공부방, 네일) */
  homeNames?: readonly ((s: string) => string)[];
  /** names a corporation of the trade goes by, its form in the name (세무법인 …, …영농조합법인) */
  corpNames?: readonly ((s: string) => string)[];
  entity: Partial<Record<Entity, number>>;
  /** share of 간이과세자 among individuals */
  simplified: number;
  premise: Partial<Record<Premise, number>>;
  /** yearly hazards of closing and of moving away, the chance of being 휴업 now, of a successor keeping the premises and the name */
  close: number;
  move: number;
  suspend: number;
  successor: number;
  /** a signboard or a name on the door: carriers find it without a good address */
  sign: boolean;
  /** region preference: rural areas (and 제주/강원 for lodging) */
  rural?: number;
}

const T = (f: (s: string, person: string, place: string) => string) => f;
const TRADES: Record<TradeKey, Trade> = {
  restaurant: { names: [T((s) => `${s}식당`), T((s) => `${s}갈비`), T((s) => `${s}국밥`), T((s) => `${s}반점`), T((s) => `${s}횟집`), T((s) => `원조${s}`), T((s) => `${s}분식`), T((s) => `${s}감자탕`), T((s, _, p) => `${s}치킨 ${p}점`), T((s) => `${s}한식뷔페`)], entity: { indiv: 0.93, corp: 0.07 }, simplified: 0.4, premise: { shop: 1 }, close: 0.11, move: 0.03, suspend: 0.02, successor: 0.3, sign: true },
  cafe: { names: [T((s) => `카페 ${s}`), T((s) => `${s}커피`), T((s) => `${s}베이커리`), T((s) => `${s}제과`), T((s) => `${s}카페`)], entity: { indiv: 0.95, corp: 0.05 }, simplified: 0.5, premise: { shop: 1 }, close: 0.13, move: 0.03, suspend: 0.02, successor: 0.25, sign: true },
  retail: { names: [T((s) => `${s}마트`), T((s) => `${s}슈퍼`), T((s) => `${s}철물`), T((s) => `${s}플라워`), T((s) => `${s}안경원`), T((s) => `${s}텔레콤`), T((s) => `${s}문구`), T((s) => `${s}정육점`)], entity: { indiv: 0.92, corp: 0.08 }, simplified: 0.45, premise: { shop: 1 }, close: 0.08, move: 0.04, suspend: 0.015, successor: 0.25, sign: true },
  beauty: { names: [T((s) => `헤어${s}`), T((s) => `${s}헤어`), T((s) => `${s}미용실`), T((s) => `${s}네일`), T((s) => `${s}피부관리실`)], homeNames: [(s) => `${s}네일`, (s) => `${s}피부관리실`, (s) => `헤어${s}`], entity: { indiv: 0.97, corp: 0.03 }, simplified: 0.55, premise: { shop: 0.85, home: 0.15 }, close: 0.1, move: 0.06, suspend: 0.02, successor: 0.2, sign: true },
  academy: { names: [T((s) => `${s}수학학원`), T((s) => `${s}영어학원`), T((s) => `${s}피아노학원`), T((s) => `${s}태권도`), T((s) => `${s}공부방`), T((s) => `${s}교습소`)], homeNames: [(s) => `${s}공부방`, (s) => `${s}교습소`, (s) => `${s}과외교습소`, (s) => `${s}피아노교습소`], entity: { exempt: 0.92, corp: 0.08 }, simplified: 0, premise: { shop: 0.75, home: 0.25 }, close: 0.09, move: 0.07, suspend: 0.02, successor: 0.15, sign: true },
  clinic: { names: [T((s) => `${s}한의원`), T((s) => `${s}치과의원`), T((_, p) => `${p.slice(0, 1)}내과의원`), T((_, p) => `${p}정형외과의원`), T((s) => `${s}소아청소년과의원`), T((s) => `${s}약국`)], entity: { exempt: 0.75, indiv: 0.25 }, simplified: 0.05, premise: { shop: 0.85, office: 0.15 }, close: 0.04, move: 0.06, suspend: 0.01, successor: 0.35, sign: true },
  realestate: { names: [T((s) => `${s}공인중개사사무소`), T((s) => `${s}부동산`), T((s) => `${s}공인중개사`)], entity: { indiv: 0.95, corp: 0.05 }, simplified: 0.5, premise: { shop: 1 }, close: 0.09, move: 0.06, suspend: 0.02, successor: 0.2, sign: true },
  professional: { names: [T((_, p) => `${p}세무회계`), T((s) => `${s}세무회계사무소`), T((_, p) => `${p}법무사사무소`), T((s) => `${s}건축사사무소`), T((s) => `${s}노무법인`), T((s) => `${s}특허사무소`)], corpNames: [(s) => `세무법인 ${s}`, (s) => `법무법인 ${s}`, (s) => `${s}노무법인`, (s) => `종합건축사사무소 ${s}`, (s) => `${s}회계법인`], entity: { indiv: 0.7, corp: 0.3 }, simplified: 0.05, premise: { office: 0.9, officetel: 0.1 }, close: 0.03, move: 0.08, suspend: 0.005, successor: 0.1, sign: true },
  online: { names: [T((s) => `${s}몰`), T((s) => `${s}샵`), T((s) => `${s}스토어`), T((s) => `${s}컴퍼니`), T((s) => `스튜디오 ${s}`), T((s) => `${s}디자인`), T((s) => `${s}마켓`)], entity: { indiv: 0.9, corp: 0.1 }, simplified: 0.6, premise: { home: 0.65, officetel: 0.2, virtual: 0.15 }, close: 0.15, move: 0.12, suspend: 0.03, successor: 0, sign: false },
  construction: { names: [T((s) => `${s}건설`), T((s) => `${s}종합건설`), T((s) => `${s}인테리어`), T((s) => `${s}설비`), T((s) => `${s}전기`), T((s) => `${s}토건`), T((s) => `${s}산업개발`)], entity: { indiv: 0.45, corp: 0.55 }, simplified: 0.2, premise: { office: 0.45, officetel: 0.15, virtual: 0.15, home: 0.15, shop: 0.1 }, close: 0.08, move: 0.11, suspend: 0.05, successor: 0, sign: false },
  manufacturing: { names: [T((s) => `${s}정밀`), T((s) => `${s}기계`), T((s) => `${s}금속`), T((s) => `${s}테크`), T((s) => `${s}산업`), T((s) => `${s}화학`), T((s) => `${s}전자`), T((s) => `${s}플라스틱`), T((s) => `${s}섬유`), T((s) => `${s}인쇄`)], entity: { indiv: 0.38, corp: 0.6, branch: 0.02 }, simplified: 0.05, premise: { factory: 0.55, knowledge: 0.35, shop: 0.1 }, close: 0.05, move: 0.07, suspend: 0.015, successor: 0.05, sign: true },
  it: { names: [T((s) => `${s}소프트`), T((s) => `${s}시스템`), T((s) => `${s}랩`), T((s) => `${s}미디어`), T((s) => `${s}네트웍스`), T((s) => `${s}솔루션`), T((s) => `${s}정보통신`)], entity: { indiv: 0.25, corp: 0.73, branch: 0.02 }, simplified: 0.1, premise: { knowledge: 0.45, office: 0.25, officetel: 0.15, virtual: 0.15 }, close: 0.08, move: 0.1, suspend: 0.015, successor: 0, sign: false },
  wholesale: { names: [T((s) => `${s}유통`), T((s) => `${s}물산`), T((s) => `${s}상사`), T((s) => `${s}무역`), T((s) => `${s}식품`), T((s) => `${s}종합상사`)], entity: { indiv: 0.45, corp: 0.5, branch: 0.05 }, simplified: 0.2, premise: { factory: 0.25, shop: 0.25, office: 0.2, knowledge: 0.1, officetel: 0.1, virtual: 0.1 }, close: 0.08, move: 0.1, suspend: 0.02, successor: 0.05, sign: true },
  logistics: { names: [T((s) => `${s}물류`), T((s) => `${s}운수`), T((s) => `${s}익스프레스`), T((s) => `${s}로지스`), T((s) => `${s}화물`), T((s) => `${s}택배`)], entity: { indiv: 0.5, corp: 0.45, branch: 0.05 }, simplified: 0.3, premise: { factory: 0.45, office: 0.25, home: 0.3 }, close: 0.06, move: 0.08, suspend: 0.03, successor: 0, sign: false },
  branch: { names: [T((s) => `${s}물류`), T((s) => `${s}산업`), T((s) => `${s}건설`), T((s) => `${s}식품`), T((s) => `${s}전자`), T((s) => `${s}보험서비스`), T((s) => `${s}렌탈`)], entity: { branch: 1 }, simplified: 0, premise: { office: 0.6, shop: 0.3, factory: 0.1 }, close: 0.07, move: 0.1, suspend: 0.005, successor: 0, sign: true },
  lodging: { names: [T((s) => `${s}펜션`), T((s) => `${s}민박`), T((s) => `${s}모텔`), T((s) => `${s}게스트하우스`), T((s) => `${s}캠핑장`)], entity: { indiv: 0.9, corp: 0.1 }, simplified: 0.5, premise: { shop: 1 }, close: 0.06, move: 0.02, suspend: 0.07, successor: 0.3, sign: true, rural: 8 },
  farm: { names: [T((s) => `${s}농원`), T((s) => `${s}축산`), T((s) => `${s}농장`), T((s) => `${s}수산`), T((s) => `${s}과수원`)], corpNames: [(s) => `${s}영농조합법인`, (s) => `농업회사법인 ${s}`, (s) => `${s}영어조합법인`], entity: { exempt: 0.6, corp: 0.2, indiv: 0.2 }, simplified: 0.3, premise: { home: 0.5, factory: 0.5 }, close: 0.03, move: 0.02, suspend: 0.02, successor: 0.1, sign: false, rural: 10 },
  nonprofit: { names: [T((s) => `${s}교회`), T((s) => `${s}협회`), T((s) => `${s}협동조합`), T((s) => `${s}복지센터`), T((s) => `${s}연합회`)], entity: { nonprofit: 1 }, simplified: 0, premise: { office: 0.5, shop: 0.3, home: 0.2 }, close: 0.015, move: 0.05, suspend: 0.003, successor: 0, sign: true },
  autoservice: { names: [T((s) => `${s}카센터`), T((s) => `${s}자동차공업사`), T((s) => `${s}세탁소`), T((s) => `${s}PC방`), T((s) => `${s}노래연습장`), T((s) => `${s}세차장`)], entity: { indiv: 0.95, corp: 0.05 }, simplified: 0.45, premise: { shop: 0.85, factory: 0.15 }, close: 0.09, move: 0.04, suspend: 0.02, successor: 0.25, sign: true },
};

/** Where each premise is found: building kinds and their weights. */
const PREMISE_KINDS: Record<Exclude<Premise, 'virtual'>, Partial<Record<Kind, number>>> = {
  home: { apt: 0.5, villa: 0.28, house: 0.22 },
  shop: { shopbldg: 0.62, plaza: 0.28, house: 0.05, tower: 0.05 },
  office: { tower: 0.32, shopbldg: 0.38, knowledge: 0.1, plaza: 0.1, officetel: 0.1 },
  officetel: { officetel: 1 },
  knowledge: { knowledge: 1 },
  factory: { factory: 0.9, house: 0.1 },
};

type Style = 'official' | 'casual';
interface Account {
  label: string;
  about: string;
  mail: 'ordinary' | 'registered';
  trades: Partial<Record<TradeKey, number>>;
  region: (s: Sigungu) => number;
  /** years since the row's address was copied */
  age: (r: Rand) => number;
  /** mean years by which the way the address is written lags behind the time it was last true (an old letterhead) */
  habitLag: number;
  /** share of moves the list owner hears of and writes down (they then do not count) */
  movesHeard: (age: number) => number;
  style: Style;
  unitKept: number;
  nameShown: number;
  zip: number;
  sidoShort: number;
  damage: { wrong: number; none: number; nameOnly: number; typo: number; dong: number };
  bnoTypo: number;
  hyphen: number;
  refuse: number;
  neverThere: number;
  corpMark: Partial<Record<'paren' | 'suffix' | 'word' | 'circle' | 'none', number>>;
}

const sidoGroup = (s: Sigungu): string => s.sido.slice(0, 2);
const ACCOUNTS: readonly Account[] = [
  {
    label: 'wholesaler',
    about: 'a food-ingredients and packaging wholesaler (수도권 and 충청) mailing statements to its own customer file: current customers updated on every order, lapsed ones as last written',
    mail: 'ordinary',
    trades: { restaurant: 0.26, cafe: 0.12, retail: 0.12, manufacturing: 0.1, wholesale: 0.14, branch: 0.04, professional: 0.03, clinic: 0.03, academy: 0.02, autoservice: 0.03, logistics: 0.05, construction: 0.03, lodging: 0.03 },
    region: (s) => ({ 서울: 1, 경기: 1.4, 인천: 1, 충청: 1.2, 대전: 1.2, 세종: 1.2, 강원: 0.3 } as Record<string, number>)[sidoGroup(s)] ?? 0.1,
    age: (r) => (chance(r, 0.8) ? r() : 1 + r() * 5),
    habitLag: 1.5,
    movesHeard: (age) => (age < 1 ? 0.7 : 0.2),
    style: 'casual', unitKept: 0.85, nameShown: 0.35, zip: 0.3, sidoShort: 0.55,
    damage: { wrong: 0.008, none: 0.005, nameOnly: 0.005, typo: 0.015, dong: 0.005 },
    bnoTypo: 0.012, hyphen: 0.6, refuse: 0.002, neverThere: 0.005,
    corpMark: { paren: 0.5, suffix: 0.15, word: 0.15, circle: 0.15, none: 0.05 },
  },
  {
    label: 'bought list',
    about: 'a marketing list bought from a list broker 1½ years ago (entries gathered up to 2½ years before that from web directories and old letterheads), mailed by ordinary bulk mail',
    mail: 'ordinary',
    trades: { restaurant: 0.22, beauty: 0.1, academy: 0.1, realestate: 0.09, clinic: 0.08, retail: 0.12, cafe: 0.06, construction: 0.05, autoservice: 0.05, online: 0.05, professional: 0.03, lodging: 0.03, branch: 0.02 },
    region: () => 1,
    age: (r) => 1.5 + r() * 2.5,
    habitLag: 3,
    movesHeard: () => 0,
    style: 'casual', unitKept: 0.5, nameShown: 0.3, zip: 0.35, sidoShort: 0.65,
    damage: { wrong: 0.035, none: 0.03, nameOnly: 0.02, typo: 0.035, dong: 0.03 },
    bnoTypo: 0.03, hyphen: 0.3, refuse: 0.02, neverThere: 0.025,
    corpMark: { paren: 0.4, circle: 0.2, none: 0.3, word: 0.1 },
  },
  {
    label: 'industrial directory',
    about: 'an exhibition organiser\'s invitation list, copied a year ago from an industrial-complex and 지식산업센터 tenant directory whose entries go back 4 years more',
    mail: 'ordinary',
    trades: { manufacturing: 0.36, it: 0.18, wholesale: 0.14, logistics: 0.06, construction: 0.08, branch: 0.08, professional: 0.04, online: 0.02, nonprofit: 0.02, farm: 0.02 },
    region: (s) => ({ industrial: 3, core: 1, residential: 0.35, mixed: 1, rural: 1.2 })[s.profile],
    age: (r) => 1 + r() ** 1.5 * 4,
    habitLag: 3.5,
    movesHeard: () => 0,
    style: 'casual', unitKept: 0.55, nameShown: 0.5, zip: 0.45, sidoShort: 0.5,
    damage: { wrong: 0.03, none: 0.025, nameOnly: 0.03, typo: 0.03, dong: 0.025 },
    bnoTypo: 0.025, hyphen: 0.8, refuse: 0.006, neverThere: 0.02,
    corpMark: { paren: 0.45, word: 0.25, suffix: 0.15, circle: 0.1, none: 0.05 },
  },
  {
    label: 'tax firm',
    about: 'a tax-accounting firm in 수원 sending notices by registered mail (등기) to its bookkeeping clients, current and lapsed, at the addresses it files with the NTS',
    mail: 'registered',
    trades: { restaurant: 0.18, retail: 0.1, online: 0.16, construction: 0.12, professional: 0.03, beauty: 0.06, academy: 0.06, realestate: 0.05, wholesale: 0.08, it: 0.06, manufacturing: 0.05, cafe: 0.05 },
    region: (s) => ({ '수원시 영통구': 25, '수원시 팔달구': 15, '용인시 기흥구': 10, 화성시: 10, '용인시 수지구': 6, '성남시 분당구': 4 } as Record<string, number>)[s.name]
      ?? (s.sido === '경기도' ? 0.5 : s.sido === '서울특별시' ? 0.4 : 0.08),
    age: (r) => (chance(r, 0.9) ? r() : 1 + r() * 4),
    habitLag: 0.3,
    movesHeard: (age) => (age < 1 ? 0.9 : 0.3),
    style: 'official', unitKept: 0.97, nameShown: 0.7, zip: 0.8, sidoShort: 0.1,
    damage: { wrong: 0.004, none: 0.002, nameOnly: 0, typo: 0.005, dong: 0.003 },
    bnoTypo: 0.004, hyphen: 0.9, refuse: 0.004, neverThere: 0.002,
    corpMark: { word: 0.5, paren: 0.35, suffix: 0.1, circle: 0.05 },
  },
];

const ROWS = { pool: 2_500, test: 1_500 };

// ---------------------------------------------------------------------------------------------
// businesses and their numbers

const ENTITY_CODE: Record<Entity, (r: Rand) => number> = {
  indiv: (r) => between(r, 1, 79),
  exempt: (r) => between(r, 90, 99),
  corp: (r) => pick(r, [81, 81, 81, 81, 86, 86, 87, 88]),
  branch: () => 85,
  nonprofit: (r) => pick(r, [82, 82, 89]),
};

function newNumber(r: Rand, taken: Set<string>, office: string, e: Entity): string {
  for (;;) {
    const nine = `${office}${String(ENTITY_CODE[e](r)).padStart(2, '0')}${String(between(r, 0, 9999)).padStart(4, '0')}`;
    const bno = `${nine}${checkDigitOf(nine)}`;
    if (!taken.has(bno)) { taken.add(bno); return bno; }
  }
}

/** The number as the list wrote it: two adjacent digits swapped, or one digit wrong. */
function mistype(r: Rand, bno: string): string {
  for (let t = 0; t < 20; t++) {
    const i = between(r, 0, 8);
    let out: string;
    if (chance(r, 0.75)) {
      if (bno[i] === bno[i + 1]) continue;
      out = bno.slice(0, i) + bno[i + 1]! + bno[i]! + bno.slice(i + 2);
    } else {
      out = bno.slice(0, i) + String((Number(bno[i]) + between(r, 1, 9)) % 10) + bno.slice(i + 1);
    }
    if (out !== bno) return out;
  }
  return `${bno.slice(0, 9)}${(Number(bno[9]) + 1) % 10}`;
}

const ymd = (year: number): string => {
  const d = new Date(Date.UTC(Math.floor(year), 0, 1) + (year % 1) * 365.25 * 86_400_000);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
};

function ntsRecord(r: Rand, bno: string, e: Entity, simplified: boolean, code: '01' | '02' | '03', endYear: number | null): NtsRecord {
  const [taxType, taxCd] = e === 'exempt' ? ['부가가치세 면세사업자', '04']
    : e === 'nonprofit' ? (chance(r, 0.7) ? ['수익사업을 영위하지 않는 비영리법인이거나 고유번호가 부여된 단체,국가기관 등', '05'] : ['부가가치세 일반과세자', '01'])
    : simplified ? (chance(r, 0.25) ? ['부가가치세 간이과세자(세금계산서 발급사업자)', '07'] : ['부가가치세 간이과세자', '02'])
    : ['부가가치세 일반과세자', '01'];
  return {
    b_no: bno, b_stt: code === '01' ? '계속사업자' : code === '02' ? '휴업자' : '폐업자', b_stt_cd: code, tax_type: taxType, tax_type_cd: taxCd,
    end_dt: code === '03' && endYear !== null ? ymd(endYear) : '', utcc_yn: 'N',
    tax_type_change_dt: chance(r, 0.08) ? ymd(2016 + r() * 8) : '', invoice_apply_dt: taxCd === '07' ? '20210701' : '',
    rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
  };
}

function businessName(r: Rand, acc: Account, trade: TradeKey, e: Entity, place: string, office: string, home: boolean): string {
  const t = TRADES[trade];
  const person = `${pick(r, SURNAMES)}${pick(r, GIVEN)}`;
  const stem = chance(r, 0.12) ? place : pick(r, STEMS);
  if (e === 'corp' && t.corpNames) return pick(r, t.corpNames)(stem);
  let base = home && t.homeNames ? pick(r, t.homeNames)(stem) : pick(r, t.names)(stem, person, place);
  if ((e === 'corp' || e === 'branch') && chance(r, 0.03)) {
    // a renamed company that the list keeps both names of
    const old = `${pick(r, STEMS)}${pick(r, ['산업', '전자', '상사', '테크'])}`;
    base = pick(r, [`${base}(구 ${old})`, `${base}(구.${old})`, `${base} (구)${old}`]);
  }
  if (e === 'nonprofit') return /협회|연합회/.test(base) ? pick(r, [`(사)${base}`, `사단법인 ${base}`, base]) : base;
  if (e === 'corp' || e === 'branch') {
    const mark = weighted(r, acc.corpMark);
    let name = chance(r, 0.08)
      ? (mark === 'word' ? `유한회사 ${base}` : `(유)${base}`)
      : mark === 'paren' ? `(주)${base}` : mark === 'suffix' ? `${base}(주)` : mark === 'word' ? (chance(r, 0.8) ? `주식회사 ${base}` : `${base} 주식회사`) : mark === 'circle' ? `㈜${base}` : base;
    if (e === 'branch') name = `${name} ${office}${pick(r, ['지점', '영업소', '지사', '사업소', '센터', '지점'])}`;
    return name;
  }
  // the tax firm writes the owner too
  return acc.style === 'official' && chance(r, 0.3) ? `${base}(${person})` : base;
}

// ---------------------------------------------------------------------------------------------
// the list's address, as the office wrote it

type Damage = 'clean' | 'unit_missing' | 'wrong_number' | 'no_number' | 'name_instead' | 'road_typo' | 'wrong_dong' | 'former_road' | 'old_sigungu' | 'demolished';

const NEEDS_UNIT: Partial<Record<Kind, number>> = { apt: 0.65, officetel: 0.5, knowledge: 0.3, tower: 0.1, plaza: 0.15, villa: 0.12, shopbldg: 0.06 };
const SIMILAR: Readonly<Record<string, string>> = { 헤: '혜', 래: '레', 외: '웨', 의: '이', 애: '에', 계: '게', 례: '레', 대: '데', 새: '세', 원: '운', 현: '연', 양: '영', 천: '전', 봉: '봄', 효: '호' };

function typo(r: Rand, word: string): string {
  // Hangul syllables are single UTF-16 units
  const chars = word.split('');
  const at = chars.map((c, i) => (SIMILAR[c] && SIMILAR[c] !== c && i < chars.length - 1 ? i : -1)).filter((i) => i >= 0);
  if (at.length > 0) {
    const i = pick(r, at);
    chars[i] = SIMILAR[chars[i]!]!;
    return chars.join('');
  }
  if (chars.length >= 4) {
    const i = between(r, 1, chars.length - 3);
    chars.splice(i, 1);
    return chars.join('');
  }
  return `${word.slice(0, -1)} ${word.slice(-1)}`;
}

interface Written {
  address: string;
  damage: Damage;
  unitMissing: boolean;
  nameShown: boolean;
  form: 'road' | 'jibun';
  oldNames: boolean;
  formerRoad: boolean;
  zip: 'none' | 'old6' | 'new5';
}

function writeAddress(r: Rand, acc: Account, b: Building, copied: number, unit: string, role: 'home' | 'shop' | 'office'): Written {
  const e = b.entry;
  const names = namesAt(b, copied);
  const oldNames = names.sido !== b.sgg.sido || names.sgg !== b.sgg.name || names.area !== b.area.name;
  // road-name addresses came in 2011 and were mandatory from 2014; lists copied before write lots
  const roadShare = copied < 2011.6 ? 0 : copied < 2014 ? 0.25 : copied < 2017 ? 0.6 : acc.style === 'official' ? 0.97 : 0.85;
  const form = chance(r, roadShare) ? 'road' : 'jibun';
  const formerRoad = form === 'road' && b.road.former !== null && copied < b.road.former.until;
  const roadName = formerRoad ? b.road.former!.name : e.roadName;
  const bname = b.formerName && copied < b.formerName.until ? b.formerName.name : e.buildingName;

  let damage: Damage = 'clean';
  const d = acc.damage;
  const u = r();
  if (b.demolished !== null) damage = 'demolished';
  else if (u < d.wrong) damage = 'wrong_number';
  else if (u < d.wrong + d.none) damage = 'no_number';
  else if (u < d.wrong + d.none + d.nameOnly) damage = bname ? 'name_instead' : 'no_number';
  else if (u < d.wrong + d.none + d.nameOnly + d.typo) damage = 'road_typo';
  else if (form === 'jibun' && u < d.wrong + d.none + d.nameOnly + d.typo + d.dong && !b.rural) damage = 'wrong_dong';

  const unitNeeded = (NEEDS_UNIT[b.kind] ?? 0) > 0 && unit !== '' && !(b.kind === 'shopbldg' && role === 'shop');
  const keepUnit = unit !== '' && chance(r, b.kind === 'apt' || b.kind === 'officetel' ? Math.min(1, acc.unitKept + 0.1) : acc.unitKept);
  const unitMissing = unitNeeded && !keepUnit;
  const nameShown = bname !== '' && (damage === 'name_instead' || chance(r, acc.nameShown));

  // 시/도 and 시/군/구 as written
  const official = acc.style === 'official' && chance(r, 0.9);
  let sido = names.sido;
  if (!official && chance(r, acc.sidoShort)) sido = pick(r, SIDO_SHORT[names.sido] ?? [names.sido]);
  if (!official && names.sgg !== '' && chance(r, 0.04)) sido = '';
  let sgg = names.sgg;
  if (!official && sgg.includes(' ') && chance(r, 0.1)) sgg = sgg.split(' ')[1]!;
  const glue = !official && chance(r, 0.04);
  const head = [sido, sgg].filter(Boolean).join(glue ? '' : ' ');

  // unit as written
  let unitText = keepUnit ? unit : '';
  if (unitText && !official) {
    const apt = /^(\d+)동 (\d+)호$/.exec(unitText);
    const u2 = r();
    if (apt && u2 < 0.3) unitText = `${apt[1]}-${apt[2]}`;
    else if (u2 < 0.1) unitText = unitText.replace(/ /g, '');
    else if (/^\d+층$/.test(unitText) && u2 < 0.2) unitText = unitText.replace('층', 'F');
    else if (unitText === '지하1층' && u2 < 0.5) unitText = 'B1';
  }

  let area = names.area;
  if (damage === 'wrong_dong') {
    const others = b.sgg.areas.filter((a) => a !== b.area && !a.rural);
    if (others.length > 0) area = pick(r, others).name;
    else damage = 'clean';
  }
  if (damage === 'road_typo' && form === 'jibun') area = chance(r, 0.5) && area.endsWith('동') ? area.replace(/동$/, `${between(r, 1, 3)}동`) : typo(r, area);

  let text: string;
  if (form === 'road') {
    let rn = damage === 'road_typo' ? typo(r, roadName) : roadName;
    if (!official && /\d+(번길|길)$/.test(rn) && chance(r, 0.08)) rn = rn.replace(/(\d+(번길|길))$/, ' $1');
    const main = damage === 'wrong_number' ? missingNumberOn(r, b) : e.buildingMain;
    const num = damage === 'no_number' || damage === 'name_instead' ? '' : `${main}${e.buildingSub && damage !== 'wrong_number' ? `-${e.buildingSub}` : ''}`;
    const withArea = b.rural && (official || chance(r, 0.6));
    const roadPart = `${withArea ? `${area} ` : ''}${rn}${num ? (chance(r, official ? 0 : 0.08) ? num : ` ${num}`) : ''}`;
    if (official) {
      const ref = [b.rural ? '' : area, b.kind === 'apt' || (nameShown && b.kind !== 'house') ? bname : ''].filter(Boolean).join(', ');
      text = `${head} ${roadPart}${unitText ? `, ${unitText}` : ''}${ref ? ` (${ref})` : ''}`;
    } else {
      const nm = nameShown ? (chance(r, 0.5) ? ` (${bname})` : ` ${bname}`) : '';
      text = `${head} ${roadPart}${unitText ? (chance(r, 0.5) ? `, ${unitText}` : ` ${unitText}`) : ''}${nm}`;
      if (nm && unitText && chance(r, 0.5)) text = `${head} ${roadPart}${nm} ${unitText}`;
    }
  } else {
    const lot = b.relatedLots.length > 0 && chance(r, 0.25) ? pick(r, b.relatedLots) : { main: e.jibunMain, sub: e.jibunSub };
    let lotMain = lot.main;
    if (damage === 'wrong_number') {
      // two digits swapped (358 → 385), or a lot that is not there
      const digits = String(lot.main);
      lotMain = digits.length >= 2 && digits.at(-1) !== digits.at(-2) && chance(r, 0.6) ? Number(digits.slice(0, -2) + digits.at(-1)! + digits.at(-2)!) : lot.main + between(r, 150, 400);
    }
    const lotText = damage === 'no_number' || damage === 'name_instead' ? ''
      : `${e.jibunMountain ? '산' : ''}${lotMain}${lot.sub ? `-${lot.sub}` : ''}${chance(r, 0.2) ? '번지' : ''}`;
    const place = [area, e.ri].filter(Boolean).join(' ');
    text = [head, place, lotText, nameShown ? bname : '', unitText].filter(Boolean).join(' ');
  }
  // the postal code: 6 digits before August 2015, 5 after
  let zip: Written['zip'] = 'none';
  if (chance(r, acc.zip)) {
    // 6-digit codes outlived their replacement on letterheads and stamps for a few years
    if (copied < 2015.6 || chance(r, Math.max(0, (2020 - copied) / 4) * 0.6)) {
      zip = 'old6';
      const z = b.area.zip6;
      text = `${pick(r, [`(${z})`, z, `[${z}]`])} ${text}`;
    } else {
      zip = 'new5';
      // now and then the code of the next area
      const z = chance(r, 0.03) ? pick(r, pick(r, b.sgg.areas).zips) : e.zipcode;
      text = official ? `(${z}) ${text}` : `${pick(r, [`(${z})`, z, `[${z}]`])} ${text}`;
    }
  }
  if (damage === 'clean' && formerRoad) damage = 'former_road';
  if (damage === 'clean' && unitMissing) damage = 'unit_missing';
  if (damage === 'clean' && oldNames) damage = 'old_sigungu';
  return { address: text.replace(/\s+/g, ' ').trim(), damage, unitMissing, nameShown, form, oldNames, formerRoad, zip };
}

// ---------------------------------------------------------------------------------------------
// the hidden process: what happens to the letter

type State =
  | 'there' | 'successor' | 'owner_home' | 'forwarded' | 'local_move' | 'shut' | 'virtual_ok' | 'virtual_gone' | 'empty' | 'relet'
  | 'never_there' | 'building_gone';

type Handling = 'home' | 'shopfront' | 'mailroom' | 'factory';
const handlingOf = (k: Kind, premise: Premise): Handling =>
  k === 'apt' || k === 'villa' || (k === 'house' && premise === 'home') ? 'home'
    : k === 'tower' || k === 'knowledge' || k === 'officetel' ? 'mailroom'
    : k === 'factory' || premise === 'factory' ? 'factory' : 'shopfront';

/** P(the addressee does not take the letter in), by what is at the address. */
function absentRisk(state: State, h: Handling, mail: Account['mail'], village: boolean, kind: Kind): number {
  const reg = mail === 'registered';
  switch (state) {
    case 'there': return reg ? ({ home: kind === 'apt' ? 0.06 : 0.1, shopfront: 0.02, mailroom: 0.015, factory: 0.01 })[h] : 0.006;
    case 'successor': return reg ? 0.2 : 0.04;
    case 'owner_home': return reg ? 0.12 : 0.03;
    case 'forwarded': return reg ? 0.08 : 0.05;
    case 'local_move': return reg ? 0.4 : 0.25;
    case 'shut': return reg ? 0.75 : ({ home: 0.05, shopfront: 0.15, mailroom: 0.25, factory: 0.2 })[h];
    case 'virtual_ok': return reg ? 0.05 : 0.03;
    case 'virtual_gone': return reg ? 0.98 : 0.92;
    case 'empty': return reg ? 0.9 : ({ home: 0.3, shopfront: 0.35, mailroom: 0.6, factory: 0.45 })[h];
    case 'relet': case 'never_there': return reg ? 0.96 : Math.min(0.92, ({ home: 0.5, shopfront: 0.6, mailroom: 0.75, factory: 0.65 })[h] + (village ? 0.15 : 0));
    case 'building_gone': return 0.95;
  }
}

/** P(the carrier cannot place the letter): 주소불명 / 주소불충분. */
function placeRisk(w: Written, b: Building, findable: boolean): number {
  let placed = 1;
  const ease = findable ? 0.55 : 1;
  if (w.unitMissing) placed *= 1 - (NEEDS_UNIT[b.kind] ?? 0) * (findable && b.kind !== 'apt' && b.kind !== 'villa' ? 0.5 : 1);
  const local = b.village ? 0.12 : b.rural ? 0.22 : null;
  if (w.damage === 'wrong_number') placed *= 1 - (w.nameShown ? 0.08 : (local ?? 0.45) * ease);
  if (w.damage === 'no_number') placed *= 1 - (w.nameShown ? 0.15 : (local ?? 0.6) * ease);
  if (w.damage === 'name_instead') placed *= 1 - (b.rural ? 0.04 : 0.08);
  if (w.damage === 'wrong_dong') placed *= 1 - 0.3 * (findable ? 0.7 : 1);
  if (w.damage === 'road_typo') placed *= 1 - 0.04;
  if (w.formerRoad) placed *= 1 - 0.05;
  if (w.oldNames) placed *= 1 - 0.01;
  if (w.form === 'jibun') placed *= 1 - 0.01;
  return 1 - placed;
}

const bucket = (x: number, edges: readonly number[], labels: readonly string[]): string => labels[edges.findIndex((e) => x < e)] ?? labels.at(-1)!;

export function buildIndependentWorld(seed: number, asOf: Date): IndependentWorld {
  const r = seededRandom(seed * 7_919 + 17);
  const now = asOf.getUTCFullYear() + (asOf.getTime() - Date.UTC(asOf.getUTCFullYear(), 0, 1)) / (365.25 * 86_400_000);
  const dir = buildDirectory(r, 15_000, now);
  const records = new Map<string, NtsRecord>();
  const taken = new Set<string>();

  // per account, building kind and preference for rural areas: buildings weighted by their room
  // for businesses (households, for homes) and by the account's regions
  const live = dir.buildings.filter((b) => b.cap > 0);
  const hosts = dir.buildings.filter((b) => b.virtualUnit !== null);
  const samplers = ACCOUNTS.map(() => new Map<string, { list: Building[]; cum: number[] }>());
  const draw = (a: number, premise: Exclude<Premise, 'virtual'>, ruralPref: number): Building => {
    const kinds = { ...PREMISE_KINDS[premise] };
    for (;;) {
      const kind = weighted(r, kinds);
      // a shop in a house is a village one
      const key = `${kind}|${ruralPref}|${premise === 'shop' && kind === 'house'}`;
      let s = samplers[a]!.get(key);
      if (!s) {
        const list: Building[] = [];
        const cum: number[] = [];
        let t = 0;
        for (const b of live) {
          if (b.kind !== kind || (premise === 'shop' && kind === 'house' && !b.rural)) continue;
          const w = b.cap * ACCOUNTS[a]!.region(b.sgg) * (b.rural ? ruralPref : 1);
          if (w <= 0) continue;
          t += w;
          list.push(b);
          cum.push(t);
        }
        s = { list, cum };
        samplers[a]!.set(key, s);
      }
      if (s.list.length === 0) {
        delete kinds[kind];
        if (Object.keys(kinds).length === 0) throw new Error(`no building for ${premise}`);
        continue;
      }
      const u = r() * s.cum.at(-1)!;
      let lo = 0;
      let hi = s.cum.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (s.cum[mid]! < u) lo = mid + 1;
        else hi = mid;
      }
      return s.list[lo]!;
    }
  };

  const accounts = ACCOUNTS.map((a) => a.label);
  const lists: Mailing[][] = ACCOUNTS.map((acc, a) => {
    const rows: Mailing[] = [];
    while (rows.length < ROWS.pool + ROWS.test) {
      const trade = weighted(r, acc.trades);
      const t = TRADES[trade];
      const age = Math.max(0.02, acc.age(r));
      const copied = now - age;
      let premise = weighted(r, t.premise);
      const entity = weighted(r, t.entity);
      if (premise === 'virtual' && hosts.length === 0) premise = 'office';
      let b: Building;
      let unit: string;
      const role: 'home' | 'shop' | 'office' = premise === 'home' ? 'home' : premise === 'shop' ? 'shop' : 'office';
      if (premise === 'virtual') {
        b = pick(r, hosts);
        unit = b.virtualUnit!;
      } else {
        b = draw(a, premise, t.rural ?? 1);
        unit = unitOf(r, b, role);
      }
      // the building must have stood when the list copied the address
      if (b.built > copied || (b.demolished !== null && b.demolished <= copied)) continue;
      if (b.demolished !== null && b.demolished > now) continue;

      // what became of the business since the address was copied
      const virtual = premise === 'virtual';
      const closeRate = t.close * (virtual ? 1.5 : premise === 'officetel' ? 1.3 : 1) * (entity === 'corp' ? 0.8 : 1);
      const moveRate = t.move * (virtual ? 2.5 : premise === 'officetel' ? 1.6 : premise === 'home' ? 1 : premise === 'factory' ? 0.6 : 1) * (1 - acc.movesHeard(age));
      const tClose = -Math.log(1 - r()) / closeRate;
      const tMove = -Math.log(1 - r()) / Math.max(1e-6, moveRate);
      let moved = tMove < Math.min(tClose, age);
      const closed = tClose < age;
      const closedAgo = closed ? age - tClose : null;
      const movedAgo = moved ? age - tMove : null;
      const demolished = b.demolished !== null;
      if (demolished && !closed) moved = true;
      const suspended = !closed && !moved && chance(r, t.suspend);
      // the registry: closures are filed (or closed by the NTS itself) — but not all, not yet
      const zombie = closed && chance(r, closedAgo! < 1 ? 0.22 : closedAgo! < 2 ? 0.1 : 0.03);
      const nts: '01' | '02' | '03' = closed && !zombie ? '03' : suspended ? '02' : '01';

      // who is at the address now
      const home = premise === 'home';
      let state: State;
      const goneAgo = Math.min(closedAgo ?? Infinity, movedAgo ?? Infinity);
      const neverThere = chance(r, acc.neverThere);
      if (demolished) state = 'building_gone';
      else if (neverThere) state = 'never_there';
      else if (virtual) state = closed || moved ? 'virtual_gone' : 'virtual_ok';
      else if (!closed && !moved) state = suspended ? (home ? 'there' : 'shut') : 'there';
      else if (moved && movedAgo! < 0.5 && chance(r, 0.35)) state = 'forwarded';
      else if (moved && b.rural && chance(r, 0.4)) state = 'local_move';
      else if (closed && !moved && home && chance(r, Math.exp(-0.1 * closedAgo!))) state = 'owner_home';
      // a shop sold with its name (양도양수), or a sole proprietor turned corporation (법인전환, 6 %): same people, same sign
      else if (closed && !moved && !home && (entity === 'indiv' || entity === 'exempt') && chance(r, t.successor + 0.06)) state = 'successor';
      else {
        const tau = { home: 0.2, shop: 0.4, office: 0.6, officetel: 0.25, knowledge: 0.5, factory: 1, virtual: 0.2 }[premise];
        state = chance(r, 1 - Math.exp(-goneAgo / tau)) ? 'relet' : 'empty';
      }

      const place = b.rural ? (b.entry.ri || b.area.name).replace(/[0-9]*[동읍면리]$/, '') : b.area.name.replace(/[0-9]*가$|[0-9]*동$/, '');
      // a branch is named for its city or district, now and then for its 동 or its 시/도
      const city = (b.sgg.name.split(' ')[0] || '세종').replace(/[시군구]$/, '');
      const office = weighted(r, { city: 0.55, dong: 0.25, sido: 0.2 });
      const officeName = office === 'city' && city.length >= 2 ? city : office === 'dong' && place.length >= 2 ? place : SIDO_SHORT[b.sgg.sido]![0]!;
      const name = businessName(r, acc, trade, entity, place.length >= 2 ? place : b.area.name, officeName, premise === 'home');
      // the way it is written can be older than the time it was last true: an old letterhead copied
      const habit = Math.max(b.built + 0.1, copied + Math.log(1 - r()) * acc.habitLag);
      const w = writeAddress(r, acc, b, habit, unit, role);
      const present = state === 'there' || state === 'successor' || state === 'owner_home' || state === 'shut' || state === 'virtual_ok';
      const h = handlingOf(b.kind, premise);
      const pPlace = placeRisk(w, b, present && t.sign);
      const pAbsent = absentRisk(state, h, acc.mail, b.village, b.kind);
      const pRefuse = present ? acc.refuse : 0;
      const pOther = 0.004;
      const p = 1 - (1 - pPlace) * (1 - pAbsent) * (1 - pRefuse) * (1 - pOther);

      // the number: registered by the business, maybe mistyped on the list
      const simplified = (entity === 'indiv') && chance(r, t.simplified);
      const bno = newNumber(r, taken, pick(r, b.sgg.taxOffices), entity);
      records.set(bno, ntsRecord(r, bno, entity, simplified, nts, closed && !zombie ? Math.min(now - 0.003, now - closedAgo! + r() * 0.15) : null));
      const typoed = chance(r, acc.bnoTypo);
      const listed = typoed ? mistype(r, bno) : bno;
      if (typoed && !records.has(listed)) records.set(listed, unregisteredRecord(listed));
      const answer = records.get(listed)!.b_stt_cd || 'unregistered';

      const cause = pPlace >= Math.max(pAbsent, 0.05) ? 'unplaceable' : pAbsent >= 0.2 ? 'not_there' : p >= 0.08 ? 'minor' : 'none';
      rows.push({
        account: a,
        bno: chance(r, acc.hyphen) ? `${listed.slice(0, 3)}-${listed.slice(3, 5)}-${listed.slice(5)}` : listed,
        name,
        address: w.address,
        truth: {
          status: closed ? 'closed' : suspended ? 'suspended' : 'active',
          nts: answer,
          zombie,
          entity,
          trade,
          premise,
          kind: b.kind,
          rural: b.village ? 'village' : b.rural ? 'town' : 'urban',
          state,
          moved,
          damage: w.damage,
          unitMissing: w.unitMissing,
          form: w.form,
          zip: w.zip,
          age: bucket(age, [1, 3, 6, 9], ['<1', '1-3', '3-6', '6-9', '9+']),
          closedAgo: closedAgo === null ? 'open' : bucket(closedAgo, [0.5, 1, 3], ['<0.5', '0.5-1', '1-3', '3+']),
          bnoTypo: typoed,
          cause,
        },
        p,
        bounced: r() < p,
      });
    }
    // the harness probes the server with the first test row's number: keep that one clean
    const first = ROWS.pool;
    const clean = rows.findIndex((m, i) => i >= first && /^\d{10}$/.test(m.bno) && !m.truth.bnoTypo);
    if (clean > first) [rows[first], rows[clean]] = [rows[clean]!, rows[first]!];
    if (clean < 0) {
      const m = rows[first]!;
      m.bno = m.bno.replace(/-/g, '');
    }
    return rows;
  });

  return {
    name: 'independent',
    visible: VISIBLE_TRUTH,
    description: 'written apart from the model: Korea Post returns (수취인불명, 이사불명, 폐문부재, 주소불명, 수취거절) of four customers\' lists in a ~15,000-building directory',
    accounts,
    directoryLines: dir.lines,
    relatedLines: dir.relatedLines,
    records,
    pool: lists.map((rows) => rows.slice(0, ROWS.pool)),
    test: lists.map((rows) => rows.slice(ROWS.pool)),
  };
}
