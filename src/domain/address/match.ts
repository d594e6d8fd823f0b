// Which building did the input mean, and what had to change to get there. Each candidate is
// compared component by component (Smarty-style): a candidate is plausible when its road and
// building number (or its lot) fit the input, and every other disagreement costs a penalty. The
// unique cheapest plausible building is the match; a tie means the input does not say which.
//
// Plausible: the road name is the same or a typo of it (roadNameDistance) and the 본번 agrees
// (or no number was given), or the lot agrees, or — with neither road nor lot — the 동 agrees.
// Penalties, chosen so a single wrong part loses to the input's own words:
//   시/도 3 · 시/군/구 2 · 읍/면/동 1 · road-name typo up to 1 per letter (roadTypoCost: a slip of
//   one jamo costs half a letter, ㅐ/ㅔ a quarter; doubled for names of ≤ 3 letters, where one
//   edit is a different road more often than a typo) · a road renamed since (the building's
//   이전도로명주소) 1 · another road, or another 본번 on the same road, 3 · 부번 2 · 지하 1 · lot 1 ·
//   postal code 1 (an old 6-digit code: 0, it cannot be compared). Above 5 a candidate is no
//   longer plausible. A lot the building stands on besides its own (관련지번) is its lot.
// Without a building number nothing is fixed, even with one candidate: the letter still lacks it.
// A part the input left out (시/도, or the 일반구 of "성남시") costs nothing — every candidate
// lacks it equally — but is listed in `changes`, so the match is "corrected", not "exact".

import { roadNameDistance, roadTypoCost } from './road-names.ts';
import type { AddressChange, AddressField, AddressMatch, BuildingKind, DirectoryEntry, NotFoundWhy, ParsedAddress, RelatedLot } from './types.ts';

const PENALTY = {
  sido: 3, sigungu: 2, eupmyeondong: 1, otherRoad: 3, renamedRoad: 1, buildingSub: 2, underground: 1, jibun: 1, zipcode: 1, otherBuilding: 1,
} as const;

/** A building name as written and as the directory has it, compared without spaces, case or punctuation. */
export const buildingNameKey = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/[\s()·.,-]/g, '');

/** Whether the written name is the directory's building (the same name, spacing and case aside). */
export function buildingNameAgrees(written: string, actual: string): boolean {
  const w = buildingNameKey(written);
  return w.length >= 2 && w === buildingNameKey(actual);
}

/** Whether the written name is either of the entry's names (시군구용건물명, 건축물대장건물명). */
export function namesBuilding(written: string, e: DirectoryEntry): boolean {
  return buildingNameAgrees(written, e.buildingName) || (e.registerName !== undefined && buildingNameAgrees(written, e.registerName));
}

/** The forms a directory looks a written building name up by: as written, and without spaces. */
export function buildingNameForms(written: string): string[] {
  const trimmed = written.normalize('NFKC').trim();
  return [...new Set([trimmed, trimmed.replace(/\s+/g, '')])].filter((f) => f.length >= 2);
}
const MAX_PENALTY = 5;

// missingUnit, approximated: a building whose name says it holds many units (ours or the
// input's), or an input that mentions one, needs 동/층/호 for the letter to reach its addressee.
const MULTI_UNIT = /빌딩|타워|센터|아파트|오피스텔|상가|프라자|플라자|빌라|맨션|스퀘어|밸리|지식산업|테크노|벤처|캐슬|타운|[Tt]ower/;
// officetels by the word or by the brands builders sell them under (푸르지오시티, 디오빌, SK허브 …),
// checked before the apartment brands some of them carry
const OFFICETEL = /오피스텔|officetel|푸르지오시티|디오빌|sk허브|에스케이허브/i;
// 지식산업센터 (아파트형공장): by the word, the former name, or the names their builders use (테크노마트
// is a shopping mall)
const KNOWLEDGE_CENTER = /지식산업|아파트형공장|테크노(?!마트)|벤처|하이테크|디지털타워|it(?:타워|캐슬|센터|밸리)|아이티(?:타워|캐슬|센터|밸리)|v1\s?center|라이온스밸리|시그마밸리|에이스.*타워/i;
// apartment complexes are mostly named by brand, not by the word 아파트
const APARTMENT = /아파트|apt|자이|래미안|푸르지오|힐스테이트|e편한세상|이편한세상|아이파크|더샵|롯데캐슬|센트레빌|위브|sk뷰|에스케이뷰|데시앙|스위첸|어울림|꿈에그린|하늘채|리슈빌|휴먼시아|주공/i;
const OFFICE = /빌딩|타워|센터|상가|프라자|플라자|스퀘어|밸리|지식산업|테크노|벤처|오피스|몰|시티|비즈|tower|building|plaza/i;
const VILLA = /빌라|맨션|연립|다세대|하우스|타운|캐슬|주택/;

