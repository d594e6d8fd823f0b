// A second evaluation world written apart from the bounce model: letters a customer sends to the
// businesses on its list, and what Korea Post does with them. `node scripts/eval-model.ts --worlds
// second-opinion` runs it. Written from how business mail is delivered and returned, not from the
// model (whose files this one never looked at); it shares only the map generator with the first
// independent world (independent-places.ts), on its own seed stream.
//
// Each row is a business on a customer's list, with the address the list holds: right at the time
// it was copied (`listAge` years ago, hidden), written the way that list writes addresses. From
// then to today the business lives on: it closes (a hazard by trade, higher for young businesses,
// lower in the country), moves (shops seldom, home-based sellers and branch offices often), is
// suspended, is sold as a going concern under the same 상호, turns into a corporation at the same
// premises, or (a branch) is closed on paper when its company converts to 사업자단위과세. A building
// that was torn down forced its occupants out. What the letter meets:
//
// - placement: the carrier must find the address. A building number that does not exist, no number,
//   no 동/호 in an apartment complex, officetel or 지식산업센터, an address without its 시/군/구, a
//   road renamed since, a building gone from the directory make it 주소불명/주소불충분 — less often
//   when the addressee is still there and has a signboard, or on a village round where the carrier
//   knows everyone; minor typos, 시/도 abbreviations, old 6-digit postal codes and 지번 addresses
//   mostly get delivered;
// - the addressee: gone businesses leave premises that are re-let (the new occupant returns the
//   letter: 수취인불명), stand empty (ordinary mail piles up in the box, registered mail returns
//   폐문부재), or are run by a building's management office (returns nearly everything). A fresh
//   departure may still have someone on the premises. A home-based sole proprietor who closed
//   still lives there until the household moves (then 이사불명); a shared office (비상주) returns
//   everything once the contract ends. Recent movers may have mail forwarded; village carriers
//   redirect local movers;
// - registered mail (the franchise/insurer's contracts) needs a signature: one-person home
//   businesses are often out, a shut (휴업) shop is never in;
// - refusals (수취거절, mostly the broker list's marketing) and other losses (기타).
//
// NTS answers the number as written. It files closures when they are reported: most promptly,
// some months late, some never until 직권폐업 (some of those show 휴업 meanwhile); a dormant
// corporation stays 계속. A number mistyped with one wrong digit is unregistered; two digits
// swapped may hit somebody else's registration. The letter goes by name and address, never by the
// number, so a mistyped number changes nothing about where the letter goes.
//
// Visible (list + NTS + directory): the business's trade, entity, premises and building, how the
// address is written and what is wrong with it, how the number is written and whether its check
// digit holds, what NTS answers and how long ago NTS says it closed. Hidden: the list's age,
// whether it moved or closed in fact, how (sold, incorporated, merged), who is at the premises,
// forwarding, registered or ordinary mail, whether the number was mistyped into another valid one.

import { checkDigitOf } from '../../src/domain/bizno.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';
import type { NtsRecord } from '../../src/domain/status.ts';
import { unregisteredRecord } from '../../src/registry/sandbox.ts';
import { between, chance, GIVEN, pick, type Rand, STEMS, SURNAMES, weighted } from './independent-names.ts';
import { type Building, buildDirectory, type Kind, missingNumberOn, namesAt, SIDO_SHORT, unitOf } from './independent-places.ts';
import type { IndependentWorld, Mailing } from './independent-world.ts';

type Trade =
  | 'restaurant' | 'cafe' | 'retail' | 'beauty' | 'online' | 'academy' | 'clinic' | 'professional' | 'realestate'
  | 'manufacturer' | 'wholesale' | 'construction' | 'it' | 'transport' | 'farm' | 'insurance' | 'franchise' | 'branchOffice';
type Premise = 'home' | 'shop' | 'office' | 'officetel' | 'knowledge' | 'factory' | 'virtual';
type Entity = 'indiv' | 'exempt' | 'corp' | 'branch';
type Damage = 'none' | 'typo' | 'noNumber' | 'wrongNumber' | 'noSgg';
type State = 'active' | 'suspended' | 'continued' | 'closed' | 'moved';

interface TradeSpec {
  /** closures a year (a business of ordinary age, in town) */
  close: number;
  /** moves a year */
  move: number;
  /** 휴업 at any time */
  suspend: number;
  premise: Partial<Record<Premise, number>>;
  entity: Partial<Record<Entity, number>>;
  /** of closures: sold as a going concern, the buyer keeping the 상호 */
  sold?: number;
  /** of a sole proprietor's closures: turned into a corporation at the same premises */
  incorporated?: number;
  /** share of sole proprietors who are 간이과세자 */
  simplified: number;
  names: (r: Rand) => string;
}

const nm = (r: Rand) => `${pick(r, SURNAMES)}${pick(r, GIVEN)}`;
const s = (r: Rand) => pick(r, STEMS);

