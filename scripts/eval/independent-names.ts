// Words the independent evaluation world (independent-world.ts) builds names from: building names
// as the 도로명주소 files carry them and business names as Korean customer lists write them.

/** Seeded uniform stream, as seededRandom gives. */
export type Rand = () => number;

export const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
export const chance = (r: Rand, p: number): boolean => r() < p;
export const between = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** One of `weights`' keys, drawn in proportion to its weight. */
export function weighted<K extends string>(r: Rand, weights: Readonly<Partial<Record<K, number>>>): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let u = r() * total;
  for (const [k, w] of entries) {
    u -= w;
    if (u < 0) return k;
  }
  return entries.at(-1)![0];
}

const words = (s: string): readonly string[] => s.trim().split(/\s+/);

/** Stems of trade names and building names (한빛, 대성, 다온 …). */
export const STEMS = words(`
  한빛 대성 삼원 동양 신성 우리 미래 성원 태양 대한 한결 청솔 푸른 세일 동아 금강 제일 으뜸 한마음 다온
  가온 누리 소망 행복 새롬 해담 온누리 정원 명가 진미 고향 시골 엄마손 원조 본가 청기와 대박 황금 은하 별빛
  하늘 바다 산들 솔 동백 무궁화 백제 신라 고려 한양 남도 영남 호남 경인 중앙 동서 일신 세진 경동 성진 대진
  한성 한신 유진 지성 태성 동진 서진 화신 영진 삼진 우진 대영 신영 한영 세영 보성 덕성 광명 명성 정우 선우
  도담 아름 나래 모아 에이스 스마트 글로벌 코리아 케이 제이엠 에스엠 씨앤 티엔 비앤 와이즈 넥스트 이노 테크노
  바이오 유니 하나 참 늘봄 봄날 해오름 새벽 초원 들꽃 소나무 느티 은행나무 대륙 태평양 동해 서해 남해 한라
  백두 금성 목성 수성 천지 평화 통일 번영 화랑 충무 세종 다산 율곡 퇴계 성실 신용 정직 한길 큰길 오성 육성
  칠성 팔도 구월 삼일 대원 신원 정원 효성 삼광 대광 신광 한국 대림 삼화 동화 신화 대화 협성 협진 상진 창신
`);

export const SURNAMES = words('김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 유 남 심 노 하 곽 성 차 주 우 구 민');
export const GIVEN = words(`
  영수 영희 민수 민준 서연 지훈 지현 성민 현우 수진 은정 정호 상철 미경 혜진 동현 재훈 승민 경희 순자 종훈 진우
  태호 윤서 하은 도윤 시우 예은 수빈 준호 명숙 광수 정훈 은영 상우 창수 미란 보람 기영 용준 재석 선희 인호 경민
`);

/** Apartment brands as complexes are named (래미안, 자이 …); a brand and where it goes. */
export const APT_BRANDS: readonly (readonly [brand: string, form: 'pre' | 'post'])[] = [
  ['래미안', 'pre'], ['자이', 'post'], ['푸르지오', 'post'], ['e편한세상', 'pre'], ['힐스테이트', 'pre'], ['아이파크', 'post'],
  ['주공', 'post'], ['현대', 'post'], ['롯데캐슬', 'post'], ['더샵', 'post'], ['우성', 'post'], ['한신', 'post'], ['삼익', 'post'],
  ['대림', 'post'], ['벽산', 'post'], ['쌍용', 'post'], ['두산위브', 'post'], ['한양수자인', 'post'], ['SK뷰', 'post'], ['센트레빌', 'post'],
  ['금호어울림', 'post'], ['중흥S-클래스', 'post'], ['호반베르디움', 'post'], ['부영', 'post'], ['LH', 'post'], ['신동아', 'post'],
];
export const APT_TAILS = words('팰리스 퍼스티지 에스티움 센트럴 파크 리버뷰 레이크 1차 2차 3차 1단지 2단지 3단지 4단지 5단지');

export const VILLA_TAILS = words('빌라 빌 맨션 하이츠 연립 캐슬 하우스 파크빌 그린빌 타운 팰리스 스위트');
export const OFFICETEL_NAMES: readonly ((place: string, stem: string) => string)[] = [
  (p) => `${p}오피스텔`, (_, s) => `${s}오피스텔`, (p) => `${p}푸르지오시티`, (p) => `${p}SK허브`, (p) => `${p}롯데캐슬골드`,
  (_, s) => `${s}리더스빌`, (p) => `${p}대우디오빌`, (p) => `${p}아이파크오피스텔`, (_, s) => `${s}타워`, (p) => `${p}센트럴시티`,
  (p) => `${p}더샵오피스텔`, (_, s) => `${s}스위트`,
];
export const TOWER_NAMES: readonly ((place: string, stem: string) => string)[] = [
  (_, s) => `${s}빌딩`, (_, s) => `${s}빌딩`, (_, s) => `${s}빌딩`, (_, s) => `${s}타워`, (p) => `${p}파이낸스센터`, (_, s) => `${s}센터`,
  (p) => `${p}타워`, (_, s) => `한국${s}빌딩`, (_, s) => `${s}회관`, (p) => `${p}비즈니스센터`, (_, s) => `${s}트윈타워`,
];
export const PLAZA_NAMES: readonly ((place: string, stem: string) => string)[] = [
  (_, s) => `${s}프라자`, (_, s) => `${s}상가`, (p) => `${p}메디컬센터`, (_, s) => `${s}스퀘어`, (_, s) => `${s}플라자`,
  (p) => `${p}프라자`, (_, s) => `${s}타운`, (p) => `${p}중앙상가`, (_, s) => `${s}프라자빌딩`, (p) => `${p}역사거리프라자`,
];
export const KNOWLEDGE_NAMES: readonly ((place: string, stem: string, n: number) => string)[] = [
  (p) => `${p}테크노타워`, (p) => `${p}디지털타워`, (_, s) => `${s}IT타워`, (_, s) => `${s}비즈타워`, (p) => `${p}지식산업센터`,
  (_, s) => `${s}테크노밸리`, (_, s, n) => `에이스${s}타워${n}차`, (p, _, n) => `${p}SK V1 center ${n}차`, (_, s) => `${s}라이온스밸리`,
  (_, s) => `${s}하이테크시티`, (_, s, n) => `대륭${s}타워${n}차`, (p) => `${p}스마트스퀘어`, (p) => `${p}IT캐슬`,
];
export const SMALL_BUILDING_TAILS = words('빌딩 빌딩 빌딩 하우스 타운 B/D 프라자 빌');
export const FACTORY_NAMES: readonly ((stem: string, n: number) => string)[] = [
  (s) => `${s}공장`, (s) => `${s}물류센터`, (s) => `${s}창고`, (_, n) => `제${n}공장`, (s) => `${s}산업`, (s, n) => `${s}정밀 제${n}공장`,
];
export const PUBLIC_NAMES: readonly ((place: string) => string)[] = [
  (p) => `${p}주민센터`, (p) => `${p}초등학교`, (p) => `${p}우체국`, (p) => `${p}파출소`, (p) => `${p}중학교`, (p) => `${p}보건소`, (p) => `${p}어린이집`,
];
