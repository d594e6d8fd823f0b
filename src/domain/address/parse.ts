// Free-text Korean addresses as offices keep them in spreadsheets: glued or doubled spaces,
// full-width characters, postal codes in front or behind, 지번 and 도로명 mixed, the unit part
// with or without a comma. parseAddress reads what it can and never throws; anything it cannot
// place is left out rather than guessed, because the matcher treats every given part as a claim.

import { currentSido, readSigungu, SIDO_ALIASES, SIGUNGU_PREFIXES, sidoByAlias, sigunguRefs } from './regions.ts';
import type { ParsedAddress } from './types.ts';

// Inputs come from spreadsheet cells; anything longer is not an address, and the cap keeps
// every regex below linear in practice.
const MAX_INPUT = 500;

/** 도로명: name ending in 로/길 (가산디지털1로, 3·15대로), optional branch ("45길", "12번길", "35가길"), optional 지하 + number. */
const ROAD_RE = /^((?:[가-힣A-Za-z0-9·]*[가-힣]\d{0,2}|\d{1,2}·\d{1,2})(?:로|길)(?:\d{1,4}[가-힣]?길)?)(?:(지하)?(\d{1,5})(?:-(\d{1,4}))?(?:번지|번)?)?$/;
/** 법정동/읍/면/리 or "종로1가", optionally glued to its lot number ("역삼동737", "역삼동산12-3"). */
const DONG_RE = /^([가-힣][가-힣0-9]*?(?:동|\d가|리|읍|면))(?:(산)?(\d{1,5})(?:-(\d{1,4}))?(?:번지)?)?$/;
const NUMBER_RE = /^(지하|산)?(\d{1,5})(?:-(\d{1,4}))?(번지|번)?$/;
// 가동/나동… name apartment blocks, so a one-syllable 동 counts as unit once the base is read.
// 호 is tried first so "B101호" stays a room, not basement floor 10 + room 1.
const UNIT_PART_RE =
  /(?:제)?(?:(?<ho>[A-Za-z]?-?\d{1,5}(?:-\d{1,4})?)호|(?<dong>(?:\d{1,4}|[A-Za-z]|[가나다라마바사아자차카타파하])동)|(?<under>지하|[Bb])?(?<floor>\d{1,3}(?:~\d{1,3})?)(?:층|[Ff](?![A-Za-z]))|[Bb](?<basement>\d{1,2})(?![\d호A-Za-z]))/y;
const ZIP5 = /^(0[1-9]|[1-5]\d|6[0-3])\d{3}$/;
const ZIP6 = /^[1-7]\d{2}-\d{3}$/;
const SEJONG = '세종특별자치시';
const COMPANY_MARKS = new Set(['주', '유', '재', '사', '합', '주식회사', '유한회사']);
// words around a unit that name no building: "1층 일부", "3층 전체"
const FILLER = new Set(['일부', '전체', '외', '내', '번지', '호', '층']);
// a word followed by a number that names a building, not a road written without its 로/길
const BUILDING_WORD = /빌딩|타워|센터|아파트|오피스텔|상가|프라자|플라자|빌라|맨션|스퀘어|밸리|타운|캐슬|시티|몰|단지|마을/;

interface Unit {
  dong: string | null;
  floor: string | null;
  ho: string | null;
  parts: string[];
}

