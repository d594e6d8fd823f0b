// A third evaluation world, written apart from the bounce model and from the other two worlds:
// `node scripts/eval-model.ts --worlds third`. Its map (third-places.ts) leans on 영남, 호남, 충청
// and the 경기 new towns; its four customers mail businesses very unlike each other:
//
// 0 an industrial-supplies wholesaler (부산·경남·울산) invoicing its trade customers: factories,
//   builders, distributors; a fresh list kept up from its own ERP, clean addresses, ordinary mail;
// 1 an agency sending subsidy claw-back notices by registered mail (등기) to small shops — 식당,
//   미용실, 학원, online sellers at home — from application forms two to four years old;
// 2 a franchise HQ writing to its stores and to ex-franchisees (closed, transferred, or gone
//   independent under their own sign), some of them by 내용증명;
// 3 a trade-fair organiser mailing leads typed from business cards years ago, with registration
//   numbers a list vendor matched by name afterwards.
//
// What a letter meets (the hidden process, from how Korea Post returns business mail):
// - 주소불명/주소불충분: a number that is missing, wrong or demolished, a missing 동/호 — weighed by
//   the building (an apartment complex or an officetel needs the unit; a market stall does not),
//   by the place (a 면 carrier knows everyone; a city carrier follows the number), by whether a
//   signboard still names the addressee, and made worse when two faults come together;
// - 수취인불명/이사불명: the business moved or closed after the list was copied. Its premises are
//   re-let (the new occupant or the building's management returns the letter — or throws it away)
//   or empty (the carrier sees the 임대 sign, or the village carrier hands it to the ex-owner);
//   demolished in redevelopment; a recent mover's mail is forwarded;
// - not returned although NTS says 폐업: a shop sold with its name (양도양수), an individual turned
//   corporation at the same desk, a sole proprietor who ran it from home and still lives there, an
//   ex-franchisee who kept trading under his own name;
// - 폐문부재: registered mail needs a signature — shut (휴업, off-season on the coast), out at a site,
//   a 학원 that opens in the afternoon, a home business nobody is at in the daytime;
// - 수취거절: a claw-back notice to an ex-owner, a 내용증명 to a disputing ex-franchisee, trade-fair
//   marketing at a tower's mail room; 기타: lost and the like.
//
// Visible (the list, the NTS answer, the directory): NTS status, tax type and closure age, entity
// (from the number), trade (from the name), building kind, place, how the address is written and
// damaged. Hidden: moves, closures NTS has not filed, successors, who is at the address now,
// forwarding, management offices, the list's age, a home business's owner, the mail class of
// individual franchise letters, and the truth behind a mistyped or vendor-matched number.

import { checkDigitOf } from '../../src/domain/bizno.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';
import type { NtsRecord } from '../../src/domain/status.ts';
import { unregisteredRecord } from '../../src/registry/sandbox.ts';
import type { IndependentWorld, Mailing } from './independent-world.ts';
import { type Building, buildPlaces, type District, int, type Kind, pick, type Places, type Rand, STEMS, type Style, unitIn, weighted, writeAddress, type Written } from './third-places.ts';

type TradeKey = 'restaurant' | 'cafe' | 'beauty' | 'retail' | 'online' | 'clinic' | 'academy' | 'services' | 'maker' | 'builder' | 'wholesale' | 'it' | 'logistics' | 'farm' | 'lodging' | 'assoc';
type Entity = 'indiv' | 'corp' | 'branch' | 'nonprofit';

interface Trade {
  kinds: Partial<Record<Kind, number>>;
  /** districts where it is found more (or less) than elsewhere; `elsewhere` for the rest */
  where: Partial<Record<District, number>>;
  elsewhere?: number;
  corp: number;
  /** share of individuals registered 면세 */
  exempt: number;
  /** share of taxable individuals that are 간이 */
  simple: number;
  /** yearly hazards of closing and of moving */
  close: number;
  move: number;
  /** name patterns: {s} stem, {p} place, {f} loanword, {n} surname, {g} given name, {d} dish, {m} department */
  names: string;
  /** 폐문부재 of registered mail while open (the door is locked at delivery time) */
  away: number;
  seasonal?: boolean;
}

