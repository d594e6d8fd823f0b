// A building's addresses in the official forms (도로명주소 안내시스템's, as the juso API answers
// them), built the same way whichever directory found the building, so `fixed_address` does not
// depend on the backend.
import type { DirectoryEntry } from './types.ts';

type Parts = Pick<DirectoryEntry, 'sido' | 'sigungu' | 'eupmyeondong' | 'roadName' | 'underground' | 'buildingMain' | 'buildingSub'>;

/** 읍/면 areas write their 읍/면 into the road address; 동 areas do not (it goes to the 참고항목). */
const isEupMyeon = (name: string): boolean => name.endsWith('읍') || name.endsWith('면');

/**
 * The road-name address without 참고항목: "서울특별시 강남구 테헤란로 152", "세종특별자치시 조치원읍
 * 새내로 96", "경기도 양평군 양평읍 양근로 12", "… 세종대로 지하 2", "… 123-4".
 */
export function roadAddressOf(e: Parts): string {
  // concatenated, not joined from a list: every candidate a directory reads builds one
  let out = e.sido;
  if (e.sigungu !== '') out += ` ${e.sigungu}`;
  if (isEupMyeon(e.eupmyeondong)) out += ` ${e.eupmyeondong}`;
  out += ` ${e.roadName} ${e.underground ? '지하 ' : ''}${e.buildingMain}`;
  return e.buildingSub ? `${out}-${e.buildingSub}` : out;
}

/** The lot-number address: "서울특별시 강남구 역삼동 737", "경기도 양평군 양평읍 양근리 산 123-4". */
export function jibunAddressOf(e: Pick<DirectoryEntry, 'sido' | 'sigungu' | 'eupmyeondong' | 'ri' | 'jibunMountain' | 'jibunMain' | 'jibunSub'>): string {
  const lot = `${e.jibunMountain ? '산 ' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`;
  return [e.sido, e.sigungu, e.eupmyeondong, e.ri, lot].filter((p) => p !== '').join(' ');
}

/**
 * The 참고항목 written after a road address: the 법정동 in 동 areas and the building's name,
 * "(역삼동, 강남파이낸스센터)"; null when there is neither (a house in a 읍/면).
 */
export function referenceOf(e: Pick<DirectoryEntry, 'eupmyeondong' | 'buildingName'>): string | null {
  const parts = [isEupMyeon(e.eupmyeondong) ? '' : e.eupmyeondong, e.buildingName].filter((p) => p !== '');
  return parts.length > 0 ? `(${parts.join(', ')})` : null;
}