/**
 * The building's kind from its names, the directory's first: the 시군구용건물명 of the matched
 * building, else a building name the input wrote. A 공동주택 (the directory's flag) whose names
 * say nothing is a complex named by a brand we do not list when it has a name, else a 다세대 or
 * 연립 (villa). A matched building without any name is a house.
 */
export function buildingKindOf(directoryName: string | null, writtenName: string | null, matched: boolean, apartment = false): BuildingKind {
  for (const name of [directoryName, writtenName]) {
    if (!name) continue;
    const n = name.normalize('NFKC').replace(/\s+/g, '');
    if (OFFICETEL.test(n)) return 'officetel';
    if (KNOWLEDGE_CENTER.test(n)) return 'knowledge_center';
    if (APARTMENT.test(n)) return 'apartment';
    if (OFFICE.test(n)) return 'office';
    if (VILLA.test(n)) return 'villa';
  }
  if (apartment) return directoryName ? 'apartment' : 'villa';
  if (matched && !directoryName) return 'house';
  return 'unknown';
}

/** Why nothing fits (see NotFoundWhy): the candidates are what the directory found for the input. */
function notFoundWhy(p: ParsedAddress, candidates: readonly DirectoryEntry[]): NotFoundWhy {
  const roadName = p.road?.name ?? p.roadNameOnly;
  if (roadName !== null) return candidates.some((e) => roadNameDistance(roadName, e.roadName) !== null) ? 'no_such_number' : 'unknown_road';
  if (p.jibun !== null) return 'unknown_lot';
  return 'unreadable';
}

export interface CandidateFit {
  plausible: boolean;
  penalty: number;
  changes: AddressChange[];
}

/** "성남시" and "분당구" both point into "성남시 분당구"; "강남구" never into "서초구". */
export function sigunguAgrees(written: string, actual: string): boolean {
  return written === actual || actual.startsWith(`${written} `) || actual.endsWith(` ${written}`);
}

// 행정동 "역삼1동" lies in 법정동 "역삼동"; spreadsheets carry both.
/** The 법정동 a 행정동 lies in: "역삼1동", "제2동"-style names → "역삼동"; any other name as it is. */
export const legalDongOf = (name: string): string => name.replace(/제?\d+동$/, '동');

/** Whether a written 동/읍/면/리 (법정 or 행정: "역삼1동") is the entry's. */
export function dongAgrees(written: string, e: DirectoryEntry): boolean {
  const w = legalDongOf(written);
  return w === legalDongOf(e.eupmyeondong) || (e.ri !== '' && w === e.ri);
}

const MIN_DONG_TYPO = 3;

/**
 * Whether a written 동/읍/면/리 may be a mistyped one: of three letters or more (a two-letter name
 * one letter off is another place — 상동, 중동 — and a road written without its 로 often reads as one).
 */
export function mayBeDongTypo(written: string): boolean {
  return legalDongOf(written).length >= MIN_DONG_TYPO;
}

/** Whether a written 동/읍/면/리 is the entry's mistyped, by the rule road names follow (roadNameDistance). */
function dongTypoOf(written: string, e: DirectoryEntry): boolean {
  const w = legalDongOf(written);
  if (w.length < MIN_DONG_TYPO) return false;
  return roadNameDistance(w, e.eupmyeondong) !== null || (e.ri !== '' && roadNameDistance(w, e.ri) !== null);
}