const TRADES: Readonly<Record<TradeKey, Trade>> = {
  restaurant: { kinds: { shop: 70, market: 14, house: 8, office: 4, kic: 2, officetel: 2 }, where: { c: 2, t: 2, o: 1.5, i: 0.6, f: 0.4 }, corp: 0.04, exempt: 0, simple: 0.45, close: 0.13, move: 0.025, away: 0.05, seasonal: true, names: '{s}식당 {p}{d} {n}가네{d} 할매{d} 원조{p}{d} {s}{d} {s}반점 {f}키친 {p}{d}집' },
  cafe: { kinds: { shop: 78, officetel: 6, house: 8, office: 4, apt: 4 }, where: { c: 2, t: 2, n: 1.5, i: 0.4, f: 0.4 }, corp: 0.05, exempt: 0, simple: 0.5, close: 0.16, move: 0.03, away: 0.03, seasonal: true, names: '카페{f} {f}커피 커피{f} {f}베이커리 {s}제과 {f}디저트 {p}커피' },
  beauty: { kinds: { shop: 76, officetel: 8, apt: 8, villa: 6, market: 2 }, where: { r: 1.5, n: 1.5, o: 1.2, i: 0.3, f: 0.3 }, corp: 0.01, exempt: 0, simple: 0.55, close: 0.11, move: 0.06, away: 0.05, names: '{f}헤어 {s}미용실 {f}네일 헤어{f} {n}{g}헤어 {f}뷰티 {s}피부관리실' },
  retail: { kinds: { shop: 62, market: 26, house: 6, apt: 3, officetel: 3 }, where: { o: 1.6, c: 1.3, r: 1.2, i: 0.5 }, corp: 0.06, exempt: 0.05, simple: 0.45, close: 0.1, move: 0.04, away: 0.03, names: '{s}마트 {s}슈퍼 {s}철물 {s}공구 {s}문구 {s}꽃집 {s}세탁소 {f}휴대폰 {s}안경원 {s}상회 {p}건강원 {s}정육점 {f}의류 {s}전자' },
  online: { kinds: { apt: 44, villa: 28, officetel: 16, house: 12 }, where: { r: 1.5, n: 1.8, i: 0.3 }, corp: 0.04, exempt: 0, simple: 0.65, close: 0.19, move: 0.13, away: 0.2, names: '{f}샵 {f}몰 {f}스토어 {f}마켓 {s}상점 {f}하우스' },
  clinic: { kinds: { shop: 60, office: 35, officetel: 5 }, where: { c: 1.8, r: 1.3, n: 1.3, i: 0.3, f: 0.3 }, corp: 0.03, exempt: 0.75, simple: 0, close: 0.03, move: 0.03, away: 0.01, names: '{n}{m}의원 {s}치과의원 {s}한의원 {s}약국 {p}온누리약국 {s}{m}의원' },
  academy: { kinds: { shop: 70, office: 14, apt: 10, villa: 3, officetel: 3 }, where: { r: 1.8, n: 1.8, i: 0.2, f: 0.3 }, corp: 0.05, exempt: 0.9, simple: 0.3, close: 0.1, move: 0.06, away: 0.12, names: '{s}수학학원 {s}영어학원 {f}어학원 {s}피아노학원 {s}태권도 {n}{g}수학교습소 {s}미술학원 {f}공부방' },
  services: { kinds: { office: 55, shop: 35, officetel: 10 }, where: { c: 2, i: 0.5, f: 0.3 }, corp: 0.15, exempt: 0.2, simple: 0.2, close: 0.05, move: 0.07, away: 0.03, names: '{n}{g}세무회계 {s}세무회계사무소 {s}공인중개사사무소 {n}{g}법무사사무소 {s}부동산 {s}건축사사무소 {s}노무사사무소' },
  maker: { kinds: { factory: 70, kic: 24, shop: 6 }, where: { i: 4, f: 1.2 }, corp: 0.55, exempt: 0, simple: 0.1, close: 0.045, move: 0.05, away: 0.04, names: '{s}정밀 {s}기계 {s}산업 {s}금속 {s}테크 {s}엔지니어링 {s}기공 {s}화학 {s}전기 {s}플라스틱 {s}공업사 {s}이엔지 {s}몰드' },
  builder: { kinds: { office: 30, officetel: 20, shop: 22, kic: 10, house: 10, apt: 8 }, where: { c: 1.3, n: 1.3 }, corp: 0.5, exempt: 0, simple: 0.15, close: 0.09, move: 0.1, away: 0.1, names: '{s}건설 {s}종합건설 {s}건축 {s}인테리어 {s}설비 {s}토건 {s}전기공사 {s}개발 {s}조경' },
  wholesale: { kinds: { office: 26, kic: 16, factory: 28, shop: 18, market: 12 }, where: { i: 2, c: 1.3, o: 1.2 }, corp: 0.45, exempt: 0.05, simple: 0.15, close: 0.08, move: 0.08, away: 0.05, names: '{s}유통 {s}물산 {s}상사 {s}무역 {s}종합상사 {s}식품 {p}수산 {f}트레이딩 {s}산업자재' },
  it: { kinds: { kic: 36, officetel: 34, office: 30 }, where: { c: 1.5, i: 1.5, n: 1.5, f: 0.1 }, corp: 0.6, exempt: 0, simple: 0.2, close: 0.12, move: 0.17, away: 0.05, names: '{f}소프트 {f}랩스 {f}디자인 {f}미디어 {f}시스템 {s}정보통신 {f}기획 {f}솔루션 {f}커뮤니케이션' },
  logistics: { kinds: { factory: 62, office: 30, shop: 8 }, where: { i: 3, f: 1.2 }, corp: 0.5, exempt: 0, simple: 0.2, close: 0.07, move: 0.07, away: 0.08, names: '{s}운수 {s}물류 {s}로지스 {s}통운 {s}화물 {f}익스프레스' },
  farm: { kinds: { house: 70, factory: 30 }, where: { f: 6, t: 1.5, i: 0.5 }, elsewhere: 0.03, corp: 0.2, exempt: 0.6, simple: 0.3, close: 0.04, move: 0.01, away: 0.15, seasonal: false, names: '{p}농원 {s}농장 {p}영농조합법인 {s}축산 {p}수산 {s}버섯 {p}한우 {s}과수원 {p}딸기농장' },
  lodging: { kinds: { house: 62, shop: 30, officetel: 8 }, where: { t: 6, f: 1.2 }, elsewhere: 0.15, corp: 0.05, exempt: 0, simple: 0.5, close: 0.08, move: 0.02, away: 0.12, seasonal: true, names: '{f}펜션 {s}모텔 {p}민박 {f}게스트하우스 {s}장여관 {f}스테이' },
  assoc: { kinds: { office: 70, shop: 30 }, where: { c: 2 }, corp: 1, exempt: 0, simple: 0, close: 0.02, move: 0.05, away: 0.05, names: '{p}상공회의소 {p}기계공업협동조합 {p}소상공인연합회 {p}관광협회 {p}작목반 {s}사회적협동조합 {p}상인회 {s}문화협회' },
};