const TRADES: Record<Trade, TradeSpec> = {
  restaurant: {
    close: 0.17, move: 0.03, suspend: 0.02, premise: { shop: 0.97, home: 0.03 }, entity: { indiv: 0.95, corp: 0.05 }, sold: 0.18, simplified: 0.45,
    names: (r) => pick(r, [`${s(r)}식당`, `${s(r)}갈비`, `${pick(r, SURNAMES)}가네 ${pick(r, ['칼국수', '순대국', '감자탕', '족발'])}`, `원조${s(r)}국밥`, `${s(r)}횟집`, `${s(r)}반점`, `${s(r)}분식`, `${s(r)}한우`, `${s(r)} 삼겹살`]),
  },
  cafe: {
    close: 0.19, move: 0.03, suspend: 0.02, premise: { shop: 1 }, entity: { indiv: 0.97, corp: 0.03 }, sold: 0.15, simplified: 0.5,
    names: (r) => pick(r, [`카페 ${s(r)}`, `${s(r)}커피`, `${s(r)}베이커리`, `${s(r)} 디저트`, `커피${s(r)}`, `${s(r)}제과`]),
  },
  retail: {
    close: 0.11, move: 0.04, suspend: 0.01, premise: { shop: 0.93, home: 0.04, factory: 0.03 }, entity: { indiv: 0.9, corp: 0.1 }, sold: 0.08, simplified: 0.4,
    names: (r) => pick(r, [`${s(r)}마트`, `${s(r)}슈퍼`, `${s(r)}꽃집`, `${s(r)}문구`, `${s(r)}안경`, `${s(r)}철물`, `${s(r)}통신`, `${s(r)}의류`, `${s(r)}농약사`, `${s(r)}상회`]),
  },
  beauty: {
    close: 0.12, move: 0.04, suspend: 0.015, premise: { shop: 0.88, home: 0.07, officetel: 0.05 }, entity: { indiv: 1 }, sold: 0.1, simplified: 0.5,
    names: (r) => pick(r, [`${s(r)}헤어`, `헤어${s(r)}`, `${s(r)}미용실`, `${s(r)}네일`, `${s(r)}피부관리실`, `${s(r)} 헤어살롱`]),
  },
  online: {
    close: 0.18, move: 0.11, suspend: 0.02, premise: { home: 0.6, officetel: 0.2, virtual: 0.1, office: 0.1 }, entity: { indiv: 0.9, corp: 0.1 }, incorporated: 0.1, simplified: 0.55,
    names: (r) => pick(r, [`${s(r)}몰`, `${s(r)}샵`, `${s(r)}스토어`, `${s(r)}컴퍼니`, `${s(r)}마켓`, `${s(r)}리빙`]),
  },
  academy: {
    close: 0.1, move: 0.05, suspend: 0.03, premise: { office: 0.7, shop: 0.2, home: 0.1 }, entity: { exempt: 0.95, corp: 0.05 }, sold: 0.1, simplified: 0,
    names: (r) => pick(r, [`${s(r)}학원`, `${s(r)}수학학원`, `${s(r)}영어학원`, `${s(r)}피아노`, `${s(r)}태권도`, `${s(r)}교습소`, `${s(r)}미술학원`]),
  },
  clinic: {
    close: 0.03, move: 0.03, suspend: 0.005, premise: { office: 0.75, shop: 0.25 }, entity: { exempt: 1 }, simplified: 0,
    names: (r) => pick(r, [`${s(r)}내과의원`, `${s(r)}치과의원`, `${s(r)}한의원`, `${s(r)}소아청소년과의원`, `${s(r)}정형외과의원`, `${nm(r)}이비인후과의원`, `${s(r)}동물병원`]),
  },
  professional: {
    close: 0.03, move: 0.05, suspend: 0.005, premise: { office: 0.85, officetel: 0.1, home: 0.05 }, entity: { indiv: 0.7, corp: 0.3 }, simplified: 0,
    names: (r) => pick(r, [`${nm(r)} 세무회계`, `${s(r)}세무회계사무소`, `법무사 ${nm(r)} 사무소`, `${s(r)}건축사사무소`, `${s(r)} 법률사무소`, `${s(r)}특허법률사무소`, `${s(r)}노무법인`]),
  },
  realestate: {
    close: 0.1, move: 0.04, suspend: 0.01, premise: { shop: 1 }, entity: { indiv: 0.97, corp: 0.03 }, sold: 0.12, simplified: 0.4,
    names: (r) => pick(r, [`${s(r)}공인중개사사무소`, `${s(r)}부동산`, `${s(r)}공인중개사`, `${s(r)}부동산중개`]),
  },
  manufacturer: {
    close: 0.05, move: 0.05, suspend: 0.01, premise: { factory: 0.72, knowledge: 0.25, home: 0.03 }, entity: { corp: 0.6, indiv: 0.4 }, incorporated: 0.3, simplified: 0.05,
    names: (r) => pick(r, [`${s(r)}정밀`, `${s(r)}산업`, `${s(r)}금속`, `${s(r)}테크`, `${s(r)}화학`, `${s(r)}기계`, `${s(r)}전자`, `${s(r)}식품`, `${s(r)}플라스틱`]),
  },
  wholesale: {
    close: 0.07, move: 0.06, suspend: 0.01, premise: { office: 0.4, factory: 0.3, shop: 0.2, home: 0.1 }, entity: { corp: 0.5, indiv: 0.5 }, incorporated: 0.2, simplified: 0.1,
    names: (r) => pick(r, [`${s(r)}상사`, `${s(r)}유통`, `${s(r)}무역`, `${s(r)}물산`, `${s(r)}상회`, `${s(r)}종합유통`]),
  },
  construction: {
    close: 0.08, move: 0.08, suspend: 0.02, premise: { office: 0.5, home: 0.3, officetel: 0.1, virtual: 0.1 }, entity: { corp: 0.6, indiv: 0.4 }, incorporated: 0.2, simplified: 0.15,
    names: (r) => pick(r, [`${s(r)}건설`, `${s(r)}인테리어`, `${s(r)}종합건설`, `${s(r)}설비`, `${s(r)}전기`, `${s(r)}토건`]),
  },
  it: {
    close: 0.12, move: 0.15, suspend: 0.01, premise: { knowledge: 0.3, office: 0.3, officetel: 0.2, virtual: 0.2 }, entity: { corp: 0.8, indiv: 0.2 }, incorporated: 0.3, simplified: 0.1,
    names: (r) => pick(r, [`${s(r)}소프트`, `${s(r)}랩스`, `${s(r)}시스템`, `${s(r)}네트웍스`, `${s(r)}솔루션`, `${s(r)}AI`, `${s(r)}디자인`]),
  },
  transport: {
    close: 0.06, move: 0.08, suspend: 0.02, premise: { home: 0.8, office: 0.15, factory: 0.05 }, entity: { indiv: 0.9, corp: 0.1 }, simplified: 0.3,
    names: (r) => pick(r, [`${s(r)}운수`, `${s(r)}물류`, `${s(r)}화물`, `${s(r)}익스프레스`, `${s(r)}용달`, `${s(r)}특송`]),
  },
  farm: {
    close: 0.025, move: 0.008, suspend: 0.01, premise: { home: 0.7, factory: 0.3 }, entity: { exempt: 0.6, indiv: 0.25, corp: 0.15 }, simplified: 0.3,
    names: (r) => pick(r, [`${s(r)}농원`, `${s(r)}농장`, `${s(r)}영농조합법인`, `${s(r)}과수원`, nm(r), `${s(r)}축산`, `${s(r)}버섯`]),
  },
  insurance: {
    close: 0.1, move: 0.1, suspend: 0.01, premise: { office: 0.85, officetel: 0.1, virtual: 0.05 }, entity: { branch: 0.55, corp: 0.3, indiv: 0.15 }, simplified: 0,
    names: (r) => pick(r, [`${s(r)}보험대리점`, `${s(r)}에셋`, `${s(r)}금융서비스`, `${s(r)}인슈어런스`, `${s(r)}재무설계`]),
  },
  franchise: {
    close: 0.13, move: 0.02, suspend: 0.01, premise: { shop: 1 }, entity: { indiv: 0.95, corp: 0.05 }, sold: 0.3, simplified: 0.25,
    names: (r) => `${s(r)}${pick(r, ['치킨', '편의점', '25', '베이커리', '커피', '피자', '김밥', '세탁'])}`,
  },
  branchOffice: {
    close: 0.09, move: 0.09, suspend: 0.005, premise: { office: 0.6, shop: 0.25, factory: 0.15 }, entity: { branch: 0.85, corp: 0.15 }, simplified: 0,
    names: (r) => `${s(r)}${pick(r, ['캐피탈', '물류', '택배', '화재', '생명', '렌탈', '정수기', '식자재'])}`,
  },
};

