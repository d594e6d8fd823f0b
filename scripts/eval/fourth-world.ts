// A fourth evaluation world, written apart from the bounce model (and from the other worlds'
// processes): four customers whose lists differ in kind, and what Korea Post does with a letter to
// each row. `node scripts/eval-model.ts --worlds fourth` runs it.
//
// The map is third-places.ts's (on its own seed stream). The customers:
//  0 card     a card company's statements to its corporate clients: 법인 본점·지점 in towers, 지식산업센터,
//             factories, a few sole traders; a fresh list, clean addresses, REGISTERED mail (someone
//             must sign: a mail room signs for everyone, a one-person office or a home is often out).
//  1 city     창원시청's levy and permit notices to small businesses of its own five 구 from a registry
//             1–3 years old: market stalls, 식당, 미용실, 세탁소, street-stall-like shops (some never
//             registered with NTS, some under a number the form got wrong); mostly ordinary mail,
//             독촉 by registered mail. The carrier knows the district; the 상인회 knows the market.
//  2 trial    a B2B software start-up's free-trial sign-ups: online sellers working from home,
//             officetels, 비상주 shared offices, small corporations; addresses typed by the sign-up
//             (typos, no 동/호, junk) and numbers typed too (some mistyped); ordinary mail.
//  3 supplier a food distributor's restaurants supplied over five years (the list row is the last
//             delivery): heavy churn, 양도양수 with the name kept (the old number is 폐업 but the
//             sign still reads the same), 권리금 handovers to a new name, empty shops; drivers'
//             addresses (지번, building names only, notes); ordinary mail, 내용증명 for unpaid bills.
//
// What happens to a letter (hidden): the carrier must place it (no or wrong number, building name
// only, no 동/호 in an apartment or officetel, a demolished building, a misrouting postal code;
// rural carriers and signboards of businesses still there rescue much of it), then meet the
// addressee (present; shut by 휴업; gone with the premises empty, re-let, sold with the name, the
// owner still living at home, a shared office whose contract ended, mail forwarded after a move),
// and registered mail needs a signature. A few letters are refused or lost.

import { checkDigitOf } from '../../src/domain/bizno.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';
import type { NtsRecord } from '../../src/domain/status.ts';
import { unregisteredRecord } from '../../src/registry/sandbox.ts';
import { GIVEN, SURNAMES } from './independent-names.ts';
import type { IndependentWorld, Mailing } from './independent-world.ts';
import { type Building, buildPlaces, int, type Kind, pick, type Places, type Rand, STEMS, type Style, type Unit, unitIn, weighted, writeAddress, type Written } from './third-places.ts';

const ACCOUNTS = ['card', 'city', 'trial', 'supplier'] as const;
type Account = 0 | 1 | 2 | 3;
const POOL = 2_500;
const TEST = 1_500;

/** What someone holding the list, the NTS answers and the directory could know. */
const VISIBLE = ['nts', 'entity', 'tax', 'utcc', 'trade', 'premise', 'kind', 'rural', 'damage', 'unitMissing', 'form', 'zip', 'region', 'named', 'closedAgo'] as const;

type Entity = 'corp' | 'branch' | 'indiv' | 'exempt' | 'nonprofit';
type Premise = 'tower' | 'office' | 'shop' | 'stall' | 'home' | 'shared' | 'factory';
type Successor = 'none' | 'vacant' | 'other' | 'sameName' | 'owner' | 'operator' | 'forwarded' | 'demolished';

// ---------------------------------------------------------------- names

const CORP_WORDS = ['테크', '산업', '건설', '물산', '엔지니어링', '시스템', '전자', '화학', '로지스틱스', '푸드', '제약', '에너지', '정밀', '글로벌', '상사', '개발', '기계', '소재', '바이오', '네트웍스'];
const BRANCH_WORDS = ['지점', '영업소', '사업소', '공장', '출장소', '지사'];
const STALL_WORDS = ['상회', '수산', '청과', '정육점', '떡집', '건어물', '반찬', '방앗간', '그릇', '양품점', '신발', '이불', '한복', '젓갈', '잡곡', '야채'];
const FOOD_WORDS = ['국밥', '칼국수', '식당', '순대', '돼지국밥', '횟집', '갈비', '분식', '김밥', '반점', '치킨', '호프', '밀면', '아구찜', '곱창', '족발', '보쌈', '짬뽕', '돈까스', '초밥', '닭갈비', '숯불갈비', '가든', '회관', '식육식당', '카페'];
const HAIR = [(s: string) => `${s}헤어`, (s: string) => `헤어${s}`, (s: string) => `${s}미용실`, (s: string) => `${s}헤어살롱`];
const ONLINE_WORDS = ['샵', '스토어', '마켓', '몰', '랩', '스튜디오', '컴퍼니', '디자인', '굿즈', '리빙', '패션', '뷰티', '펫', '키친', '트레이딩'];
const LATIN = ['ABC', 'JK', 'MJ', 'K', 'SH', 'DN', 'TOP', 'ONE', 'J&B', 'H2'];