/** Whether a written lot is a related lot of the building (the 동 or 리 as dongAgrees reads it). */
function lotAgrees(j: NonNullable<ParsedAddress['jibun']>, l: RelatedLot): boolean {
  const w = legalDongOf(j.dong);
  const dong = w === legalDongOf(l.eupmyeondong) || (l.ri !== '' && w === l.ri);
  return dong && j.mountain === l.mountain && j.main === l.main && j.sub === l.sub;
}

const emdText = (e: DirectoryEntry): string => (e.ri ? `${e.eupmyeondong} ${e.ri}` : e.eupmyeondong);
const numberText = (underground: boolean, main: number, sub: number): string =>
  `${underground ? '지하 ' : ''}${main}${sub ? `-${sub}` : ''}`;
const jibunText = (dong: string, mountain: boolean, main: number, sub: number): string =>
  `${dong} ${mountain ? '산' : ''}${main}${sub ? `-${sub}` : ''}`;

function missingNumber(p: ParsedAddress): boolean {
  return p.road === null && p.jibun === null && (p.roadNameOnly !== null || p.eupmyeondong !== null);
}

/** How well one directory entry fits the input; also used by directories to order candidates. */
export function fitCandidate(p: ParsedAddress, e: DirectoryEntry): CandidateFit {
  const changes: AddressChange[] = [];
  let penalty = 0;
  const change = (field: AddressField, from: string | null, to: string, cost: number): void => {
    changes.push({ field, from, to });
    penalty += cost;
  };

  if (p.sido === null) change('sido', null, e.sido, 0);
  else if (p.sido !== e.sido) change('sido', p.sido, e.sido, PENALTY.sido);

  if (p.sigungu === null) {
    if (e.sigungu !== '') change('sigungu', null, e.sigungu, 0);
  } else if (p.sigungu !== e.sigungu) {
    change('sigungu', p.sigungu, e.sigungu, sigunguAgrees(p.sigungu, e.sigungu) ? 0 : PENALTY.sigungu);
  }

  if (p.eupmyeondong !== null && !p.eupmyeondong.split(' ').every((part) => dongAgrees(part, e))) {
    change('eupmyeondong', p.eupmyeondong, emdText(e), PENALTY.eupmyeondong);
  }

  let viaRoad = false;
  const roadName = p.road?.name ?? p.roadNameOnly;
  // found by the road address the building had before its road was renamed: the input wrote that one
  const former = e.via?.kind === 'former_road' ? e.via : null;
  const target = former ?? { roadName: e.roadName, underground: e.underground, main: e.buildingMain, sub: e.buildingSub };
  const distance = roadName === null ? null : roadNameDistance(roadName, target.roadName);
  if (roadName !== null) {
    const typo = distance === null || distance === 0 ? 0 : roadTypoCost(roadName, target.roadName);
    if (distance === null) change('road_name', roadName, e.roadName, PENALTY.otherRoad);
    else if (former) change('road_name', roadName, e.roadName, PENALTY.renamedRoad + typo);
    else if (distance > 0) change('road_name', roadName, e.roadName, typo);
    viaRoad = distance !== null && (p.road === null || p.road.main === target.main);
  }
  if (p.road !== null) {
    const { underground, main, sub } = p.road;
    // another 본번 on the same road is another building (only its lot can still point here);
    // on another road the road change already carries the cost
    const cost = main !== target.main
      ? (distance === null ? 0 : PENALTY.otherRoad)
      : (sub !== target.sub ? PENALTY.buildingSub : 0) + (underground !== target.underground ? PENALTY.underground : 0);
    if (main !== e.buildingMain || sub !== e.buildingSub || underground !== e.underground) {
      change('building_number', numberText(underground, main, sub), numberText(e.underground, e.buildingMain, e.buildingSub), cost);
    } else penalty += cost;
  }

  let viaJibun = false;
  if (p.jibun !== null) {
    const j = p.jibun;
    const related = e.via?.kind === 'related_lot' ? e.via : null;
    viaJibun = ((dongAgrees(j.dong, e) || dongTypoOf(j.dong, e)) && j.mountain === e.jibunMountain && j.main === e.jibunMain && j.sub === e.jibunSub)
      || (related !== null && lotAgrees(j, related));
    if (!viaJibun) {
      const to = jibunText(e.ri || e.eupmyeondong, e.jibunMountain, e.jibunMain, e.jibunSub);
      change('jibun', jibunText(j.dong, j.mountain, j.main, j.sub), to, PENALTY.jibun);
    }
  }

  if (p.zipcode !== null && p.zipcode.value !== e.zipcode) {
    change('zipcode', p.zipcode.value, e.zipcode, p.zipcode.outdated ? 0 : PENALTY.zipcode);
  }

  const viaDong = roadName === null && p.jibun === null && p.eupmyeondong !== null
    && !changes.some((c) => c.field === 'eupmyeondong');
  // given by its name alone ("정자동 한빛타워"): that building; the 동's others rank after it
  let viaBuilding = false;
  if (roadName === null && p.jibun === null && p.buildingName !== null) {
    viaBuilding = namesBuilding(p.buildingName, e);
    if (!viaBuilding) penalty += PENALTY.otherBuilding;
    else {
      // what the name stood for: the road and number the letter needs, said as corrections
      change('road_name', null, e.roadName, 0);
      change('building_number', null, numberText(e.underground, e.buildingMain, e.buildingSub), 0);
    }
  }
  return { plausible: (viaRoad || viaJibun || viaDong || viaBuilding) && penalty <= MAX_PENALTY, penalty, changes };
}