/** The building kinds each premises sits in, in town and in the country. */
const KINDS_FOR: Record<Exclude<Premise, 'virtual'>, readonly [Partial<Record<Kind, number>>, Partial<Record<Kind, number>>]> = {
  home: [{ apt: 0.35, villa: 0.38, house: 0.27 }, { house: 0.82, villa: 0.1, apt: 0.08 }],
  shop: [{ shopbldg: 0.66, plaza: 0.29, tower: 0.05 }, { shopbldg: 0.85, plaza: 0.15 }],
  office: [{ shopbldg: 0.4, tower: 0.33, plaza: 0.14, officetel: 0.06, knowledge: 0.07 }, { shopbldg: 0.85, plaza: 0.15 }],
  officetel: [{ officetel: 1 }, { shopbldg: 1 }],
  knowledge: [{ knowledge: 1 }, { factory: 1 }],
  factory: [{ factory: 1 }, { factory: 1 }],
};

interface AccountSpec {
  name: string;
  trades: Partial<Record<Trade, number>>;
  /** years since the list's addresses were right */
  age: (r: Rand) => number;
  /** share of rows in the country (읍/면), or null for the map's own mix */
  rural: number | null;
  registered: number;
  refuse: number;
  hyphen: number;
  digitTypo: number;
  swapTypo: number;
  damage: Record<Damage, number>;
  unitDrop: number;
  jibun: number;
  oldZip: number;
  newZip: number;
  sidoShort: number;
  /** of the businesses that closed or moved more than a few months ago: share taken off the list */
  prune: number;
  sloppyNames: number;
}

const ACCOUNTS: readonly AccountSpec[] = [
  {
    name: 'utility supplier (fresh, kept list)',
    trades: { restaurant: 0.2, cafe: 0.08, retail: 0.14, beauty: 0.06, clinic: 0.06, academy: 0.06, manufacturer: 0.1, wholesale: 0.06, professional: 0.05, realestate: 0.04, franchise: 0.07, it: 0.03, construction: 0.03, online: 0.02 },
    age: (r) => 0.1 + r() * 1.4, rural: null, registered: 0.08, refuse: 0.001, hyphen: 0.1, digitTypo: 0.004, swapTypo: 0.002,
    damage: { none: 0.93, typo: 0.04, wrongNumber: 0.01, noNumber: 0.005, noSgg: 0.015 }, unitDrop: 0.05, jibun: 0.08, oldZip: 0.02, newZip: 0.5, sidoShort: 0.3, prune: 0.65, sloppyNames: 0.05,
  },
  {
    name: 'data broker list (old, badly typed)',
    trades: { restaurant: 0.2, cafe: 0.1, retail: 0.14, online: 0.14, beauty: 0.07, realestate: 0.05, academy: 0.05, construction: 0.06, it: 0.05, wholesale: 0.04, transport: 0.04, manufacturer: 0.04, professional: 0.02 },
    age: (r) => 1 + 5 * r() ** 1.4, rural: null, registered: 0, refuse: 0.02, hyphen: 0.5, digitTypo: 0.03, swapTypo: 0.015,
    damage: { none: 0.78, typo: 0.1, wrongNumber: 0.04, noNumber: 0.03, noSgg: 0.05 }, unitDrop: 0.3, jibun: 0.35, oldZip: 0.25, newZip: 0.15, sidoShort: 0.5, prune: 0, sloppyNames: 0.3,
  },
  {
    name: 'franchise and insurer (branches, registered mail)',
    trades: { insurance: 0.35, branchOffice: 0.2, franchise: 0.25, professional: 0.05, retail: 0.08, restaurant: 0.07 },
    age: (r) => 0.5 + r() * 3.5, rural: null, registered: 0.45, refuse: 0.003, hyphen: 0.6, digitTypo: 0.008, swapTypo: 0.004,
    damage: { none: 0.9, typo: 0.05, wrongNumber: 0.015, noNumber: 0.01, noSgg: 0.025 }, unitDrop: 0.12, jibun: 0.1, oldZip: 0.05, newZip: 0.4, sidoShort: 0.3, prune: 0.3, sloppyNames: 0.1,
  },
  {
    name: 'rural co-op (home-based, stays put)',
    trades: { farm: 0.42, retail: 0.14, restaurant: 0.1, transport: 0.08, manufacturer: 0.1, wholesale: 0.08, construction: 0.05, beauty: 0.03 },
    age: (r) => 0.5 + r() * 4.5, rural: 0.85, registered: 0.05, refuse: 0.002, hyphen: 0.3, digitTypo: 0.01, swapTypo: 0.005,
    damage: { none: 0.86, typo: 0.06, noNumber: 0.05, wrongNumber: 0.02, noSgg: 0.01 }, unitDrop: 0.1, jibun: 0.55, oldZip: 0.3, newZip: 0.1, sidoShort: 0.5, prune: 0.2, sloppyNames: 0.15,
  },
];