function corpName(r: Rand, stem: string, word: string): string {
  const u = r();
  return u < 0.4 ? `(주)${stem}${word}` : u < 0.65 ? `주식회사 ${stem}${word}` : u < 0.85 ? `${stem}${word}(주)` : u < 0.93 ? `㈜${stem}${word}` : `(유)${stem}${word}`;
}
const person = (r: Rand): string => `${pick(r, SURNAMES)}${pick(r, GIVEN)}`;

function restaurantName(r: Rand, placeStem: string): string {
  const u = r();
  const word = pick(r, FOOD_WORDS);
  if (u < 0.18) return `${pick(r, ['할매', '원조', '옛날', '시골', '엄마손'])}${word}`;
  if (u < 0.3) return `${pick(r, SURNAMES)}씨네${word}`;
  if (u < 0.42) return `${placeStem}${word}`;
  if (u < 0.5) return `${pick(r, STEMS)}${word} ${placeStem}점`;
  return `${pick(r, STEMS)}${word}`;
}

// ---------------------------------------------------------------- numbers and records

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

class Numbers {
  private readonly used = new Set<string>();
  private readonly r: Rand;
  constructor(r: Rand) {
    this.r = r;
  }
  make(office: string, entity: Entity): string {
    for (;;) {
      const code = entity === 'corp' ? pick(this.r, ['81', '81', '81', '86', '87'])
        : entity === 'branch' ? '85'
          : entity === 'nonprofit' ? pick(this.r, ['82', '82', '89'])
            : entity === 'exempt' ? pad(int(this.r, 90, 96), 2)
              : pad(int(this.r, 1, 79), 2);
      const nine = `${office}${code}${pad(int(this.r, 0, 9999), 4)}`;
      const bno = nine + String(checkDigitOf(nine));
      if (!this.used.has(bno)) {
        this.used.add(bno);
        return bno;
      }
    }
  }
  has(bno: string): boolean {
    return this.used.has(bno);
  }
  claim(bno: string): void {
    this.used.add(bno);
  }
}

/** A number as a person mistypes it: one digit wrong, or two neighbours swapped. */
function mistype(bno: string, r: Rand): string {
  for (;;) {
    const d = bno.split('');
    if (r() < 0.5) {
      const i = int(r, 0, 8);
      [d[i], d[i + 1]] = [d[i + 1]!, d[i]!];
    } else {
      const i = int(r, 0, 9);
      d[i] = String((Number(d[i]) + int(r, 1, 9)) % 10);
    }
    const out = d.join('');
    if (out !== bno) return out;
  }
}

const STT: Record<'01' | '02' | '03', string> = { '01': '계속사업자', '02': '휴업자', '03': '폐업자' };
const TAX: Record<string, string> = {
  '01': '부가가치세 일반과세자', '02': '부가가치세 간이과세자', '04': '부가가치세 면세사업자',
  '05': '수익사업을 영위하지 않는 비영리법인이거나 고유번호가 부여된 단체,국가기관 등', '07': '부가가치세 간이과세자(세금계산서 발급사업자)',
};

function record(bno: string, status: '01' | '02' | '03', taxCd: string, endDt: string, utcc: boolean): NtsRecord {
  return {
    b_no: bno, b_stt: STT[status], b_stt_cd: status, tax_type: TAX[taxCd]!, tax_type_cd: taxCd, end_dt: status === '03' ? endDt : '',
    utcc_yn: utcc ? 'Y' : 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
  };
}