export function parseAddress(raw: string): ParsedAddress {
  const text = typeof raw === 'string' ? raw : '';
  const out: ParsedAddress = {
    raw: text, sido: null, sigungu: null, eupmyeondong: null, road: null, roadNameOnly: null, jibun: null,
    detail: null, unit: null, buildingName: null, zipcode: null, form: 'unknown',
  };
  let s = normalise(text.slice(0, MAX_INPUT));
  const zip = takeZip(s);
  s = zip.rest;
  out.zipcode = zip.zipcode;

  const unit: Unit = { dong: null, floor: null, ho: null, parts: [] };
  const inner = takeParenthesised(s);
  const tokens = inner.rest.split(/[\s,]+/).filter((t) => t !== '').flatMap(splitGlued);
  const emd: string[] = [];
  const nameWords: string[] = [];
  let pendingRoad: string | null = null;
  let underground = false;
  let baseDone = false;
  let lastUnit: 'dong' | 'floor' | null = null;
  let sidoWritten = '';

  const setJibun = (dong: string, mountain: boolean, main: number, sub: number): void => {
    if (!out.jibun) out.jibun = { dong, mountain, main, sub };
    baseDone = true;
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const before = !baseDone && pendingRoad === null;
    if (before && emd.length === 0) {
      if (out.sido === null && out.sigungu === null) {
        const sido = sidoByAlias(t);
        if (sido) { out.sido = sido; sidoWritten = t; continue; }
      }
      if (out.sigungu === null) {
        const sgg = readSigungu(t, tokens[i + 1], out.sido);
        if (sgg) { out.sigungu = sgg.name; i += sgg.used - 1; continue; }
      }
    }
    if (!baseDone && pendingRoad === null) {
      const m = ROAD_RE.exec(t);
      if (m) {
        if (m[3] === undefined) { pendingRoad = m[1]!; continue; }
        out.road = { name: m[1]!, underground: m[2] !== undefined, main: Number(m[3]), sub: Number(m[4] ?? 0) };
        baseDone = true;
        continue;
      }
      // "강남구 테헤란 152": a road written without its 로/길, read as written — the directories
      // look for the road it is a letter short of, as for any typo
      // (right after the 시군구 only: after a 동 a word and a number are a name and a lot)
      const n = (out.sigungu !== null || out.sido === SEJONG) && emd.length === 0 ? NUMBER_RE.exec(tokens[i + 1] ?? '') : null;
      if (n && n[1] !== '산' && n[4] !== '번지' && /^[가-힣]{2,8}$/.test(t) && !DONG_RE.test(t) && !BUILDING_WORD.test(t) && !COMPANY_MARKS.has(t) && !FILLER.has(t)) {
        out.road = { name: t, underground: n[1] === '지하', main: Number(n[2]), sub: Number(n[3] ?? 0) };
        baseDone = true;
        i++;
        continue;
      }
    }
    if (pendingRoad !== null) {
      if (t === '지하') { underground = true; continue; }
      const n = NUMBER_RE.exec(t);
      if (n && n[1] !== '산') {
        out.road = { name: pendingRoad, underground: underground || n[1] === '지하', main: Number(n[2]), sub: Number(n[3] ?? 0) };
        pendingRoad = null;
        baseDone = true;
        continue;
      }
      // "중앙로 12번길 3" when the branch was not glued during normalisation
      const branch = /^(\d{1,4}[가-힣]?길)(?:(\d{1,5})(?:-(\d{1,4}))?)?$/.exec(t);
      if (branch && !/(?:\d[가-힣]?길)$/.test(pendingRoad)) {
        pendingRoad += branch[1]!;
        if (branch[2] !== undefined) {
          out.road = { name: pendingRoad, underground, main: Number(branch[2]), sub: Number(branch[3] ?? 0) };
          pendingRoad = null;
          baseDone = true;
        }
        continue;
      }
    }
    if (!baseDone) {
      const d = DONG_RE.exec(t);
      if (d) {
        const name = d[1]!;
        if (emd.length === 0 || (/[읍면]$/.test(emd[emd.length - 1]!) && name.endsWith('리'))) emd.push(name);
        if (d[3] !== undefined) setJibun(name, d[2] !== undefined, Number(d[3]), Number(d[4] ?? 0));
        continue;
      }
      const n = NUMBER_RE.exec(t);
      const dong = emd[emd.length - 1] ?? inner.dongs[inner.dongs.length - 1];
      if (n && n[1] !== '지하' && dong !== undefined && pendingRoad === null) {
        setJibun(dong, n[1] === '산', Number(n[2]), Number(n[3] ?? 0));
        continue;
      }
    }
    if (readUnit(t, unit, baseDone || pendingRoad !== null)) {
      lastUnit = unit.ho === null ? (unit.floor !== null ? 'floor' : 'dong') : null;
      continue;
    }
    // "101동 1203": the 호 is often written as a bare number after the 동 or 층
    if (lastUnit !== null && unit.ho === null && /^\d{1,5}$/.test(t)) {
      unit.ho = `${t}호`;
      unit.parts.push(unit.ho);
      lastUnit = null;
      continue;
    }
    if (baseDone || pendingRoad !== null) {
      if (emd.length === 0 && inner.dongs.length === 0 && DONG_RE.test(t) && !/\d/.test(t) && t.length >= 3 && /[동읍면]$/.test(t)) {
        emd.push(t);
        continue;
      }
      if (!COMPANY_MARKS.has(t) && !FILLER.has(t) && /[가-힣A-Za-z]/.test(t)) nameWords.push(t);
    } else if ((emd.length > 0 || out.sigungu !== null) && !COMPANY_MARKS.has(t) && !FILLER.has(t) && /[가-힣A-Za-z]/.test(t)) {
      // "정자동 한빛타워 1205호", "강남구 한빛타워": offices write a building by its name, without road or lot
      nameWords.push(t);
    }
  }

  for (const part of inner.units) readUnit(part, unit, true);
  if (pendingRoad !== null) out.roadNameOnly = pendingRoad;
  const dongs = emd.length > 0 ? emd : inner.dongs.slice(0, 2);
  if (dongs.length > 0) out.eupmyeondong = dongs.join(' ');
  // "광주시 오포읍": 광주광역시 has no 읍 or 면, so "광주시" was 경기 광주시
  if (out.sido === GWANGJU_METRO && out.sigungu === null && sidoWritten === '광주시' && /[읍면]$/.test(dongs[0] ?? '')) {
    out.sido = '경기도';
    out.sigungu = '광주시';
  }
  if (out.sido !== null && out.sigungu !== null) out.sido = currentSido(out.sido, out.sigungu);
  if (out.jibun === null && inner.jibun) out.jibun = inner.jibun;
  const name = inner.names.length > 0 ? inner.names.join(' ') : nameWords.join(' ');
  if (name !== '') out.buildingName = name;
  if (unit.parts.length > 0) {
    out.detail = unit.parts.join(' ');
    out.unit = { dong: unit.dong, floor: unit.floor, ho: unit.ho };
  }
  out.form = out.road || out.roadNameOnly ? 'road' : out.jibun ? 'jibun' : 'unknown';
  return out;
}