const POOL_ROWS = 2_500;
const TEST_ROWS = 1_500;
const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

const yearOf = (d: Date): number => d.getUTCFullYear() + (d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / YEAR;
const ymd = (year: number): string => {
  const y = Math.floor(year);
  return new Date(Date.UTC(y, 0, 1) + (year - y) * YEAR).toISOString().slice(0, 10).replace(/-/g, '');
};
const expo = (r: Rand, rate: number): number => (rate <= 0 ? Infinity : -Math.log(1 - r()) / rate);
const ago = (years: number): string => (years < 0.25 ? '<3m' : years < 1 ? '3-12m' : years < 2 ? '1-2y' : years < 5 ? '2-5y' : '5y+');
const stemOfPlace = (name: string): string => {
  const x = name.replace(/([0-9]*가|[0-9]*[동읍면리])$/, '');
  return x.length >= 1 ? x : name;
};
const COMMON_ROADS = new Set(['중앙로', '대학로', '번영로', '시청로', '디지털로', '경인로', '기린대로', '백제대로', '무진대로', '중부대로', '양재대로', '달구벌대로', '경원대로', '인주대로', '고산자로', '2순환로', '중앙대로']);

/** Korean text with one syllable dropped or two swapped, or 로/길 mixed up. */
function typo(r: Rand, word: string): string {
  if (word.length < 2) return word;
  const u = r();
  if (u < 0.3 && word.endsWith('로')) return `${word.slice(0, -1)}길`;
  if (u < 0.6) {
    const i = between(r, 0, word.length - 2);
    return word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);
  }
  if (word.length >= 3) {
    const i = between(r, 0, word.length - 2);
    return word.slice(0, i) + word.slice(i + 1);
  }
  return word;
}

interface Business {
  trade: Trade;
  entity: Entity;
  premise: Premise;
  building: Building;
  unit: string;
  bno: string;
  registeredName: string;
  simplified: boolean;
}

interface Written {
  text: string;
  form: 'road' | 'jibun';
  zip: 'none' | 'new' | 'old';
  damage: Damage;
  unitMissing: boolean;
  oldNames: boolean;
  oldRoad: boolean;
  namedBuilding: boolean;
  forwarded: boolean;
  localMove: boolean;
  renamed: boolean;
}

interface Outcome {
  state: State;
  /** sold, incorporated, utcc, merged, plain, or - */
  how: string;
  /** when it closed in fact (year), or Infinity */
  closedAt: number;
  /** when it left the premises (year), or Infinity */
  leftAt: number;
  /** home-based: the household moved away since (year), or Infinity */
  householdLeftAt: number;
  nts: { code: '01' | '02' | '03'; endDt: string; utcc: boolean; lag: string };
}

/** The 상호 as this list writes it. */
function writeName(r: Rand, biz: Business, acct: AccountSpec): { name: string; form: string } {
  const n = biz.registeredName;
  if (!chance(r, acct.sloppyNames)) {
    if (biz.entity === 'corp' && n.includes('(주)') && chance(r, 0.1)) return { name: n.replace('(주)', '㈜'), form: 'corpMark' };
    return { name: n, form: /\(주\)|주식회사|법인/.test(n) ? 'corpMark' : 'plain' };
  }
  const bare = n.replace(/\(주\)|주식회사\s*|㈜/g, '').trim();
  const u = r();
  if (u < 0.4 && bare !== n) return { name: bare, form: 'noCorpMark' };
  if (u < 0.7) return { name: bare.replace(/\s+(지점|영업소|지사|센터|점)$/, '').replace(/사무소$|의원$|학원$/, ''), form: 'abbrev' };
  return { name: bare.replace(/\s+/g, ''), form: 'spacing' };
}

const standing = (b: Building, year: number) => b.built <= year && (b.demolished === null || b.demolished > year);

/** What NTS answers for a registered number. */
const record = (bno: string, code: '01' | '02' | '03', entity: Entity, simplified: boolean, endDt: string, utcc: boolean): NtsRecord => {
  const tax = entity === 'exempt' ? ['부가가치세 면세사업자', '04'] : entity === 'indiv' && simplified ? ['부가가치세 간이과세자', '02'] : ['부가가치세 일반과세자', '01'];
  return {
    b_no: bno, b_stt: code === '01' ? '계속사업자' : code === '02' ? '휴업자' : '폐업자', b_stt_cd: code, tax_type: tax[0]!, tax_type_cd: tax[1]!,
    end_dt: code === '03' ? endDt : '', utcc_yn: utcc ? 'Y' : 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
  };
};