export function matchAddress(parsed: ParsedAddress, candidates: DirectoryEntry[]): AddressMatch {
  const seen = new Set<string>();
  const plausible: Array<{ entry: DirectoryEntry; fit: CandidateFit }> = [];
  for (const entry of candidates) {
    if (seen.has(entry.buildingId)) continue;
    seen.add(entry.buildingId);
    const fit = fitCandidate(parsed, entry);
    if (fit.plausible) plausible.push({ entry, fit });
  }
  const best = Math.min(...plausible.map((c) => c.fit.penalty));
  const top = plausible.filter((c) => c.fit.penalty === best);
  // a building named alone has its number in the directory: one such building is the answer
  const byName = top.length === 1 && parsed.buildingName !== null && missingNumber(parsed) && namesBuilding(parsed.buildingName, top[0]!.entry);
  const noNumber = missingNumber(parsed) && !byName;
  const only = top.length === 1 && !noNumber ? top[0]! : null;
  const buildingKind = buildingKindOf(only?.entry.buildingName || null, parsed.buildingName, only !== null, only?.entry.apartment === true);
  // the matched building's kind covers every name MULTI_UNIT knows, and also a complex named by its
  // brand (래미안…) and a 공동주택 without a name
  const saysMultiUnit = MULTI_UNIT.test(parsed.raw) || (only !== null && buildingKind !== 'house' && buildingKind !== 'unknown');

  return {
    quality: only ? (only.fit.changes.length > 0 ? 'corrected' : 'exact') : plausible.length > 0 ? 'ambiguous' : 'not_found',
    changes: only ? only.fit.changes : [],
    entry: only ? only.entry : null,
    candidates: plausible.length,
    fixedZipcode: only ? only.entry.zipcode : null,
    fixedAddress: only ? (parsed.detail ? `${only.entry.roadAddress}, ${parsed.detail}` : only.entry.roadAddress) : null,
    missingBuildingNumber: noNumber,
    missingUnit: parsed.detail === null && saysMultiUnit,
    zipMismatch: only !== null && parsed.zipcode !== null && !parsed.zipcode.outdated && parsed.zipcode.value !== only.entry.zipcode,
    outdatedZip: parsed.zipcode?.outdated === true,
    formerRoad: only?.entry.via?.kind === 'former_road',
    notFound: plausible.length === 0 ? notFoundWhy(parsed, candidates) : null,
    buildingKind,
    rural: only !== null && /[읍면]$/.test(only.entry.eupmyeondong),
  };
}