// Only Hangul syllables, ASCII letters and digits, spaces, commas, hyphens and parentheses: what
// most addresses are made of, which NFKC and the first replacements of normalise() leave alone
const PLAIN = /^[\uAC00-\uD7A3A-Za-z0-9 ,()-]*$/;

const GWANGJU_METRO = '광주광역시';

// words that are names by themselves, which a following suffix does not belong to
const WHOLE_PLACE_NAME = /(?:시|도|군|구|읍|면|동|리|가|로|길)$/;

function normalise(s: string): string {
  return tidy(PLAIN.test(s) ? s : unify(s));
}

/** Full-width forms, dashes, brackets, quotes and separators in their plain form. */
function unify(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212\u30FC\uFE58\uFE63]/g, '-')
    .replace(/[【〔「『〈《[{]/g, '(')
    .replace(/[】〕」』〉》\]}]/g, ')')
    .replace(/["'`‘’“”]/g, '')
    // 3·15대로, 4·19로: a dot between numbers is part of a road name; elsewhere it separates words
    .replace(/(\d)[·ㆍ\u119E.](\d{1,2}[가-힣])/g, '$1\uE000$2')
    .replace(/[·•ㆍ\u119E/|;]/g, ' ')
    .replace(/\uE000/g, '·');
}

/** Spaces, and the spacing around numbers and units, as the readers below expect them. */
function tidy(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(/(\d) ?- ?(\d)/g, '$1-$2')
    .replace(/(\d)-(\d{1,3}층)/g, '$1 $2')
    .replace(/((?:^|\s)(?:제|산)|지하) (\d)/g, '$1$2')
    .replace(/(\d) (동|층|호|번지|번길|길)(?=[\s,)]|$)/g, '$1$2')
    .replace(/([가-힣](?:로|길)) (\d{1,4}[가-힣]?길)(?=[\s,)\d]|$)/g, '$1$2')
    // a name typed with a space before its suffix: "을지 로 62", "서초 동 562", "진접 읍",
    // "창신 32길 40" (a word already ending in a place suffix is a whole name, and stays)
    .replace(/(^|\s)([가-힣]{1,6}) (로|길|동|읍|면|\d{1,3}번?길)(?=[\s,)]|\d|$)/g, (whole, lead: string, word: string, suffix: string) =>
      (WHOLE_PLACE_NAME.test(word) ? whole : `${lead}${word}${suffix}`))
    .trim();
}