const FOOD = '국밥 돼지국밥 밀면 칼국수 냉면 곱창 막창 아구찜 횟집 해물탕 추어탕 갈비 삼겹살 족발 보쌈 치킨 분식 김밥 중화요리 한정식 쌈밥 장어 복국 순대 초밥 돈까스 짬뽕 대게 물회 한우'.split(' ');
const LOANWORDS = '블루오션 그린텍 에이스 스마트 굿모닝 해피데이 드림 라온 미소 하늘빛 코코 루나 제이앤 모아 다솜 오름 유니온 케이 마루 비타 나인 탑 베스트 노블 클래식 모던 어반 비앤 썸 포레 오션 선샤인 리안 소담 이음 봄날'.split(' ');
const SURNAMES = '김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 남 심 노 하 곽 성 차 주 우 구 민'.split(' ');
const GIVEN = '민준 서연 지훈 수빈 예린 동현 하은 성민 미경 재원 지민 승우 유진 동욱 나래 영호 정호 다은 현석 소희 상철 영숙 경희 기현 태호 민수 정숙 광수 명희 병철 순옥 종훈 은정 재석'.split(' ');
const DEPT = '내과 외과 소아과 이비인후과 정형외과 피부과 안과 산부인과 가정의학과 비뇨기과'.split(' ');
const BRANDS: readonly { name: string; trade: TradeKey }[] = [{ name: '꼬꼬마을치킨', trade: 'restaurant' }, { name: '하루한잔커피', trade: 'cafe' }, { name: '엄마손김밥', trade: 'restaurant' }];

type AccountKey = 'supplier' | 'agency' | 'franchise' | 'leads';
interface Account {
  key: AccountKey;
  name: string;
  registered: boolean;
  mix: Partial<Record<TradeKey, number>>;
  /** weight of a 시도; `other` for the rest */
  sido: Readonly<Record<string, number>>;
  other: number;
  /** years since the row's address was copied */
  listAge(r: Rand): number;
  /** share of moves the account hears of (the row then carries the new address) */
  hearsOfMoves: number;
  branchShare: number;
  /** how the list writes a corporation's name: {x} is the name */
  corpForms: readonly string[];
  style: Style;
  bnoErr: { typo: number; swap: number; other: number };
}

const expo = (r: Rand, rate: number): number => -Math.log(1 - r()) / rate;

const ACCOUNTS: readonly Account[] = [
  {
    key: 'supplier', name: 'industrial-supplies wholesaler invoicing trade customers (부산·경남·울산)', registered: false,
    mix: { maker: 40, builder: 14, wholesale: 18, logistics: 8, retail: 10, farm: 3, services: 2, it: 3, restaurant: 2 },
    sido: { 경상남도: 1.4, 부산광역시: 1.3, 울산광역시: 1.1, 대구광역시: 1, 경상북도: 0.9 }, other: 0.15,
    listAge: (r) => Math.min(2.5, 0.05 + expo(r, 1 / 0.45)), hearsOfMoves: 0.6, branchShare: 0.08, corpForms: ['(주){x}', '(주){x}', '{x}(주)'],
    style: { jibun: 0.03, sidoShort: 0.18, sidoNone: 0.02, sigunguDrop: 0.01, sigunguPart: 0.05, keepOld: 0.5, habitOld: 0.02, roadTypo: 0.01, noNumber: 0.005, wrongNumber: 0.01, unitDrop: 0.08, unitPartial: 0.02, unitShort: 0.1, zip5: 0.75, zip6: 0.03, zipWrong: 0.01, named: 0.5, paren: 0.5, noise: 0.03 },
    bnoErr: { typo: 0.004, swap: 0.001, other: 0 },
  },
  {
    key: 'agency', name: 'agency mailing subsidy claw-back notices by registered mail (등기)', registered: true,
    mix: { restaurant: 26, cafe: 10, beauty: 12, retail: 17, online: 12, academy: 9, lodging: 4, clinic: 2, farm: 4, services: 4 },
    sido: { 광주광역시: 1.4, 전라남도: 1.4, 대전광역시: 1.3, 충청북도: 1.3, 충청남도: 1.2, 세종특별자치시: 1.2, 전북특별자치도: 1.2, 제주특별자치도: 1.2 }, other: 0.6,
    listAge: (r) => 0.5 + 2 * r(), hearsOfMoves: 0, branchShare: 0, corpForms: ['주식회사 {x}', '(주){x}', '{x} 주식회사'],
    style: { jibun: 0.18, sidoShort: 0.4, sidoNone: 0.05, sigunguDrop: 0.03, sigunguPart: 0.1, keepOld: 0.8, habitOld: 0.06, roadTypo: 0.05, noNumber: 0.03, wrongNumber: 0.04, unitDrop: 0.22, unitPartial: 0.06, unitShort: 0.3, zip5: 0.45, zip6: 0.08, zipWrong: 0.03, named: 0.45, paren: 0.35, noise: 0.1 },
    bnoErr: { typo: 0.01, swap: 0.003, other: 0 },
  },
  {
    key: 'franchise', name: 'franchise HQ writing to franchisees and ex-franchisees', registered: false,
    mix: { restaurant: 1 }, sido: { 경상남도: 1.2, 부산광역시: 1.2, 대구광역시: 1.1, 울산광역시: 1, 경상북도: 1, 충청북도: 1, 충청남도: 1, 경기도: 1.1, 대전광역시: 1 }, other: 0.4,
    listAge: (r) => 0.1 + 0.9 * r(), hearsOfMoves: 0, branchShare: 0, corpForms: ['(주){x}'],
    style: { jibun: 0.05, sidoShort: 0.38, sidoNone: 0.02, sigunguDrop: 0.02, sigunguPart: 0.08, keepOld: 0.7, habitOld: 0.02, roadTypo: 0.02, noNumber: 0.01, wrongNumber: 0.015, unitDrop: 0.12, unitPartial: 0.03, unitShort: 0.2, zip5: 0.6, zip6: 0.05, zipWrong: 0.01, named: 0.4, paren: 0.4, noise: 0.04 },
    bnoErr: { typo: 0.008, swap: 0.002, other: 0 },
  },
  {
    key: 'leads', name: 'trade-fair organiser mailing business-card leads', registered: false,
    mix: { maker: 30, wholesale: 20, it: 14, builder: 10, logistics: 5, farm: 5, assoc: 4, services: 4, restaurant: 3, retail: 5 },
    sido: { 부산광역시: 1.3, 대구광역시: 1.2, 경상남도: 1.1, 경기도: 1, 서울특별시: 1.2, 경상북도: 0.9, 울산광역시: 0.9, 대전광역시: 0.7 }, other: 0.4,
    listAge: (r) => Math.min(9, 0.3 + expo(r, 1) + expo(r, 1)), hearsOfMoves: 0, branchShare: 0.14,
    corpForms: ['(주){x}', '㈜{x}', '주식회사 {x}', '{x}(주)', '{x} 주식회사', '(주) {x}', '{x}'],
    style: { jibun: 0.22, sidoShort: 0.55, sidoNone: 0.15, sigunguDrop: 0.08, sigunguPart: 0.15, keepOld: 0.9, habitOld: 0.1, roadTypo: 0.09, noNumber: 0.06, wrongNumber: 0.06, unitDrop: 0.3, unitPartial: 0.08, unitShort: 0.35, zip5: 0.3, zip6: 0.15, zipWrong: 0.05, named: 0.55, paren: 0.3, noise: 0.18 },
    bnoErr: { typo: 0.03, swap: 0.02, other: 0.05 },
  },
];

