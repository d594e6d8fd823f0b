// What a business name says that the registry can contradict. Korean corporations carry their
// legal form in the name (주식회사, (주), ㈜ …); an individual's registration never does.
import type { EntityKind } from './bizno.ts';

const CORPORATE_MARKERS = [
  '주식회사', '(주)', '㈜', '（주）', '유한회사', '(유)', '유한책임회사', '합자회사', '합명회사',
  '사단법인', '재단법인', '(사)', '(재)', '농업회사법인', '영농조합법인', '협동조합',
];
const CORPORATE_LATIN = /\b(co\.?,?\s*ltd\.?|inc\.?|corp\.?|corporation|limited|llc)\b/i;
const CLOSURE_HINTS = ['폐업', '청산', '휴업', '폐점', '(구)', '(舊)', '구)', '구 상호', '전 상호', '해산'];

export interface NameSignals {
  /** the name shows a corporate legal form but the number is an individual's */
  entityMismatch: boolean;
  /** the name suggests it is not current (폐업, 청산, (구) …) */
  closureHint: boolean;
  /** the trade the name suggests, null when it says none (see tradeOf) */
  trade: Trade | null;
  /** a branch, sales office or agency rather than a head office (지점, 영업소, 대리점 …) */
  branch: boolean;
}

/**
 * Trades a name commonly announces, grouped by how often such businesses close or move: food and
 * beauty shops turn over fastest (외식업 has the highest closure rate of any sector in NTS's
 * statistics), retail, education and real-estate agencies next; clinics, pharmacies and
 * professional offices (tax, law, patents) stay for years; manufacturers and wholesalers sit at
 * industrial sites that rarely change hands.
 */
export const TRADES = ['food', 'beauty', 'retail', 'education', 'realestate', 'medical', 'professional', 'industrial', 'wholesale'] as const;
export type Trade = (typeof TRADES)[number];

// In order: a name with words of two trades takes the first (약국 before 마트 in "온누리약국마트")
const TRADE_WORDS: readonly (readonly [Trade, readonly string[]])[] = [
  ['medical', ['의원', '병원', '치과', '한의원', '약국', '의료', '메디컬', '클리닉', '한방', '요양', '약품', '안과', '내과', '소아과', '정형외과', '피부과']],
  ['professional', ['세무', '회계', '법무', '법률', '특허', '노무', '변호사', '감정평가', '건축사', '행정사', '관세사']],
  ['realestate', ['부동산', '공인중개', '중개사']],
  ['education', ['학원', '교습소', '공부방', '어학원', '교육원', '아카데미']],
  ['beauty', ['미용', '헤어', '네일', '피부관리', '뷰티', '에스테틱', '이발', '왁싱', '속눈썹']],
  ['food', ['식당', '음식', '한식', '중식', '일식', '분식', '치킨', '피자', '카페', '커피', '베이커리', '제과', '떡집', '방앗간', '주점', '호프', '포차', '횟집', '고기', '갈비', '국밥', '냉면', '반찬', '김밥', '족발', '도시락', '푸드', '레스토랑', '뷔페', '다방', '식육', '정육', '반점', '막걸리', '삼겹', '곱창', '칼국수', '만두', 'cafe', 'coffee']],
  ['retail', ['마트', '슈퍼', '편의점', '상회', '문구', '꽃집', '플라워', '의류', '패션', '안경', '휴대폰', '잡화', '할인점', '철물', '가구', '전자랜드', '옷가게']],
  ['industrial', ['정밀', '공업', '산업', '기계', '금속', '화학', '제작소', '공장', '제조', '기공', '엔지니어링', '플랜트', '주물', '용접', '도금', '사출', '인쇄']],
  ['wholesale', ['유통', '상사', '무역', '물산', '도매', '물류', '트레이딩', '종합상사', '수산', '농산', '청과']],
];

const BRANCH = /지점|영업소|출장소|지사|대리점|분점|직영점|사업소|지부|분소|branch/i;

// The lists as a name is compared with them (NFKC, no spaces; trades also lower-cased), made once:
// every named batch row is read against all of them. Each list is one pattern of its words, each
// word as it is (escaped): "holds any of the words", as reading the words one by one with
// includes() said it, in a third of the time (~140 trade words: 0.96 → 0.33 µs a name).
const compactOf = (text: string): string => text.normalize('NFKC').replace(/\s+/g, '');
const anyOf = (words: readonly string[]): RegExp => new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'u');
const MARKERS = anyOf(CORPORATE_MARKERS.map(compactOf));
const HINTS = anyOf(CLOSURE_HINTS.map(compactOf));
const TRADES_AS_READ = TRADE_WORDS.map(([trade, words]) => [trade, anyOf(words.map((w) => compactOf(w).toLowerCase()))] as const);

/** `lower`: the name compacted and lower-cased; the first trade in TRADE_WORDS's order with a word in it */
function tradeIn(lower: string): Trade | null {
  for (const [trade, words] of TRADES_AS_READ) if (words.test(lower)) return trade;
  return null;
}

/** The trade a name suggests, or null. */
export function tradeOf(name: string): Trade | null {
  return tradeIn(compactOf(name).toLowerCase());
}

/** `c`: the name compacted */
const markedCorporate = (c: string, name: string): boolean => MARKERS.test(c) || CORPORATE_LATIN.test(name);

export function hasCorporateMarker(name: string): boolean {
  return markedCorporate(compactOf(name), name);
}

export function nameSignals(name: string | null | undefined, kind: EntityKind): NameSignals {
  if (!name || !name.trim()) return { entityMismatch: false, closureHint: false, trade: null, branch: false };
  const c = compactOf(name);
  const corporateName = markedCorporate(c, name);
  return {
    entityMismatch: corporateName && (kind === 'individual_taxable' || kind === 'individual_exempt'),
    closureHint: HINTS.test(c),
    trade: tradeIn(c.toLowerCase()),
    branch: BRANCH.test(c),
  };
}