function zipOf(digits: string): ParsedAddress['zipcode'] {
  if (/^\d{5}$/.test(digits)) return { value: digits, outdated: false };
  const six = digits.replace('-', '');
  return /^\d{6}$/.test(six) ? { value: `${six.slice(0, 3)}-${six.slice(3)}`, outdated: true } : null;
}

/** A postal code marked (우편번호, 우), 〒), bracketed, or bare at either end. */
function takeZip(s: string): { rest: string; zipcode: ParsedAddress['zipcode'] } {
  const marked = /(?:^|[\s(])(?:우편번호|우편|우|〒|zip(?:code)?)\s*[):.]?\s*(\d{3}-\d{3}|\d{5,6})(?!\d)\)?/i.exec(s)
    ?? /\(\s*(\d{5}|\d{3}-\d{3})\s*\)/.exec(s);
  if (marked) return { rest: cut(s, marked.index, marked[0].length), zipcode: zipOf(marked[1]!) };
  const lead = /^(\d{5}|\d{3}-\d{3})(?:\s|$|(?=[가-힣]))/.exec(s);
  if (lead && (ZIP5.test(lead[1]!) || ZIP6.test(lead[1]!))) return { rest: s.slice(lead[0].length), zipcode: zipOf(lead[1]!) };
  const tail = /(?:^|\s)(\d{5}|\d{3}-\d{3})$/.exec(s);
  if (tail) {
    const v = tail[1]!;
    // "역삼동 123-456" and "산 123-456" end in a lot number that looks like an old postal code
    const prev = s.slice(0, tail.index).trim().split(' ').pop() ?? '';
    const lotBefore = /(?:[동리가읍면로길]|^산)$/.test(prev) || prev === '';
    if (ZIP5.test(v) || (ZIP6.test(v) && !lotBefore)) return { rest: s.slice(0, tail.index), zipcode: zipOf(v) };
  }
  return { rest: s, zipcode: null };
}

const cut = (s: string, at: number, len: number): string => `${s.slice(0, at)} ${s.slice(at + len)}`.replace(/\s+/g, ' ').trim();

interface Parenthesised {
  rest: string;
  dongs: string[];
  names: string[];
  units: string[];
  jibun: ParsedAddress['jibun'];
}

/** "(역삼동, 강남파이낸스센터)": the 참고항목 of a road address — 법정동 and building name. */
function takeParenthesised(s: string): Parenthesised {
  const out: Parenthesised = { rest: '', dongs: [], names: [], units: [], jibun: null };
  out.rest = s.replace(/\(([^()]*)\)/g, (_all, body: string) => {
    const parts = body.split(/[\s,]+/).filter((p) => p !== '');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      const d = DONG_RE.exec(p);
      if (d) {
        out.dongs.push(d[1]!);
        const n = d[3] === undefined ? NUMBER_RE.exec(parts[i + 1] ?? '') : null;
        if (d[3] !== undefined) out.jibun = { dong: d[1]!, mountain: d[2] !== undefined, main: Number(d[3]), sub: Number(d[4] ?? 0) };
        else if (n && n[1] !== '지하') {
          out.jibun = { dong: d[1]!, mountain: n[1] === '산', main: Number(n[2]), sub: Number(n[3] ?? 0) };
          i++;
        }
      } else if (isUnitToken(p)) out.units.push(p);
      else if (!COMPANY_MARKS.has(p) && /[가-힣A-Za-z]/.test(p)) out.names.push(p);
    }
    return ' ';
  }).replace(/[()]/g, ' ');
  return out;
}