export function buildSecondWorld(seed: number, asOf: Date): IndependentWorld {
  const now = yearOf(asOf);
  const mapRand = seededRandom((seed * 2_654_435_761 + 0x5ec0) >>> 0);
  const dir = buildDirectory(mapRand, 15_000, now);
  const r = seededRandom((seed * 40_503 + 0x2d0b) >>> 0);
  const coin = seededRandom((seed * 69_069 + 0xb0c5) >>> 0);

  // buildings by kind, in town and in the country; shared-office hosts
  const byKind = new Map<Kind, { all: Building[]; urban: Building[]; rural: Building[] }>();
  for (const b of dir.buildings) {
    const e = byKind.get(b.kind) ?? { all: [], urban: [], rural: [] };
    e.all.push(b);
    (b.rural ? e.rural : e.urban).push(b);
    byKind.set(b.kind, e);
  }
  const hosts = dir.buildings.filter((b) => b.virtualUnit !== null && b.demolished === null);

  function placeOf(premise: Premise, wantRural: boolean | null, year: number): { b: Building; premise: Premise } {
    for (let t = 0; t < 60; t++) {
      if (premise === 'virtual') {
        const b = hosts.length > 0 ? pick(r, hosts) : null;
        if (b && b.built <= year && wantRural !== true) return { b, premise };
        premise = 'office';
        continue;
      }
      const rural = wantRural ?? false;
      const mix = KINDS_FOR[premise][wantRural === null ? 0 : rural ? 1 : 0];
      const kind = weighted(r, mix);
      const lists = byKind.get(kind);
      if (!lists) continue;
      const list = wantRural === null ? lists.all : rural ? lists.rural : lists.urban;
      if (list.length === 0) continue;
      const b = pick(r, list);
      // a rural pick from the whole map: country homes are houses, not complexes
      if (wantRural === null && b.rural && premise !== 'home' && ['tower', 'officetel', 'knowledge'].includes(kind)) continue;
      if (!standing(b, year)) continue;
      // businesses fill buildings roughly by their size
      if (kind !== 'house' && kind !== 'villa' && kind !== 'apt' && !chance(r, Math.min(1, 0.25 + b.cap / 12))) continue;
      return { b, premise };
    }
    const fallback = dir.buildings.filter((b) => b.kind === 'shopbldg' && standing(b, year));
    return { b: pick(r, fallback), premise: 'shop' };
  }

  const used = new Set<string>();
  const records = new Map<string, NtsRecord>();
  const newNumber = (b: Building, entity: Entity): string => {
    for (;;) {
      const office = pick(r, b.sgg.taxOffices).padStart(3, '0').slice(0, 3);
      const code = entity === 'indiv' ? between(r, 1, 79) : entity === 'exempt' ? between(r, 90, 99) : entity === 'branch' ? 85 : pick(r, [81, 81, 81, 86, 87, 88]);
      const first9 = `${office}${String(code).padStart(2, '0')}${String(between(r, 0, 9999)).padStart(4, '0')}`;
      const bno = first9 + String(checkDigitOf(first9));
      if (!used.has(bno)) {
        used.add(bno);
        return bno;
      }
    }
  };

  function makeBusiness(acct: AccountSpec, since: number): Business {
    const trade = weighted(r, acct.trades);
    const spec = TRADES[trade];
    const entity = weighted(r, spec.entity);
    const wantRural = trade === 'farm' ? true : acct.rural === null ? null : chance(r, acct.rural);
    let premise = weighted(r, spec.premise);
    if (premise === 'virtual' && wantRural === true) premise = 'office';
    const placed = placeOf(premise, wantRural, since);
    const b = placed.b;
    premise = placed.premise;
    const unit = premise === 'virtual' ? b.virtualUnit! : unitOf(r, b, premise === 'home' ? 'home' : premise === 'shop' ? 'shop' : 'office');
    const base = spec.names(r);
    const area = stemOfPlace(b.area.rural && b.entry.ri ? b.entry.ri : b.area.name);
    let registeredName: string;
    if (entity === 'branch') registeredName = `(주)${base} ${area}${pick(r, ['지점', '영업소', '지사', '센터'])}`;
    else if (trade === 'franchise') registeredName = `${base} ${area}점`;
    else if (entity === 'corp') registeredName = trade === 'farm' && base.endsWith('법인') ? base : pick(r, [`(주)${base}`, `(주)${base}`, `주식회사 ${base}`, `${base}(주)`]);
    else registeredName = base;
    return { trade, entity, premise, building: b, unit, bno: newNumber(b, entity), registeredName, simplified: chance(r, TRADES[trade].simplified) };
  }

  /** What became of the business from `since` (when the list's address was right) to now. */
  function live(biz: Business, since: number): Outcome {
    const spec = TRADES[biz.trade];
    const bizAge = expo(r, 1 / 6);
    const youth = bizAge < 1 ? 1.8 : bizAge < 3 ? 1.3 : bizAge > 10 ? 0.6 : 1;
    const country = biz.building.rural ? 0.75 : 1;
    const closeAt = since + expo(r, spec.close * youth * country);
    // households move (about one in ten a year in town); farmers hardly ever
    const householdMoves = biz.trade === 'farm' ? 0.015 : biz.building.rural ? 0.05 : 0.1;
    let moveAt = since + expo(r, biz.premise === 'home' ? spec.move * (biz.building.rural ? 0.5 : 1) + householdMoves : spec.move * (biz.building.rural ? 0.5 : 1));
    // a building torn down: everyone in it left
    if (biz.building.demolished !== null && biz.building.demolished > since) moveAt = Math.min(moveAt, Math.max(since, biz.building.demolished - r() * 0.3));
    let state: State = 'active';
    let how = '-';
    let leftAt = Infinity;
    let closedAt = Infinity;
    let householdLeftAt = Infinity;
    if (closeAt < now) closedAt = closeAt;
    if (moveAt < now && moveAt < closeAt) {
      state = 'moved';
      leftAt = moveAt;
    } else if (closeAt < now) {
      const u = r();
      if (spec.sold && u < spec.sold) how = 'sold';
      else if (biz.entity === 'indiv' && spec.incorporated && chance(r, spec.incorporated)) how = 'incorporated';
      else if (biz.entity === 'branch' && closeAt > 2012 && chance(r, 0.2)) how = 'utcc';
      else if (biz.entity === 'branch' && chance(r, 0.45)) how = 'merged';
      else how = 'plain';
      if (how === 'sold' || how === 'incorporated' || how === 'utcc') state = 'continued';
      else {
        state = 'closed';
        leftAt = closeAt;
        // a home business closes; the household stays until it moves
        if (biz.premise === 'home') householdLeftAt = closeAt + expo(r, householdMoves);
      }
    } else if (chance(r, spec.suspend)) state = 'suspended';

    // what NTS says
    let code: '01' | '02' | '03' = state === 'suspended' ? '02' : '01';
    let endDt = '';
    let lag = '-';
    const utcc = how === 'utcc';
    if (closedAt < now) {
      let filedAt: number;
      let endAt = closedAt;
      let meanwhile: '01' | '02' = '01';
      const u = r();
      if (how === 'sold' || how === 'incorporated' || how === 'utcc') { filedAt = closedAt + r() * 0.1; lag = 'prompt'; } else if (biz.entity === 'corp') {
        if (u < 0.7) { filedAt = closedAt + r() * 0.25; lag = 'prompt'; } else if (u < 0.85) { filedAt = closedAt + 0.3 + r() * 1.7; lag = 'late'; } else { filedAt = Infinity; lag = 'dormant'; }
      } else if (biz.entity === 'branch') {
        if (u < 0.85) { filedAt = closedAt + r() * 0.2; lag = 'prompt'; } else { filedAt = closedAt + 0.2 + r(); lag = 'late'; }
      } else if (u < 0.62) { filedAt = closedAt + r() * 0.15; lag = 'prompt'; } else if (u < 0.82) { filedAt = closedAt + 0.2 + r(); lag = 'late'; } else {
        // never reported: 직권폐업 once the office notices (no returns filed), dated then
        filedAt = closedAt + 1 + r() * 2;
        endAt = filedAt;
        lag = 'unfiled';
        if (chance(r, 0.3)) meanwhile = '02';
      }
      if (filedAt <= now) { code = '03'; endDt = ymd(Math.min(endAt, now - 1 / 365)); } else code = meanwhile;
    }
    return { state, how, closedAt, leftAt, householdLeftAt, nts: { code, endDt, utcc, lag } };
  }

  /** The chance the letter comes back, and why. */
  function chanceOfReturn(biz: Business, o: Outcome, acct: AccountSpec, w: Written, registered: boolean): number {
    const b = biz.building;
    const kind = b.kind;
    const present = o.state === 'active' || o.state === 'suspended' || o.state === 'continued' || (biz.premise === 'home' && o.state === 'closed' && o.householdLeftAt >= now);
    const signboard = biz.premise === 'shop' || biz.premise === 'factory' || (biz.premise === 'office' && ['clinic', 'academy', 'professional'].includes(biz.trade));

    // 1. can the carrier place it?
    const fails: number[] = [];
    const mainRoad = b.road.main;
    if (b.demolished !== null) fails.push(0.9);
    if (w.damage === 'typo') fails.push(b.rural ? 0.01 : 0.025);
    if (w.damage === 'noSgg') fails.push(COMMON_ROADS.has(b.entry.roadName) && w.form === 'road' && w.zip === 'none' ? 0.3 : 0.05);
    if (w.damage === 'noNumber') fails.push(b.village ? 0.15 : b.rural ? 0.35 : mainRoad ? 0.7 : 0.45);
    if (w.damage === 'wrongNumber') fails.push((b.village ? 0.1 : b.rural ? 0.25 : mainRoad ? 0.55 : 0.35) * (w.namedBuilding ? 0.35 : 1));
    if (w.form === 'jibun') fails.push(b.rural ? 0.005 : 0.015);
    if (w.oldRoad) fails.push(0.06);
    if (w.oldNames) fails.push(0.015);
    if (w.unitMissing) {
      const u: Partial<Record<Kind, number>> = { apt: 0.55, officetel: 0.45, knowledge: 0.3, tower: 0.08, plaza: 0.12, villa: 0.15, shopbldg: 0.03 };
      fails.push(u[kind] ?? 0.02);
    }
    let pU = 1 - fails.reduce((t, f) => t * (1 - f), 1);
    if (present && signboard) pU *= 0.5;
    if (present && b.village) pU *= 0.35;
    if (b.demolished !== null) pU = Math.max(pU, 0.9);

    // 2. is the addressee there?
    const t = now;
    let pA: number;
    if (o.state === 'active' || o.state === 'continued') {
      if (!registered) pA = 0.003;
      else if (biz.premise === 'home') pA = 0.09;
      else if (biz.premise === 'virtual') pA = 0.1;
      else if (biz.premise === 'factory') pA = b.rural ? 0.06 : 0.04;
      else if (biz.premise === 'shop') pA = 0.015;
      else pA = 0.025;
      if (o.how === 'sold') pA += registered ? 0.05 : 0.01;
    } else if (o.state === 'suspended') {
      const shut: Record<Premise, [number, number]> = { home: [0.04, 0.15], shop: [0.25, 0.75], office: [0.3, 0.7], officetel: [0.3, 0.7], knowledge: [0.35, 0.75], factory: [0.2, 0.6], virtual: [0.5, 0.8] };
      pA = shut[biz.premise][registered ? 1 : 0];
    } else if (biz.premise === 'home') {
      if (o.state === 'closed' && o.householdLeftAt >= t) pA = registered ? 0.14 : 0.06; // the owner lives there still; some write 폐업 on it and send it back
      else {
        const d = t - (o.state === 'closed' ? o.householdLeftAt : o.leftAt);
        const newcomer = b.village ? 0.8 : kind === 'apt' ? 0.65 : kind === 'villa' ? 0.55 : 0.5;
        pA = newcomer * (1 - 0.6 * Math.exp(-d / 0.1));
      }
    } else if (biz.premise === 'virtual') pA = 0.95;
    else {
      const d = t - o.leftAt;
      const stillThere = 0.7 * Math.exp(-d / 0.08);
      let gone: number;
      const managed = kind === 'tower' || kind === 'knowledge';
      if (managed) gone = registered ? 0.93 : 0.82;
      else {
        const reletTime = biz.premise === 'factory' ? 1.2 : biz.premise === 'officetel' ? 0.4 : biz.premise === 'shop' ? (b.rural ? 1.2 : 0.5) : 0.7;
        const relet = 1 - Math.exp(-d / reletTime);
        const newOccupant = biz.premise === 'officetel' ? 0.55 : biz.premise === 'factory' ? 0.6 : biz.premise === 'shop' ? 0.75 : 0.7;
        const empty = registered ? 0.9 : biz.premise === 'factory' ? 0.3 : biz.premise === 'shop' ? 0.35 : 0.45;
        gone = relet * newOccupant + (1 - relet) * empty;
      }
      pA = (1 - stillThere) * gone;
      if (o.state === 'moved') {
        // forwarding for recent movers; a village carrier redirects a local move
        if (t - o.leftAt < 1 && w.forwarded) pA *= 0.15;
        if (b.village && w.localMove) pA *= 0.4;
      }
    }
    if (o.state === 'moved' && biz.premise === 'home') {
      if (t - o.leftAt < 1 && w.forwarded) pA *= 0.15;
      if (b.village && w.localMove) pA *= 0.4;
    }
    // a business renamed since the list: mail rooms that sort by company name lose it
    if (w.renamed && present) pA += ['tower', 'knowledge', 'officetel'].includes(kind) ? 0.15 : 0.01;

    const pRefuse = present ? acct.refuse : 0;
    const pOther = 0.003;
    const p = 1 - (1 - pU) * (1 - Math.min(pA, 0.99)) * (1 - pRefuse) * (1 - pOther);
    return Math.min(0.985, Math.max(0.002, p));
  }


  /** The address as this list writes it, copied in `year`. */
  function writeAddress(biz: Business, acct: AccountSpec, year: number): Written {
    const b = biz.building;
    const e = b.entry;
    const names = namesAt(b, year);
    const oldRoad = b.road.former !== null && year < b.road.former.until;
    const roadName = oldRoad ? b.road.former!.name : e.roadName;
    const bname = b.formerName && year < b.formerName.until ? b.formerName.name : e.buildingName;
    const oldNames = names.sido !== b.sgg.sido || names.sgg !== b.sgg.name || names.area !== b.area.name || bname !== e.buildingName;
    const form: 'road' | 'jibun' = chance(r, acct.jibun * (year < 2014 ? 1.6 : 1)) ? 'jibun' : 'road';
    const damage = weighted(r, acct.damage);
    const unitMissing = biz.unit !== '' && chance(r, acct.unitDrop);
    const unit = unitMissing ? '' : biz.unit;
    const sido = chance(r, acct.sidoShort) ? pick(r, SIDO_SHORT[names.sido] ?? [names.sido]) : names.sido;
    const sgg = damage === 'noSgg' ? '' : names.sgg;
    let area = names.area;
    let road = roadName;
    const typoOnRoad = damage === 'typo' && form === 'road' && chance(r, 0.7);
    if (typoOnRoad) road = typo(r, road);
    else if (damage === 'typo') area = typo(r, area);
    let namedBuilding = false;
    let text: string;
    if (form === 'road') {
      const num = damage === 'noNumber' ? '' : damage === 'wrongNumber' ? String(missingNumberOn(r, b)) : `${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`;
      text = [sido, sgg, b.rural ? area : '', road, num].filter(Boolean).join(' ');
      if (unit) text += chance(r, 0.8) ? `, ${unit}` : ` ${unit}`;
      const showName = bname !== '' && chance(r, e.apartment ? 0.8 : 0.45);
      if (!b.rural && chance(r, e.apartment ? 0.85 : 0.4)) text += ` (${area}${showName ? `, ${bname}` : ''})`;
      else if (showName) text += ` ${bname}`;
      namedBuilding = showName && !['house', 'villa', 'shopbldg', 'factory'].includes(b.kind);
    } else {
      const lot = damage === 'noNumber' ? '' : damage === 'wrongNumber' ? `${e.jibunMain + pick(r, [-3, -1, 2, 5, 11, 40])}` : `${e.jibunMountain ? '산' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`;
      const showName = bname !== '' && chance(r, 0.6);
      text = [sido, sgg, area, e.ri, lot, showName ? bname : '', unit].filter(Boolean).join(' ');
      if (!lot && e.ri === '' && !showName) text = [sido, sgg, area, road, unit].filter(Boolean).join(' ');
      namedBuilding = showName && !['house', 'villa', 'shopbldg', 'factory'].includes(b.kind);
    }
    if (damage === 'typo' && chance(r, 0.2)) text = text.replace(/ (?=[^ ]*[로길] )/, '');
    let zip: 'none' | 'new' | 'old' = 'none';
    if (chance(r, year < 2015.6 ? acct.oldZip * 2 : acct.oldZip * 0.3)) zip = 'old';
    else if (year >= 2015.6 && chance(r, acct.newZip)) zip = 'new';
    if (zip === 'old') text = `${chance(r, 0.5) ? `[${b.area.zip6}]` : b.area.zip6} ${text}`;
    if (zip === 'new') text = `${chance(r, 0.6) ? `(${e.zipcode})` : e.zipcode} ${text}`;
    return {
      text: text.replace(/"/g, ''), form, zip, damage, unitMissing, oldNames, oldRoad, namedBuilding,
      forwarded: chance(r, biz.entity === 'corp' || biz.entity === 'branch' ? 0.35 : 0.25), localMove: chance(r, 0.5), renamed: false,
    };
  }

  const pool: Mailing[][] = [];
  const test: Mailing[][] = [];
  ACCOUNTS.forEach((acct, a) => {
    const rows: Mailing[] = [];
    while (rows.length < POOL_ROWS + TEST_ROWS) {
      const listAge = acct.age(r);
      const since = now - listAge;
      const biz = makeBusiness(acct, since);
      const o = live(biz, since);
      // a kept list: the customer heard of most closures and moves, and took the row off
      if ((o.state === 'closed' || o.state === 'moved') && now - o.leftAt > 0.25 && chance(r, acct.prune)) {
        used.delete(biz.bno);
        continue;
      }
      records.set(biz.bno, record(biz.bno, o.nts.code, biz.entity, biz.simplified, o.nts.endDt, o.nts.utcc));
      const w = writeAddress(biz, acct, since);
      w.renamed = o.state !== 'closed' && o.state !== 'moved' && chance(r, 1 - Math.exp(-0.025 * listAge));
      const registered = chance(r, acct.registered);
      const name = writeName(r, biz, acct);

      // the number as the list writes it
      let written = biz.bno;
      let numberTypo = 'none';
      if (chance(r, acct.digitTypo)) {
        const i = between(r, 3, 8);
        written = written.slice(0, i) + String((Number(written[i]) + between(r, 1, 9)) % 10) + written.slice(i + 1);
        numberTypo = 'digit';
      } else if (chance(r, acct.swapTypo)) {
        const i = between(r, 0, 8);
        if (written[i] !== written[i + 1]) {
          written = written.slice(0, i) + written[i + 1]! + written[i]! + written.slice(i + 2);
          numberTypo = 'swap';
          const valid = checkDigitOf(written.slice(0, 9)) === Number(written[9]);
          // a valid swap may be somebody else's registration
          if (valid && !records.has(written) && !used.has(written) && chance(r, 0.5)) {
            used.add(written);
            const st = weighted(r, { '01': 0.84, '03': 0.13, '02': 0.03 } as const);
            records.set(written, record(written, st, biz.entity, chance(r, 0.3), st === '03' ? ymd(now - r() * 6) : '', false));
          }
        }
      }
      const answer = records.get(written) ?? unregisteredRecord(written);
      const bnoText = chance(r, acct.hyphen) ? `${written.slice(0, 3)}-${written.slice(3, 5)}-${written.slice(5)}` : written;
      const validCheck = checkDigitOf(written.slice(0, 9)) === Number(written[9]);
      const endAgo = answer.b_stt_cd === '03' && answer.end_dt ? ago(now - yearOf(new Date(Date.UTC(Number(answer.end_dt.slice(0, 4)), Number(answer.end_dt.slice(4, 6)) - 1, Number(answer.end_dt.slice(6, 8)))))) : '-';

      const p = chanceOfReturn(biz, o, acct, w, registered);
      const bounced = coin() < p;
      const departed = o.leftAt < now ? ago(now - o.leftAt) : '-';
      rows.push({
        account: a,
        bno: bnoText,
        name: name.name.replace(/"/g, ''),
        address: w.text,
        truth: {
          // visible
          nts: answer.b_stt_cd,
          closedAgo: endAgo,
          entity: biz.entity,
          trade: biz.trade,
          premise: biz.premise,
          kind: biz.building.kind,
          rural: biz.building.rural,
          village: biz.building.village,
          damage: biz.building.demolished !== null ? 'demolished' : w.damage,
          unitMissing: w.unitMissing,
          form: w.form,
          zip: w.zip,
          oldNames: w.oldNames || w.oldRoad,
          bnoWritten: bnoText.includes('-') ? 'hyphen' : 'plain',
          bnoCheck: validCheck ? 'valid' : 'invalid',
          nameForm: name.form,
          // hidden
          state: o.state,
          how: o.how,
          departedAgo: departed,
          household: biz.premise !== 'home' ? '-' : o.state === 'moved' || o.householdLeftAt < now ? 'moved' : 'there',
          ntsLag: o.nts.lag,
          listAge: listAge < 1 ? '<1y' : listAge < 3 ? '1-3y' : listAge < 5 ? '3-5y' : '5y+',
          registered,
          numberTypo,
          renamed: w.renamed,
          forwarded: o.state === 'moved' && now - o.leftAt < 1 && w.forwarded,
        },
        p,
        bounced,
      });
    }
    pool.push(rows.slice(0, POOL_ROWS));
    const t = rows.slice(POOL_ROWS);
    // the harness probes with the first test row: a plain ten-digit registered number
    const k = t.findIndex((m) => /^[0-9]{10}$/.test(m.bno) && records.has(m.bno));
    if (k > 0) [t[0], t[k]] = [t[k]!, t[0]!];
    test.push(t);
  });

  return {
    name: 'second-opinion',
    description: 'a second world written apart from the model: four customers\' lists, businesses that close, move, are sold or suspended, and letters Korea Post places, delivers or returns',
    visible: ['nts', 'closedAgo', 'entity', 'trade', 'premise', 'kind', 'rural', 'village', 'damage', 'unitMissing', 'form', 'zip', 'oldNames', 'bnoWritten', 'bnoCheck', 'nameForm'],
    accounts: ACCOUNTS.map((x) => x.name),
    directoryLines: dir.lines,
    relatedLines: dir.relatedLines,
    records,
    pool,
    test,
  };
}