// ---- the registry ----

const STATUS_TEXT = { '01': '계속사업자', '02': '휴업자', '03': '폐업자' } as const;
type Stt = keyof typeof STATUS_TEXT;
const TAX_TEXT: Readonly<Record<string, string>> = {
  '01': '부가가치세 일반과세자', '02': '부가가치세 간이과세자', '04': '부가가치세 면세사업자',
  '05': '수익사업을 영위하지 않는 비영리법인이거나 고유번호가 부여된 단체,국가기관 등', '06': '고유번호가 부여된 단체', '07': '부가가치세 간이과세자(세금계산서 발급사업자)',
};

function dateAgo(asOf: Date, years: number): string {
  return new Date(asOf.getTime() - years * 365.25 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

function ntsRecord(bno: string, stt: Stt, tax: string, endDt: string): NtsRecord {
  return {
    b_no: bno, b_stt: STATUS_TEXT[stt], b_stt_cd: stt, tax_type: TAX_TEXT[tax]!, tax_type_cd: tax, end_dt: stt === '03' ? endDt : '',
    utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: tax === '07' ? '20240701' : '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
  };
}

/** A new registration number of this kind at this 세무서 (digits 4–5 say the kind). */
function newBno(office: string, entity: Entity, tax: string, r: Rand, used: Set<string>): string {
  for (;;) {
    const kind = entity === 'corp' ? pick(r, ['81', '81', '81', '86', '87', '88']) : entity === 'branch' ? '85' : entity === 'nonprofit' ? (tax === '05' ? '82' : '89') : tax === '04' ? String(int(r, 90, 99)) : String(int(r, 1, 79)).padStart(2, '0');
    const nine = `${office}${kind}${String(int(r, 0, 9999)).padStart(4, '0')}`;
    const bno = `${nine}${checkDigitOf(nine)}`;
    if (!used.has(bno)) {
      used.add(bno);
      return bno;
    }
  }
}

const entityOf = (bno: string): Entity => {
  const k = Number(bno.slice(3, 5));
  return k === 85 ? 'branch' : k === 82 || k === 89 ? 'nonprofit' : k >= 81 && k <= 88 ? 'corp' : 'indiv';
};

/** Someone else's registration, as a transposed or vendor-matched number finds it. */
function strangerRecord(bno: string, r: Rand, asOf: Date): NtsRecord {
  const e = entityOf(bno);
  const k = Number(bno.slice(3, 5));
  const tax = e === 'nonprofit' ? (k === 82 ? '05' : '06') : k >= 90 ? '04' : e === 'indiv' && r() < 0.35 ? '02' : '01';
  const u = r();
  return ntsRecord(bno, u < 0.78 ? '01' : u < 0.95 ? '03' : '02', tax, dateAgo(asOf, 8 * r()));
}

/** The number a list carries: the true one, one digit off, two digits swapped, or another company's. */
function listedNumber(bno: string, acc: Account, r: Rand, used: Set<string>): { bno: string; error: 'none' | 'typo' | 'swap' | 'other' } {
  const u = r();
  const { typo, swap, other } = acc.bnoErr;
  if (u < typo) {
    for (;;) {
      const i = int(r, 0, 9);
      const d = (Number(bno[i]) + int(r, 1, 9)) % 10;
      const wrong = `${bno.slice(0, i)}${d}${bno.slice(i + 1)}`;
      if (!used.has(wrong)) {
        used.add(wrong);
        return { bno: wrong, error: 'typo' };
      }
    }
  }
  if (u < typo + swap) {
    // a transposition the check digit lets through lands on another registration
    for (let i = 0; i < 9; i++) {
      const s = `${bno.slice(0, i)}${bno[i + 1]}${bno[i]}${bno.slice(i + 2)}`;
      if (s !== bno && checkDigitOf(s.slice(0, 9)) === Number(s[9]) && !used.has(s)) {
        used.add(s);
        return { bno: s, error: 'swap' };
      }
    }
  }
  if (u < typo + swap + other) return { bno: newBno(bno.slice(0, 3), pick(r, ['corp', 'indiv'] as const), '01', r, used), error: 'other' };
  return { bno, error: 'none' };
}

// ---- a row: who, where, what became of them ----

interface Ctx {
  acc: Account;
  trade: TradeKey;
  entity: Entity;
  tax: string;
  b: Building;
  home: boolean;
  /** years since the address was copied */
  listAge: number;
  registered: boolean;
  /** franchise: a former franchisee, and since when */
  ex: boolean;
  exAgo: number;
  offSeason: boolean;
}

type Fate = 'here' | 'suspended' | 'shut' | 'moved' | 'closed' | 'successor' | 'converted' | 'home' | 'independent';
interface Life {
  fate: Fate;
  nts: Stt;
  /** years since the closure date NTS holds */
  endAgo: number | null;
  /** who is at the premises now, for a business that left them */
  now: 'same' | 'relet' | 'empty' | 'demolished';
  vacated: number | null;
  forwarded: boolean;
  local: boolean;
  filed: 'filed' | 'late' | 'unfiled' | '-';
}

const CLOSE_BY_DISTRICT: Readonly<Record<District, number>> = { c: 1.05, r: 1, n: 1.1, i: 0.95, o: 1.25, t: 1.1, m: 1, f: 0.8 };
// how fast vacated premises find a new occupant, per year
const RELET: Readonly<Record<Kind, number>> = { shop: 1.2, market: 0.45, office: 1.0, officetel: 2.2, kic: 0.9, factory: 0.7, apt: 3, villa: 2.5, house: 1.5 };
const RELET_AREA = { metro: 1.3, city: 1, eup: 0.55, myeon: 0.35 } as const;
const RELET_DISTRICT: Readonly<Record<District, number>> = { c: 1.3, r: 1.1, n: 1.1, i: 1, o: 0.55, t: 0.8, m: 1, f: 0.6 };

const rural = (b: Building): 0 | 1 | 2 => (b.emd.area === 'myeon' ? 2 : b.emd.area === 'eup' ? 1 : 0);

function premisesAfter(b: Building, vacated: number, r: Rand): Life['now'] {
  if (b.gone) return 'demolished';
  const rate = RELET[b.kind] * RELET_AREA[b.emd.area] * RELET_DISTRICT[b.emd.district];
  return r() < 1 - Math.exp(-rate * vacated) ? 'relet' : 'empty';
}

/** When a closure reaches NTS: filed at once, closed by the tax office later (직권폐업), or not yet. */
function filing(c: Ctx, closedAgo: number, r: Rand): Pick<Life, 'nts' | 'endAgo' | 'filed'> {
  const p = c.entity === 'corp' ? 0.5 : c.entity === 'branch' ? 0.9 : c.entity === 'nonprofit' ? 0.6 : c.tax === '02' || c.tax === '07' ? 0.6 : c.tax === '04' ? 0.8 : 0.75;
  if (r() < p) return { nts: '03', endAgo: closedAgo, filed: 'filed' };
  // a dormant corporation lingers longer than a shop that stopped filing VAT
  const lag = c.entity === 'corp' ? 1.5 + expo(r, 0.4) : 0.5 + expo(r, 1);
  if (closedAgo > lag) return { nts: '03', endAgo: closedAgo - lag, filed: 'late' };
  return { nts: r() < 0.25 ? '02' : '01', endAgo: null, filed: 'unfiled' };
}

const still = (fate: Fate, nts: Stt): Life => ({ fate, nts, endAgo: null, now: 'same', vacated: null, forwarded: false, local: false, filed: '-' });

/** Open at the address: working, 휴업, or shut for the season. */
function stayed(c: Ctx, r: Rand): Life {
  const t = TRADES[c.trade];
  if (t.seasonal && c.b.emd.district === 't' && c.offSeason && r() < 0.35) return still('shut', r() < 0.3 ? '02' : '01');
  if (r() < 0.012 + (c.acc.key === 'agency' ? 0.01 : 0) + (c.trade === 'lodging' ? 0.03 : 0)) return still('suspended', '02');
  return still('here', '01');
}

function left(c: Ctx, fate: 'moved' | 'closed', vacated: number, nts: Pick<Life, 'nts' | 'endAgo' | 'filed'>, r: Rand): Life {
  const forwarded = fate === 'moved' && (vacated < 0.25 ? r() < 0.35 : vacated < 1 ? r() < 0.12 : false);
  const local = fate === 'moved' && rural(c.b) > 0 && r() < 0.45;
  return { fate, ...nts, now: premisesAfter(c.b, vacated, r), vacated, forwarded, local };
}

/** What became of the business over `horizon` years from when the list copied its address. */
function lifeOf(c: Ctx, horizon: number, r: Rand): Life {
  const t = TRADES[c.trade];
  const b = c.b;
  // young businesses close more: the business's age when copied is hidden
  const age = r();
  const hc = t.close * (age < 0.25 ? 1.6 : age > 0.65 ? 0.7 : 1) * CLOSE_BY_DISTRICT[b.emd.district] * (c.entity === 'corp' ? 0.8 : c.entity === 'branch' ? 1.3 : 1) * (c.acc.key === 'franchise' ? 0.7 : 1);
  const hm = t.move * (c.entity === 'corp' ? 1.2 : c.entity === 'branch' ? 0.8 : 1) * (b.kind === 'kic' || b.kind === 'officetel' ? 1.3 : 1);
  let tc = expo(r, hc);
  let tm = expo(r, hm);
  if (b.gone) {
    // the building came down after the list copied it: whoever was in it had left
    const td = horizon * (0.2 + 0.7 * r());
    if (r() < 0.6) tm = Math.min(tm, td);
    else tc = Math.min(tc, td);
  }
  if (Math.min(tc, tm) >= horizon) return stayed(c, r);
  if (tm < tc) {
    // the supplier hears of most moves: its row then carries the new address
    if (!b.gone && r() < c.acc.hearsOfMoves) return stayed(c, r);
    const later = tm + expo(r, hc);
    const nts = later < horizon ? filing(c, horizon - later, r) : { nts: '01' as const, endAgo: null, filed: '-' as const };
    return left(c, 'moved', horizon - tm, nts, r);
  }
  const closedAgo = horizon - tc;
  if (!b.gone && ['restaurant', 'cafe', 'beauty', 'retail', 'lodging'].includes(c.trade) && ['shop', 'market', 'house'].includes(b.kind) && r() < 0.2) {
    // sold as a going concern: the new owner keeps the name on the sign
    return { ...still('successor', '03'), endAgo: closedAgo, filed: 'filed' };
  }
  if (!b.gone && c.entity === 'indiv' && ['maker', 'wholesale', 'builder', 'it', 'logistics'].includes(c.trade) && r() < 0.25) {
    return { ...still('converted', '03'), endAgo: closedAgo, filed: 'filed' };
  }
  const nts = filing(c, closedAgo, r);
  if (c.home && c.entity === 'indiv' && !b.gone && r() < 0.7) return { ...still('home', nts.nts), ...nts };
  return left(c, 'closed', closedAgo, nts, r);
}

/** A franchise row: a store now, or a store that left the chain `exAgo` years ago. */
function franchiseLife(c: Ctx, r: Rand): Life {
  if (!c.ex) return lifeOf(c, c.listAge, r);
  const u = r();
  if (u < 0.45) return left(c, 'closed', c.exAgo, r() < 0.85 ? { nts: '03', endAgo: c.exAgo, filed: 'filed' } : filing(c, c.exAgo, r), r);
  if (u < 0.75) return { ...still('successor', '03'), endAgo: c.exAgo, filed: 'filed' };
  // kept trading under its own sign; its later life is an ordinary shop's
  const after = lifeOf(c, c.exAgo, r);
  return after.fate === 'here' ? { ...after, fate: 'independent' } : after;
}

// ---- what Korea Post does with the letter ----

// how much a carrier needs the 동/호 to find a business in a building of this kind
const UNIT_NEED: Readonly<Record<Kind, number>> = { apt: 0.55, officetel: 0.45, kic: 0.3, villa: 0.25, office: 0.12, market: 0.08, shop: 0.03, house: 0, factory: 0 };
// how often a new occupant (no management office) sends a stranger's letter back rather than binning it
const RELET_RETURN: Readonly<Record<Kind, number>> = { shop: 0.42, market: 0.3, house: 0.5, villa: 0.5, apt: 0.55, officetel: 0.6, office: 0.62, kic: 0.6, factory: 0.45 };
const PRESENT: readonly Fate[] = ['here', 'suspended', 'shut', 'successor', 'converted', 'independent', 'home'];

/** 주소불명/주소불충분: the carrier cannot place the letter. */
function placement(c: Ctx, life: Life, w: Written): number {
  const b = c.b;
  const ru = rural(b);
  if (b.gone) return 0.92;
  const present = PRESENT.includes(life.fate);
  // a signboard, or a village round where everyone is known, places a damaged address
  const known = present && c.trade !== 'online' && (['shop', 'market', 'factory'].includes(b.kind) || ru === 2);
  const parts: number[] = [];
  let numberPart = 0;
  if (w.number === 'missing') numberPart = w.named ? [0.1, 0.06, 0.03][ru]! : [0.55, 0.3, 0.12][ru]!;
  else if (w.number === 'wrongAbsent') numberPart = (w.named ? 0.35 : 1) * [0.45, 0.22, 0.1][ru]!;
  else if (w.number === 'wrongOther') numberPart = [0.38, 0.2, 0.1][ru]!;
  parts.push(numberPart * (known ? (ru > 0 ? 0.4 : 0.7) : 1));
  if (w.roadName === 'typo') parts.push(w.zip === '5' ? 0.02 : [0.07, 0.04, 0.02][ru]!);
  if (w.roadName === 'former') parts.push(0.01);
  if (w.region === 'noSigungu') parts.push(w.zip === '5' ? 0.005 : 0.04);
  if (w.region === 'old') parts.push(0.01);
  if (w.region === 'noSido') parts.push(0.005);
  if (w.zip === 'wrong') parts.push(0.04);
  if (w.zip === '6') parts.push(0.01);
  if (w.form === 'jibun') parts.push(0.012);
  if (w.unit === 'missing' || w.unit === 'partial') {
    let need = UNIT_NEED[b.kind] * (w.unit === 'partial' ? 0.6 : 1);
    if (c.registered) need *= 1.3;
    // a rural block of flats: the carrier knows the households
    if (ru > 0 && b.kind === 'apt') need *= 0.5;
    // a tenant board in the lobby, a mail room that sorts by company
    if (present && !c.home && (b.kind === 'office' || b.kind === 'kic')) need *= 0.7;
    if (present && b.managed && b.kind !== 'apt') need *= 0.8;
    parts.push(Math.min(need, 0.8));
  }
  let q = 1 - parts.reduce((s, x) => s * (1 - x), 1);
  // two faults together defeat the sorting machine and the carrier's guess alike
  if (parts.filter((x) => x >= 0.015).length >= 2) q = Math.min(0.97, q * 1.35);
  return q;
}

/** 폐문부재 of registered mail at an open business: nobody to sign. */
function signFail(c: Ctx): number {
  const b = c.b;
  if (c.home) {
    let q = ({ apt: 0.2, villa: 0.28, house: 0.24, officetel: 0.3 } as Partial<Record<Kind, number>>)[b.kind] ?? 0.2;
    // the 경비실 signs for residents of a managed complex; a village neighbour takes it
    if (b.kind === 'apt' && b.managed) q *= 0.55;
    if (rural(b) === 2) q *= 0.6;
    return q;
  }
  let q = TRADES[c.trade].away;
  if (b.kind === 'market') q *= 1.3;
  if (c.trade === 'lodging' && c.offSeason) q *= 3;
  return Math.min(q, 0.6);
}

/** 수취인불명/이사불명/폐문부재: nobody at the address takes the letter. */
function absence(c: Ctx, life: Life): number {
  const b = c.b;
  const ru = rural(b);
  const reg = c.registered;
  switch (life.fate) {
    case 'here':
      return reg ? signFail(c) : 0;
    case 'shut':
    case 'suspended':
      return reg ? 0.82 : [0.15, 0.1, 0.06][ru]!;
    case 'successor':
      // a letter to the old owner at a shop that kept its name: the new owner mostly takes it
      return reg ? 0.22 : c.acc.key === 'franchise' ? 0.1 : 0.03;
    case 'converted':
      return reg ? 0.06 : 0.015;
    case 'independent':
      // the brand is off the sign: the carrier knows the shop, the letter names another
      return [0.16, 0.1, 0.05][ru]!;
    case 'home':
      return reg ? signFail(c) + 0.05 : 0.04;
    case 'moved':
    case 'closed': {
      if (life.forwarded) return reg ? 0.1 : 0.04;
      let q: number;
      if (life.now === 'demolished') q = 0.95;
      else if (life.now === 'relet') q = reg ? 0.93 : Math.min(0.95, (b.managed ? 0.88 : RELET_RETURN[b.kind]) * (c.acc.key === 'franchise' ? 1.25 : 1));
      else q = reg ? 0.96 : [0.55, 0.4, 0.25][ru]!;
      // a village carrier hands a local mover's letter on
      if (life.local) q *= 0.4;
      return q;
    }
  }
  return 0;
}

/** 수취거절: who refuses what. */
function refusal(c: Ctx, life: Life): number {
  switch (c.acc.key) {
    case 'supplier':
      return life.fate === 'home' || life.fate === 'converted' ? 0.03 : 0.002;
    case 'agency':
      return life.fate === 'here' ? 0.008 : life.fate === 'home' ? 0.07 : life.fate === 'successor' ? 0.06 : 0.02;
    case 'franchise':
      return !c.ex ? 0.003 : life.fate === 'independent' ? 0.12 : life.fate === 'home' ? 0.1 : 0.04;
    case 'leads':
      return 0.012 + (c.b.managed && (c.b.kind === 'office' || c.b.kind === 'kic') ? 0.03 : 0);
  }
  return 0;
}

function reasonOf(parts: { place: number; absent: number; refuse: number; other: number }, c: Ctx, life: Life, w: Written, r: Rand): string {
  const k = weighted(r, parts);
  if (k === 'place') return w.number === 'missing' || w.unit === 'missing' || w.unit === 'partial' ? '주소불충분' : '주소불명';
  if (k === 'refuse') return '수취거절';
  if (k === 'other') return '기타';
  if (life.fate === 'moved') return life.now === 'relet' ? '수취인불명' : '이사불명';
  if (life.fate === 'closed') return life.now === 'relet' ? '수취인불명' : c.registered ? '폐문부재' : '이사불명';
  if (life.fate === 'successor' || life.fate === 'independent') return '수취인불명';
  return '폐문부재';
}

// ---- names ----

function fill(pattern: string, b: Building, r: Rand): string {
  return pattern.replace(/\{([spfngdm])\}/g, (_, k: string) => {
    switch (k) {
      case 's': return pick(r, STEMS);
      case 'p': return r() < 0.6 ? b.emd.stem : b.emd.region.stem;
      case 'f': return pick(r, LOANWORDS);
      case 'n': return pick(r, SURNAMES);
      case 'g': return pick(r, GIVEN);
      case 'd': return pick(r, FOOD);
      default: return pick(r, DEPT);
    }
  });
}

function nameOf(c: Ctx, brand: string | null, r: Rand): string {
  const b = c.b;
  if (brand) return `${brand} ${r() < 0.8 ? b.emd.stem : `${b.emd.region.stem}${b.emd.stem}`}${r() < 0.15 ? '역' : ''}점`;
  // a corporation is not named after a person
  const patterns = TRADES[c.trade].names.split(' ').filter((x) => c.entity === 'indiv' || !x.includes('{n}'));
  const base = fill(pick(r, patterns), b, r);
  if (c.entity === 'nonprofit') return r() < 0.3 ? `사단법인 ${base}` : base;
  if (c.entity === 'indiv') return base;
  const corp = pick(r, c.acc.corpForms).replace('{x}', base);
  return c.entity === 'branch' ? `${corp} ${b.emd.region.stem}${pick(r, ['지점', '영업소', '공장', '출장소', '사업소'])}` : corp;
}

// ---- choosing a building ----

function chooseBuilding(places: Places, acc: Account, trade: TradeKey, kind: Kind, listAge: number, r: Rand): Building {
  const t = TRADES[trade];
  const candidates = places.byKind.get(kind) ?? places.byKind.get('shop')!;
  for (let tries = 0; ; tries++) {
    const b = pick(r, candidates);
    // a building demolished since must have stood when the list copied it
    if (b.gone && listAge < 0.8) continue;
    const w = (acc.sido[b.emd.region.sido] ?? acc.other) * (t.where[b.emd.district] ?? t.elsewhere ?? 1);
    if (r() * 8 < w || tries > 2000) return b;
  }
}

const bucketOf = (years: number | null): string => (years === null ? '-' : years < 0.5 ? '<6m' : years < 1 ? '6-12m' : years < 2 ? '1-2y' : years < 4 ? '2-4y' : '4y+');

interface Made { mailing: Mailing; record: NtsRecord }

function rowOf(places: Places, acc: Account, a: number, asOf: Date, r: Rand, used: Set<string>): Made {
  const now = asOf.getUTCFullYear() + asOf.getUTCMonth() / 12;
  const month = asOf.getUTCMonth();
  const brand = acc.key === 'franchise' ? pick(r, BRANDS) : null;
  const trade: TradeKey = brand ? brand.trade : weighted(r, acc.mix);
  const t = TRADES[trade];
  const ex = acc.key === 'franchise' && r() < 0.35;
  const exAgo = ex ? 0.05 + 2.95 * r() : 0;
  // an ex-franchisee's address was copied when the contract was signed
  const listAge = ex ? exAgo + 1 + 5 * r() : acc.listAge(r);
  let kind = weighted(r, t.kinds);
  const corpish = trade === 'assoc' || r() < t.corp * (brand ? 0.2 : 1);
  if (corpish && ['apt', 'villa', 'house'].includes(kind) && trade !== 'farm' && r() < 0.6) kind = pick(r, ['office', 'officetel'] as const);
  const b = chooseBuilding(places, acc, trade, kind, listAge, r);
  const entity: Entity = trade === 'assoc' ? 'nonprofit' : corpish ? (r() < acc.branchShare ? 'branch' : 'corp') : 'indiv';
  const tax = entity === 'nonprofit' ? pick(r, ['05', '06']) : entity !== 'indiv' ? '01' : r() < t.exempt ? '04' : r() < t.simple ? (r() < 0.2 ? '07' : '02') : '01';
  const home = ['apt', 'villa', 'house'].includes(b.kind) && entity === 'indiv' && trade !== 'lodging' && trade !== 'farm' ? true : b.kind === 'officetel' && entity === 'indiv' && r() < 0.35;
  const c: Ctx = {
    acc, trade, entity, tax, b, home, listAge, ex, exAgo,
    // a letter to a disputing ex-franchisee goes as 내용증명
    registered: acc.registered || (ex && r() < 0.3),
    offSeason: month >= 10 || month <= 2,
  };
  const life = acc.key === 'franchise' ? franchiseLife(c, r) : lifeOf(c, listAge, r);
  const trueBno = newBno(b.emd.region.taxOffice, entity, tax, r, used);
  const listed = listedNumber(trueBno, acc, r, used);
  const record = listed.error === 'typo' ? unregisteredRecord(listed.bno)
    : listed.error === 'none' ? ntsRecord(trueBno, life.nts, tax, life.endAgo === null ? '' : dateAgo(asOf, life.endAgo))
      : strangerRecord(listed.bno, r, asOf);
  const w = writeAddress(places, b, unitIn(b, r), acc.style, r, now - listAge);
  const parts = { place: placement(c, life, w), absent: absence(c, life), refuse: refusal(c, life), other: 0.004 + (acc.key === 'leads' ? 0.004 : 0) + (c.registered ? 0.002 : 0) };
  const p = Math.min(0.995, Math.max(0.002, 1 - (1 - parts.place) * (1 - parts.absent) * (1 - parts.refuse) * (1 - parts.other)));
  const bounced = r() < p;
  const ntsAgo = record.b_stt_cd === '03' ? (asOf.getTime() - Date.parse(`${record.end_dt.slice(0, 4)}-${record.end_dt.slice(4, 6)}-${record.end_dt.slice(6, 8)}`)) / (365.25 * 86_400_000) : null;
  const truth: Record<string, string | number | boolean> = {
    // visible: the list, the NTS answer, the directory
    nts: record.b_stt_cd === '' ? '-' : record.b_stt_cd, closedAgo: bucketOf(ntsAgo), tax: record.tax_type_cd || '-', entity: entityOf(listed.bno),
    trade, kind: b.kind, area: b.emd.area, district: b.emd.district, form: w.form, region: w.region, roadName: w.roadName,
    // a wrong number that is another building's looks like a good one
    number: w.number === 'wrongOther' ? 'ok' : w.number, unit: w.unit, zip: w.zip, site: b.gone ? 'gone' : 'standing', named: w.named,
    // hidden
    sido: b.emd.region.sido, trueEntity: entity, bnoError: listed.error, trueNts: life.nts, listAge: Math.round(listAge * 10) / 10, fate: life.fate, now: life.now,
    vacatedAgo: life.vacated === null ? -1 : Math.round(life.vacated * 10) / 10, filed: life.filed, forwarded: life.forwarded, localMove: life.local,
    home, managed: b.managed, registered: c.registered, exFranchisee: ex, numberTruth: w.number,
    pPlace: Math.round(parts.place * 1000) / 1000, pAbsent: Math.round(parts.absent * 1000) / 1000, pRefuse: Math.round(parts.refuse * 1000) / 1000,
    reason: bounced ? reasonOf(parts, c, life, w, r) : '-',
  };
  return { mailing: { account: a, bno: listed.bno, name: nameOf(c, brand?.name ?? null, r), address: w.text, truth, p, bounced }, record };
}

export const THIRD_VISIBLE = ['nts', 'closedAgo', 'tax', 'entity', 'trade', 'kind', 'area', 'district', 'form', 'region', 'roadName', 'number', 'unit', 'zip', 'site', 'named'] as const;

const POOL_ROWS = 2_500;
const TEST_ROWS = 1_500;

/** The third world for a seed, as of a day: its directory, registry and four customers' lists. */
export function buildThirdWorld(seed: number, asOf: Date): IndependentWorld {
  const places = buildPlaces(seed);
  const r = seededRandom(seed * 104_729 + 17);
  const used = new Set<string>();
  const records = new Map<string, NtsRecord>();
  const pool: Mailing[][] = [];
  const test: Mailing[][] = [];
  ACCOUNTS.forEach((acc, a) => {
    const rows: Mailing[] = [];
    for (let i = 0; i < POOL_ROWS + TEST_ROWS; i++) {
      const { mailing, record } = rowOf(places, acc, a, asOf, r, used);
      records.set(record.b_no, record);
      rows.push(mailing);
    }
    pool.push(rows.slice(0, POOL_ROWS));
    test.push(rows.slice(POOL_ROWS));
  });
  return {
    name: 'third',
    description: 'a third world written apart: 영남·호남·충청 map, a supplier, a registered-mail agency, a franchise HQ and trade-fair leads',
    visible: THIRD_VISIBLE,
    accounts: ACCOUNTS.map((x) => x.name),
    directoryLines: places.directoryLines,
    relatedLines: places.relatedLines,
    records,
    pool,
    test,
  };
}