function isUnitToken(t: string): boolean {
  return readUnit(t, { dong: null, floor: null, ho: null, parts: [] }, true);
}

/** Reads "101동", "3층", "B1층", "지하1층", "제3층", "301호", or glued runs like "101동1203호". */
function readUnit(t: string, unit: Unit, afterBase: boolean): boolean {
  const found: Array<['dong' | 'floor' | 'ho', string]> = [];
  UNIT_PART_RE.lastIndex = 0;
  let at = 0;
  while (at < t.length) {
    UNIT_PART_RE.lastIndex = at;
    const m = UNIT_PART_RE.exec(t);
    if (!m) return false;
    const g = m.groups ?? {};
    if (g.ho !== undefined) found.push(['ho', `${g.ho}호`]);
    else if (g.dong !== undefined) {
      if (!afterBase && !/^\d/.test(g.dong)) return false;
      found.push(['dong', g.dong]);
    } else if (g.floor !== undefined) found.push(['floor', g.under ? `지하${g.floor}층` : `${g.floor}층`]);
    else found.push(['floor', `지하${g.basement ?? ''}층`]);
    at = UNIT_PART_RE.lastIndex;
  }
  if (found.length === 0) return false;
  for (const [kind, value] of found) {
    if (unit[kind] === null) unit[kind] = value;
    unit.parts.push(value);
  }
  return true;
}

/** A list of names by their first letter, each in the list's order. */
function byFirstLetter(names: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of names) {
    const list = out.get(name[0]!);
    if (list) list.push(name);
    else out.set(name[0]!, [name]);
  }
  return out;
}

// only names with the token's first letter can start it: a few, where the lists hold ~50 and ~300
const SIDO_ALIASES_BY_LETTER = byFirstLetter(SIDO_ALIASES);
const SIGUNGU_PREFIXES_BY_LETTER = byFirstLetter(SIGUNGU_PREFIXES);
const none: readonly string[] = [];
const sidoAliasesOf = (t: string): readonly string[] => SIDO_ALIASES_BY_LETTER.get(t[0] ?? '') ?? none;
const sigunguPrefixesOf = (t: string): readonly string[] => SIGUNGU_PREFIXES_BY_LETTER.get(t[0] ?? '') ?? none;
const startsWithSigungu = (t: string): boolean => sigunguPrefixesOf(t).some((p) => t.startsWith(p));

function isPlacePart(rest: string): boolean {
  if (startsWithSigungu(rest)) return true;
  const road = ROAD_RE.exec(rest);
  // the road's own name, without a branch: "달성군청로188번길" is the road 달성군청로's 188번길, not 달성군 + 청로188번길
  if (road) return road[1]!.replace(/(?<=[로길])\d{1,4}[가-힣]?길$/, '').length >= 3;
  const dong = DONG_RE.exec(rest);
  return dong !== null && dong[1]!.length >= 2;
}

/** "서울시강남구테헤란로152" → 서울시, 강남구, 테헤란로152 (a whole known name is never split). */
function splitGlued(t: string): string[] {
  if (sidoByAlias(t) || sigunguRefs(t).length > 0) return [t];
  for (const alias of sidoAliasesOf(t)) {
    if (t.length <= alias.length || !t.startsWith(alias)) continue;
    const rest = t.slice(alias.length);
    // Roads like 서울시립대로 and 제주대학로 start with a 시/도 name, so only a following 시/군/구
    // splits — except in 세종, which has none.
    const next = startsWithSigungu(rest) || (sidoByAlias(alias) === SEJONG && isPlacePart(rest));
    if (next) return [alias, ...splitGlued(rest)];
  }
  for (const p of sigunguPrefixesOf(t)) {
    if (t.length > p.length && t.startsWith(p)) {
      const rest = t.slice(p.length);
      if (isPlacePart(rest)) return [p, ...splitGlued(rest)];
    }
  }
  return [t];
}