const ymd = (asOf: Date, yearsAgo: number): string => new Date(asOf.getTime() - yearsAgo * 365.25 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');

function ageBucket(years: number): string {
  return years < 0.5 ? '<6m' : years < 1 ? '6-12m' : years < 2 ? '1-2y' : years < 3 ? '2-3y' : '3y+';
}

// ---------------------------------------------------------------- how each list writes

const STYLES: Record<Account, Style> = {
  0: { jibun: 0.04, sidoShort: 0.3, sidoNone: 0.02, sigunguDrop: 0.01, sigunguPart: 0.1, keepOld: 0.3, habitOld: 0.01, roadTypo: 0.01, noNumber: 0.01, wrongNumber: 0.015, unitDrop: 0.06, unitPartial: 0.04, unitShort: 0.2, zip5: 0.75, zip6: 0.02, zipWrong: 0.01, named: 0.6, paren: 0.5, noise: 0.02 },
  1: { jibun: 0.35, sidoShort: 0.2, sidoNone: 0.12, sigunguDrop: 0.02, sigunguPart: 0.3, keepOld: 0.5, habitOld: 0.06, roadTypo: 0.03, noNumber: 0.04, wrongNumber: 0.03, unitDrop: 0.35, unitPartial: 0.1, unitShort: 0.3, zip5: 0.2, zip6: 0.25, zipWrong: 0.02, named: 0.45, paren: 0.2, noise: 0.05 },
  2: { jibun: 0.08, sidoShort: 0.6, sidoNone: 0.1, sigunguDrop: 0.05, sigunguPart: 0.2, keepOld: 0.1, habitOld: 0.05, roadTypo: 0.15, noNumber: 0.06, wrongNumber: 0.08, unitDrop: 0.15, unitPartial: 0.07, unitShort: 0.5, zip5: 0.3, zip6: 0.02, zipWrong: 0.1, named: 0.3, paren: 0.05, noise: 0.3 },
  3: { jibun: 0.4, sidoShort: 0.6, sidoNone: 0.15, sigunguDrop: 0.08, sigunguPart: 0.3, keepOld: 0.7, habitOld: 0.1, roadTypo: 0.08, noNumber: 0.1, wrongNumber: 0.07, unitDrop: 0.4, unitPartial: 0.1, unitShort: 0.4, zip5: 0.1, zip6: 0.2, zipWrong: 0.05, named: 0.35, paren: 0.05, noise: 0.15 },
};

const SUPPLIER_NOTES = ['(1층)', '1층 식당', '(후문)', '주차장 옆', '(납품 오전)', '2층 매장', '(뒷문 주방)', '시장 내', '(사장님 010-****)'];

interface Address { text: string; w: Written | null; shape: 'written' | 'nameOnly' | 'junk' }

function writeRow(p: Places, b: Building, unit: Unit | null, a: Account, r: Rand, captured: number): Address {
  const e = b.emd;
  // a building's name and its 동 alone: drivers and market registries write it so
  if ((a === 3 || a === 1) && b.name !== '' && ['market', 'office', 'officetel', 'kic', 'shop'].includes(b.kind) && r() < (a === 3 ? 0.1 : 0.06)) {
    const sido = r() < 0.5 ? '' : /^(경상|전라|충청)(남|북)도$/.test(e.region.sido) ? `${e.region.sido[0]}${e.region.sido[2]}` : e.region.sido.slice(0, 2);
    const u = unit ? (r() < 0.6 ? unit.full : '') : '';
    return { text: [sido, e.region.sigungu, e.name, e.ris.length > 0 ? b.ri : '', b.name, u, a === 3 && b.kind === 'market' ? '내' : ''].filter(Boolean).join(' '), w: null, shape: 'nameOnly' };
  }
  // a sign-up that typed a place, not an address
  if (a === 2 && r() < 0.025) {
    const t = r() < 0.5 ? `${e.region.sido.slice(0, 2)} ${e.region.sigungu}` : `${e.region.sigungu} ${e.name}${b.name ? ` ${b.name}` : ''}`;
    return { text: t.trim(), w: null, shape: 'junk' };
  }
  const w = writeAddress(p, b, unit, STYLES[a], r, captured);
  let text = w.text;
  if (a === 3 && r() < 0.18) text = `${text} ${pick(r, SUPPLIER_NOTES)}`;
  if (a === 2 && r() < 0.05) text = text.replace(/ /g, (m) => (r() < 0.3 ? '' : m));
  return { text, w, shape: 'written' };
}

// ---------------------------------------------------------------- the businesses on each list

interface Biz {
  entity: Entity;
  trade: string;
  premise: Premise;
  name: string;
  b: Building;
  unit: Unit | null;
  /** runs evenings only (registered mail finds it shut in the morning) */
  evening: boolean;
  taxCd: string;
}

const kindsFor: Record<Account, Partial<Record<Kind, number>>> = {
  0: { office: 45, kic: 16, officetel: 8, factory: 16, shop: 15 },
  1: { market: 34, shop: 44, house: 10, villa: 4, officetel: 3, office: 5 },
  2: { apt: 24, villa: 14, officetel: 26, office: 10, kic: 12, house: 6, shop: 8 },
  3: { shop: 62, market: 13, house: 10, villa: 4, office: 5, kic: 2, factory: 4 },
};

function chooseBuilding(r: Rand, pool: Map<Kind, Building[]>, kinds: Partial<Record<Kind, number>>, allowGone: number): Building {
  for (;;) {
    const k = weighted(r, kinds);
    const list = pool.get(k);
    if (!list || list.length === 0) continue;
    const b = pick(r, list);
    if (b.gone && r() > allowGone) continue;
    return b;
  }
}

function taxFor(r: Rand, entity: Entity, small: number): string {
  if (entity === 'corp' || entity === 'branch') return '01';
  if (entity === 'nonprofit') return '05';
  if (entity === 'exempt') return '04';
  return r() < small ? (r() < 0.25 ? '07' : '02') : '01';
}

function makeBiz(a: Account, r: Rand, pool: Map<Kind, Building[]>, sharedUnits: Map<string, Unit | null>): Biz {
  const kinds = kindsFor[a];
  const allowGone = a === 0 ? 0.1 : a === 2 ? 0.3 : 1;
  const b = chooseBuilding(r, pool, kinds, allowGone);
  const place = b.emd.stem;
  let unit = unitIn(b, r);
  let entity: Entity = 'indiv';
  let trade: string;
  let premise: Premise;
  let name: string;
  let evening = false;
  if (a === 0) {
    const u = r();
    entity = b.kind === 'shop' ? (u < 0.55 ? 'indiv' : u < 0.8 ? 'branch' : 'corp') : u < 0.55 ? 'corp' : u < 0.82 ? 'branch' : u < 0.93 ? 'indiv' : 'nonprofit';
    if (b.kind === 'factory') entity = u < 0.6 ? 'corp' : u < 0.9 ? 'branch' : 'indiv';
    trade = b.kind === 'factory' ? 'manufacturing' : b.kind === 'kic' ? 'tech' : b.kind === 'shop' ? pick(r, ['retail', 'clinic', 'retail']) : pick(r, ['services', 'tech', 'trading', 'construction']);
    if (entity === 'indiv' && trade === 'clinic') entity = 'exempt';
    const stem = pick(r, STEMS);
    const word = trade === 'manufacturing' ? pick(r, ['정밀', '산업', '기계', '화학', '소재', '금속']) : pick(r, CORP_WORDS);
    name = entity === 'corp' ? corpName(r, stem, word)
      : entity === 'branch' ? `${corpName(r, stem, word)} ${r() < 0.5 ? b.emd.region.stem : place}${b.kind === 'factory' ? pick(r, ['공장', '제2공장', '사업소']) : pick(r, BRANCH_WORDS)}`
        : entity === 'nonprofit' ? `${pick(r, ['사단법인 ', '(사)', '재단법인 '])}${b.emd.region.stem}${stem}${pick(r, ['협회', '재단', '연합회', '복지회'])}`
          : entity === 'exempt' ? `${stem}${pick(r, ['의원', '치과의원', '한의원', '약국'])}` : `${stem}${pick(r, ['상사', '무역', '유통', '컴퍼니', '기획', '디자인'])}`;
    premise = b.kind === 'factory' ? 'factory' : b.kind === 'shop' ? 'shop' : b.managed ? 'tower' : 'office';
    if (b.kind === 'officetel' && entity === 'corp' && r() < 0.35) {
      // a small corporation's registered seat in a 비상주 office
      premise = 'shared';
      if (!sharedUnits.has(b.id)) sharedUnits.set(b.id, unit);
      unit = sharedUnits.get(b.id) ?? unit;
    }
  } else if (a === 1) {
    if (b.kind === 'market') {
      trade = r() < 0.2 ? 'food' : r() < 0.15 ? 'street' : 'stall';
      premise = 'stall';
    } else if (b.kind === 'house' || b.kind === 'villa') {
      trade = weighted(r, { food: 40, hair: 25, laundry: 20, street: 15 });
      premise = 'shop';
    } else {
      trade = weighted(r, { food: 42, hair: 26, laundry: 14, street: 8, stall: 10 });
      premise = b.kind === 'office' || b.kind === 'officetel' ? 'office' : 'shop';
    }
    name = trade === 'food' ? restaurantName(r, place) : trade === 'hair' ? pick(r, HAIR)(r() < 0.3 ? pick(r, GIVEN) : pick(r, STEMS))
      : trade === 'laundry' ? `${pick(r, STEMS)}${pick(r, ['세탁소', '수선', '크리닝', '세탁'])}`
        : trade === 'street' ? (r() < 0.5 ? person(r) : `${pick(r, STEMS)}${pick(r, ['토스트', '호떡', '어묵', '꽃집', '과일'])}`)
          : `${r() < 0.3 ? pick(r, SURNAMES) + '씨' : pick(r, STEMS)}${pick(r, STALL_WORDS)}`;
    evening = trade === 'food' && /호프|치킨/.test(name);
    entity = trade === 'laundry' && r() < 0.05 ? 'exempt' : 'indiv';
  } else if (a === 2) {
    const home = ['apt', 'villa', 'house'].includes(b.kind) || (b.kind === 'officetel' && r() < 0.5);
    entity = home ? (r() < 0.92 ? 'indiv' : 'corp') : r() < 0.45 ? 'corp' : 'indiv';
    trade = home ? pick(r, ['online', 'online', 'online', 'freelance']) : pick(r, ['online', 'software', 'agency', 'trading']);
    premise = home ? 'home' : b.kind === 'shop' ? 'shop' : 'office';
    if (!home && b.kind !== 'shop' && r() < 0.45) {
      premise = 'shared';
      if (!sharedUnits.has(b.id)) sharedUnits.set(b.id, unit);
      unit = sharedUnits.get(b.id) ?? unit;
    }
    const stem = r() < 0.2 ? pick(r, LATIN) : pick(r, STEMS);
    const word = pick(r, ONLINE_WORDS);
    name = entity === 'corp' ? corpName(r, stem, r() < 0.5 ? word : pick(r, ['랩스', '테크', '소프트', '네트웍스', '플랫폼'])) : `${stem}${word}`;
    if (r() < 0.06) name = name.toLowerCase().replace(/\(주\)|주식회사 /, '');
  } else {
    const u = r();
    if (b.kind === 'kic' || b.kind === 'factory' || (b.kind === 'office' && u < 0.5)) {
      trade = 'canteen';
      entity = r() < 0.7 ? 'branch' : 'corp';
      name = `${corpName(r, pick(r, STEMS), pick(r, ['푸드', '에프앤비', '케이터링', '푸드서비스']))} ${b.name || place}${pick(r, ['점', '구내식당', '사업장'])}`;
      premise = b.kind === 'factory' ? 'factory' : b.managed ? 'tower' : 'office';
    } else {
      trade = weighted(r, { restaurant: 60, bar: 14, cafe: 10, bakery: 6, butcher: 10 });
      entity = 'indiv';
      name = trade === 'cafe' ? `${pick(r, STEMS)}${pick(r, ['커피', '카페', '다방', '베이커리카페'])}` : trade === 'bakery' ? `${pick(r, STEMS)}${pick(r, ['베이커리', '제과', '빵집'])}`
        : trade === 'butcher' ? `${pick(r, STEMS)}${pick(r, ['정육점', '식육식당', '축산'])}` : trade === 'bar' ? `${pick(r, STEMS)}${pick(r, ['호프', '포차', '이자카야', '치킨호프', '주점'])}` : restaurantName(r, place);
      evening = trade === 'bar';
      premise = b.kind === 'market' ? 'stall' : 'shop';
    }
  }
  const small = a === 1 ? (trade === 'street' || trade === 'stall' ? 0.65 : 0.4) : a === 2 ? 0.55 : a === 3 ? 0.3 : 0.3;
  return { entity, trade, premise, name, b, unit, evening, taxCd: taxFor(r, entity, small) };
}

// ---------------------------------------------------------------- what became of it

interface Fate {
  listAge: number;
  state: 'present' | 'shut' | 'closed' | 'moved';
  leftAgo: number;
  successor: Successor;
  nts: '01' | '02' | '03' | '';
  endAgo: number;
  utcc: boolean;
  registered: boolean;
  dispute: boolean;
}

const expo = (r: Rand, rate: number): number => (rate <= 0 ? Infinity : -Math.log(1 - r()) / rate);

function fateOf(a: Account, z: Biz, r: Rand, registeredNumber: boolean): Fate {
  const { entity, trade, premise, b } = z;
  const rural = b.emd.area === 'eup' || b.emd.area === 'myeon';
  const listAge = a === 0 ? r() * 0.4 : a === 1 ? 1 + 2 * r() : a === 2 ? 1.5 * r() : 5 * r() ** 1.15;
  // yearly hazards of closing and of leaving the premises while going on
  let close: number;
  let move: number;
  if (a === 0) {
    close = entity === 'corp' ? 0.05 : entity === 'branch' ? 0.08 : entity === 'nonprofit' ? 0.02 : 0.1;
    move = entity === 'corp' ? (premise === 'shared' ? 0.3 : 0.1) : entity === 'branch' ? 0.06 : 0.07;
  } else if (a === 1) {
    close = { food: 0.13, hair: 0.09, laundry: 0.06, street: 0.12, stall: 0.07 }[trade] ?? 0.1;
    move = trade === 'stall' ? 0.02 : 0.04;
  } else if (a === 2) {
    close = premise === 'home' ? 0.28 : entity === 'corp' ? 0.15 : 0.22;
    move = premise === 'shared' ? 0.4 : premise === 'home' ? 0.14 : 0.12;
  } else {
    close = trade === 'canteen' ? 0.07 : trade === 'bar' ? 0.2 : trade === 'cafe' ? 0.18 : 0.15;
    move = trade === 'canteen' ? 0.1 : 0.03;
  }
  if (b.emd.district === 'c') close *= 1.15;
  if (rural) close *= 0.75;
  if (z.taxCd === '02' || z.taxCd === '07') close *= 1.3;
  let tClose = expo(r, close);
  const tMove = expo(r, move);
  // the supplier's list: many rows stopped ordering because the restaurant closed
  if (a === 3 && trade !== 'canteen' && r() < 0.12) tClose = Math.min(tClose, r() * 0.3);
  // the card list carries dormant corporations that were already gone
  let dormant = false;
  if (a === 0 && entity === 'corp' && r() < 0.05) {
    dormant = true;
    tClose = -r() * 2;
  }
  let state: Fate['state'] = 'present';
  let leftAgo = 0;
  if (tClose < listAge && tClose <= tMove) {
    state = 'closed';
    leftAgo = listAge - tClose;
  } else if (tMove < listAge) {
    state = 'moved';
    leftAgo = listAge - tMove;
  }
  // a demolished building: whoever was there has gone
  if (b.gone && state === 'present') {
    state = r() < 0.5 ? 'closed' : 'moved';
    leftAgo = r() * Math.max(0.2, listAge);
  }
  // shut by 휴업 (seasonal, repairs, illness)
  if (state === 'present' && r() < (b.emd.district === 't' ? 0.07 : a === 1 || a === 3 ? 0.03 : 0.015)) state = 'shut';

  // what NTS says
  let nts: Fate['nts'] = '01';
  let endAgo = 0;
  let utcc = false;
  if (state === 'shut') nts = r() < 0.7 ? '02' : '01';
  if (state === 'closed') {
    const corpLike = entity === 'corp' || entity === 'nonprofit';
    const lag = corpLike ? 0.5 + 2.5 * r() : entity === 'branch' ? expo(r, 4) : r() < 0.65 ? expo(r, 6) : 1 + 1.5 * r();
    if (dormant) {
      const u = r();
      nts = u < 0.5 ? '01' : u < 0.8 ? '03' : '02';
      endAgo = leftAgo * r();
    } else if (lag < leftAgo) {
      nts = '03';
      // 직권폐업 dates the closure when NTS acted; a filed one when the business stopped
      endAgo = lag > 1 && !corpLike ? leftAgo - lag * 0.5 : leftAgo;
    } else if (r() < 0.12) nts = '02';
  }
  // a branch closed on conversion to 사업자단위과세: the number is 폐업, the branch is still there
  if (entity === 'branch' && state === 'present' && r() < 0.05) {
    nts = '03';
    utcc = true;
    endAgo = r() * 3;
  }
  if (!registeredNumber) nts = '';

  // who is at the premises now
  let successor: Successor = 'none';
  if (state === 'closed' || state === 'moved') {
    const foodTrade = ['food', 'restaurant', 'bar', 'cafe', 'bakery', 'butcher'].includes(trade);
    const vacancyMean = premise === 'stall' ? 1.4 : rural ? 2 : b.emd.district === 'c' ? 0.3 : b.emd.district === 'o' ? 1 : 0.6;
    if (b.gone) successor = 'demolished';
    else if (premise === 'shared') successor = 'operator';
    else if (premise === 'home' && entity !== 'corp') successor = state === 'closed' ? (r() < 0.85 ? 'owner' : 'other') : r() < 0.9 ? 'other' : 'vacant';
    else if (state === 'closed' && foodTrade && r() < (a === 3 ? 0.3 : 0.22)) successor = 'sameName';
    else if (state === 'closed' && foodTrade && r() < 0.35) successor = 'other';
    else successor = r() < Math.exp(-leftAgo / vacancyMean) ? 'vacant' : 'other';
    // mail forwarded a while after a move, or a village carrier who redirects a local mover
    if (state === 'moved' && successor !== 'demolished' && successor !== 'operator') {
      const fwd = leftAgo < 0.5 && r() < (entity === 'corp' || entity === 'branch' ? 0.5 : 0.35);
      if (fwd || (rural && r() < 0.5)) successor = 'forwarded';
    }
  }

  const dispute = a === 3 && trade !== 'canteen' && (state === 'closed' ? r() < 0.3 : r() < 0.04);
  const registered = a === 0 ? true : a === 1 ? r() < 0.2 : a === 3 ? (dispute ? r() < 0.6 : r() < 0.05) : false;
  return { listAge, state, leftAgo, successor, nts, endAgo, utcc, registered, dispute };
}

// ---------------------------------------------------------------- the letter

interface Letter { p: number; reason: string; place: number }

function letterOf(a: Account, z: Biz, f: Fate, addr: Address, r: Rand): Letter {
  const b = z.b;
  const rural = b.emd.area === 'eup' || b.emd.area === 'myeon';
  const w = addr.w;
  const signboard = f.state === 'present' || f.state === 'shut' || f.successor === 'sameName';

  // 1. can the carrier place it at the right door?
  const fails: number[] = [];
  let misdirect = 0;
  if (f.successor === 'demolished') fails.push(rural ? 0.6 : 0.92);
  if (addr.shape === 'junk') fails.push(0.93);
  if (addr.shape === 'nameOnly') fails.push(['market', 'office', 'kic'].includes(b.kind) ? 0.07 : 0.35);
  if (w) {
    const named = w.named;
    if (w.number === 'missing') fails.push(named ? 0.15 : signboard ? 0.35 : 0.6);
    if (w.number === 'wrongAbsent') fails.push(named ? 0.12 : signboard ? 0.3 : 0.5);
    if (w.number === 'wrongOther') misdirect = named || signboard ? 0.35 : 0.6;
    if (w.roadName === 'typo') fails.push(w.number === 'ok' ? 0.04 : 0.2);
    if (w.zip === 'wrong') fails.push(0.04);
    if (w.zip === '6') fails.push(0.01);
    if (w.unit === 'missing' || w.unit === 'partial') {
      const partial = w.unit === 'partial';
      const byKind: Partial<Record<Kind, number>> = {
        apt: partial ? 0.4 : 0.68, villa: partial ? 0.1 : 0.3, officetel: b.managed ? (partial ? 0.12 : 0.22) : partial ? 0.3 : 0.55,
        kic: b.managed ? 0.1 : partial ? 0.15 : 0.4, office: 0.03, market: 0.05, shop: 0.02, house: 0.02,
      };
      let x = byKind[b.kind] ?? 0;
      // a shared office's operator is known by its name on the door; a home seller by nobody
      if (z.premise === 'shared') x *= 0.5;
      fails.push(x);
    }
  }
  let place = 1 - fails.reduce((s, x) => s * (1 - (rural && f.successor !== 'demolished' ? x * 0.35 : x)), 1);
  // the city's own carrier round: its district's registry addresses are read with local knowledge
  if (a === 1) place *= 0.6;

  // 2. who opens the door, and does it come back?
  const reg = f.registered;
  let door: number;
  let reason = 'delivered';
  if (f.state === 'present') {
    const base: Record<Premise, [number, number]> = {
      tower: [0.004, 0.01], office: [0.01, 0.1], shop: [0.008, 0.05], stall: [0.008, 0.07], home: [0.015, 0.32], shared: [0.02, 0.05], factory: [0.008, 0.04],
    };
    door = base[z.premise][reg ? 1 : 0];
    if (reg && z.evening) door = 0.38;
    if (reg && z.entity === 'indiv' && z.premise === 'office') door = 0.2;
    if (door > 0.05) reason = '폐문부재';
  } else if (f.state === 'shut') {
    door = reg ? 0.72 : z.premise === 'stall' ? 0.04 : 0.1;
    reason = '폐문부재';
  } else {
    const managed = b.managed;
    switch (f.successor) {
      case 'vacant': door = reg ? 0.95 : managed ? 0.85 : 0.5; reason = reg ? '폐문부재' : '수취인불명'; break;
      case 'other': door = reg ? 0.92 : managed ? 0.86 : 0.66; reason = '수취인불명'; break;
      case 'sameName': door = reg ? 0.14 : 0.05; reason = 'delivered'; break;
      case 'owner': door = reg ? 0.32 : 0.02; reason = '폐문부재'; break;
      case 'operator': door = reg ? 0.95 : 0.86; reason = '이사불명'; break;
      case 'forwarded': door = reg ? 0.08 : 0.04; reason = 'delivered'; break;
      case 'demolished': door = 0.9; reason = '주소불명'; break;
      case 'none': door = 0.5; break;
    }
    // the 상인회 knows where a stall keeper went; the city's notices reach many anyway
    if (a === 1 && z.premise === 'stall' && !reg) door *= 0.55;
    // a village carrier hands a closed owner's ordinary mail to the house
    if (rural && !reg && f.state === 'closed' && f.successor !== 'demolished') door *= 0.5;
  }
  // 3. misdirected to another building: its people mostly write 수취인불명 on it
  let p = place + (1 - place) * (misdirect * 0.72 + (1 - misdirect) * door);
  if (misdirect > 0 && place < 0.3 && door < 0.3) reason = '수취인불명';
  if (place > 0.3) reason = w?.unit === 'missing' ? '주소불충분' : '주소불명';
  // 4. refused (marketing, disputes, levies) and lost
  const refuse = a === 2 ? 0.03 : a === 3 ? (f.dispute ? 0.18 : 0.01) : a === 1 ? 0.015 : 0.003;
  const before = p;
  p = p + (1 - p) * (refuse + 0.004);
  p = Math.min(0.985, Math.max(0.003, p));
  if (r() < (p - before) / Math.max(p, 1e-9)) reason = a === 2 || f.dispute || a === 1 ? '수취거절' : '기타';
  return { p, reason, place };
}

// ---------------------------------------------------------------- the world

export function buildFourthWorld(seed: number, asOf: Date): IndependentWorld {
  const places = buildPlaces(seed * 7919 + 4);
  const r = seededRandom(seed * 104_729 + 44);
  const numbers = new Numbers(r);
  const records = new Map<string, NtsRecord>();
  const year = asOf.getUTCFullYear() + (asOf.getTime() - Date.UTC(asOf.getUTCFullYear(), 0, 1)) / (365.25 * 86_400_000);

  // where each account's businesses are: everywhere but 창원 for the city's registry
  const byKind = (filter: (b: Building) => boolean): Map<Kind, Building[]> => {
    const m = new Map<Kind, Building[]>();
    for (const b of places.buildings) {
      if (!filter(b)) continue;
      if (!m.has(b.kind)) m.set(b.kind, []);
      m.get(b.kind)!.push(b);
    }
    return m;
  };
  const metroish = (b: Building) => b.emd.region.metro || b.emd.area === 'city' || r() < 0.5;
  const pools: Map<Kind, Building[]>[] = [
    byKind((b) => b.emd.area !== 'myeon' || b.kind === 'factory'),
    byKind((b) => b.emd.region.sigungu.startsWith('창원시')),
    byKind(metroish),
    byKind(() => true),
  ];

  const lists: Mailing[][] = [];
  for (const a of [0, 1, 2, 3] as Account[]) {
    const shared = new Map<string, Unit | null>();
    const rows: Mailing[] = [];
    for (let i = 0; i < POOL + TEST; i++) {
      const z = makeBiz(a, r, pools[a]!, shared);
      // never registered: street stalls on the city's registry under a number its form got wrong
      const unregistered = a === 1 ? (z.trade === 'street' ? r() < 0.45 : r() < 0.04) : a === 3 ? r() < 0.02 : a === 2 ? r() < 0.03 : false;
      const bno = numbers.make(z.b.emd.region.taxOffice, z.entity);
      const f = fateOf(a, z, r, !unregistered);
      records.set(bno, unregistered ? unregisteredRecord(bno) : record(bno, f.nts === '' ? '01' : f.nts, z.taxCd, ymd(asOf, f.endAgo), f.utcc));
      // numbers typed by the sign-up (or copied by a clerk) with a slip
      let listed = bno;
      const slip = a === 2 ? 0.08 : a === 1 ? 0.02 : a === 3 ? 0.015 : 0.003;
      let mistyped = false;
      if (r() < slip) {
        const t = mistype(bno, r);
        if (!numbers.has(t)) {
          listed = t;
          mistyped = true;
        }
      }
      const captured = year - f.listAge;
      const addr = writeRow(places, z.b, z.unit, a, r, captured);
      const letter = letterOf(a, z, f, addr, r);
      const bounced = r() < letter.p;
      const nts = mistyped || unregistered ? '' : f.nts;
      const w = addr.w;
      const damage = addr.shape !== 'written' ? addr.shape
        : z.b.gone || w!.number === 'wrongAbsent' ? 'notFound'
          : w!.number === 'missing' ? 'noNumber'
            : w!.roadName === 'typo' ? 'typo'
              : w!.roadName === 'former' ? 'formerRoad' : 'none';
      rows.push({
        account: a, bno: listed, name: z.name, address: addr.text, p: letter.p, bounced,
        truth: {
          nts, entity: z.entity, tax: unregistered || mistyped ? '-' : z.taxCd, utcc: f.utcc && !mistyped, trade: z.trade, premise: z.premise, kind: z.b.kind,
          rural: z.b.emd.area === 'eup' || z.b.emd.area === 'myeon', damage, unitMissing: w ? w.unit : addr.shape === 'junk' ? 'missing' : 'na',
          form: w ? w.form : addr.shape, zip: w ? w.zip : 'none', region: w ? w.region : 'none', named: w ? w.named : addr.shape === 'nameOnly',
          closedAgo: nts === '03' ? ageBucket(f.endAgo) : '-',
          // hidden
          state: f.state, successor: f.successor, leftAgo: ageBucket(f.leftAgo), listAge: ageBucket(f.listAge), registered: f.registered,
          dispute: f.dispute, mistyped, neverRegistered: unregistered, wrongOther: w?.number === 'wrongOther', demolished: z.b.gone,
          managed: z.b.managed, district: z.b.emd.district, placeFail: Math.round(letter.place * 100) / 100, reason: bounced ? letter.reason : 'delivered',
        },
      });
    }
    lists.push(rows);
  }
  return {
    name: 'fourth',
    description: 'a card company (registered mail to corporations), 창원시청 notices to market stalls and shops, a start-up\'s self-typed trial sign-ups, a food distributor\'s five years of restaurants',
    visible: VISIBLE,
    accounts: [...ACCOUNTS],
    directoryLines: places.directoryLines,
    relatedLines: places.relatedLines,
    records,
    pool: lists.map((l) => l.slice(0, POOL)),
    test: lists.map((l) => l.slice(POOL)),
  };
}
