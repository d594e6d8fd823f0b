// Customer lists as offices write them, shared by `npm run eval:model`'s worlds and `npm run
// bench:batch`'s named lists: business names of a trade, and directory addresses with the damage
// real lists carry (abbreviated 시/도, 지번 forms, old postal codes, missing or wrong building
// numbers, road-name typos, missing units).
import type { DirectoryEntry } from '../../src/domain/address/types.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';

export type Trade = 'food' | 'beauty' | 'retail' | 'medical' | 'professional' | 'industrial' | 'wholesale' | 'realestate' | 'education' | 'none';
export type Kind = 'apartment' | 'officetel' | 'office' | 'shop' | 'villa' | 'house';
export type Damage = 'none' | 'jibun' | 'old_zip' | 'no_number' | 'wrong_number' | 'road_typo' | 'abbreviated';

export const SYLLABLES = ['가', '나', '다', '라', '마', '바', '사', '아', '자', '하', '한', '대', '신', '성', '영', '진', '미', '소', '정', '현', '우', '태', '동', '서', '남', '북'];
export const TRADE_WORDS: Record<Trade, string[]> = {
  food: ['식당', '카페', '치킨', '분식', '국밥', '베이커리', '호프'],
  beauty: ['헤어', '미용실', '네일'],
  retail: ['마트', '상회', '슈퍼', '꽃집'],
  medical: ['의원', '치과의원', '약국', '한의원'],
  professional: ['세무회계', '법무사사무소', '특허사무소'],
  industrial: ['정밀', '공업', '기계', '금속'],
  wholesale: ['유통', '상사', '물산'],
  realestate: ['공인중개사사무소', '부동산'],
  education: ['학원', '교습소'],
  none: ['', '컴퍼니', '코리아', '플러스'],
};
export const SHORT_SIDO: Record<string, string> = {
  서울특별시: '서울', 부산광역시: '부산', 인천광역시: '인천', 경기도: '경기', 강원특별자치도: '강원', 전북특별자치도: '전북', 경상남도: '경남', 세종특별자치시: '세종',
};

// the generator names a quarter of the buildings by kind; the rest are houses and small shops
export function kindOf(e: DirectoryEntry): Kind {
  const n = e.buildingName;
  if (/아파트/.test(n)) return 'apartment';
  if (/오피스텔/.test(n)) return 'officetel';
  if (/타워|빌딩|센터|프라자/.test(n)) return 'office';
  if (/상가/.test(n)) return 'shop';
  if (/빌라/.test(n)) return 'villa';
  return 'house';
}

export function unitOf(kind: Kind, r: () => number): string {
  const n = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  if (kind === 'apartment') return `${n(101, 115)}동 ${n(1, 25)}0${n(1, 4)}호`;
  if (kind === 'officetel') return `${n(2, 20)}${String(n(1, 30)).padStart(2, '0')}호`;
  if (kind === 'villa') return `${n(1, 4)}0${n(1, 3)}호`;
  return `${n(1, 15)}층`;
}

/** The address as the customer's list has it: the building's, with this row's damage. */
export function writeAddress(e: DirectoryEntry, damage: Damage, unit: string | null, r: () => number, pick: <T>(xs: readonly T[]) => T): string {
  const sido = damage === 'abbreviated' ? (SHORT_SIDO[e.sido] ?? e.sido) : e.sido;
  const region = [sido, e.sigungu].filter(Boolean).join(' ');
  const tail = unit ? `, ${unit}` : '';
  const num = `${e.underground ? '지하 ' : ''}${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`;
  switch (damage) {
    case 'jibun':
      return `${region} ${e.ri ? `${e.eupmyeondong} ${e.ri}` : e.eupmyeondong} ${e.jibunMountain ? '산' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}${tail}`;
    case 'old_zip':
      return `(${String(100 + Math.floor(r() * 800))}-${String(100 + Math.floor(r() * 800))}) ${region} ${e.roadName} ${num}${tail}`;
    case 'no_number':
      return `${region} ${e.roadName}${tail}`;
    case 'wrong_number':
      return `${region} ${e.roadName} ${e.buildingMain + 700}${tail}`;
    case 'road_typo': {
      // one syllable of the road's name (not its 로/길 or numbers) replaced by a near one
      const chars = Array.from(e.roadName);
      const at = chars.findIndex((c) => /[가-힣]/.test(c) && c !== '로' && c !== '길' && c !== '번');
      if (at >= 0) chars[at] = pick(SYLLABLES.filter((s) => s !== chars[at]));
      return `${region} ${chars.join('')} ${num}${tail}`;
    }
    case 'abbreviated':
    case 'none':
      return `${region} ${e.roadName} ${num}${tail}`;
  }
}

/** A row's damage from a uniform draw, in the shares the eval worlds use. */
export function damageOf(d: number): Damage {
  return d < 0.1 ? 'jibun' : d < 0.15 ? 'old_zip' : d < 0.18 ? 'no_number' : d < 0.22 ? 'wrong_number' : d < 0.27 ? 'road_typo' : d < 0.6 ? 'abbreviated' : 'none';
}

export interface Mailing {
  name: string;
  address: string;
}

/** `count` customers of a list (a trade-named business at a directory address as written), deterministic by seed. */
export function mailingsFrom(directory: readonly DirectoryEntry[], count: number, seed: number): Mailing[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const trades = Object.keys(TRADE_WORDS) as Trade[];
  const out: Mailing[] = [];
  for (let i = 0; i < count; i++) {
    const corporate = r() < 0.3;
    const trade = r() < 0.7 ? pick(trades.filter((t) => t !== 'none')) : 'none';
    const name = `${corporate ? pick(['(주)', '주식회사 ', '']) : ''}${pick(SYLLABLES)}${pick(SYLLABLES)}${pick(TRADE_WORDS[trade])}`;
    const e = pick(directory);
    const kind = kindOf(e);
    const unit = kind === 'house' || r() < 0.3 ? null : unitOf(kind, r);
    out.push({ name, address: writeAddress(e, damageOf(r()), unit, r, pick) });
  }
  return out;
}
