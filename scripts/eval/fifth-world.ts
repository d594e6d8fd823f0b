// The fifth evaluation world, written apart from the bounce model (never read): four senders whose
// lists are nothing like an ordinary customer list, on the shared map of independent-places.ts.
//
// - 0 '채권추심 법무법인': 내용증명 (등기) to small debtors. Many closed before or after the list was
//   made, many never filed the closure; a registered letter needs a signature, so shut premises come
//   back 폐문부재, disputing owners refuse (수취거절), sole proprietors avoid the carrier. A debtor who
//   closed but is registered at home still lives there; a shop "closed" and reopened under the
//   spouse's name has someone at the counter who says the addressee is unknown.
// - 1 '보험 갱신안내': ordinary renewal notices to owner-operators (화물, 개인택시, 퀵, 용달) registered at
//   their homes. Closing the business changes nothing (they still live there); what matters is whether
//   they moved (renters in villas and officetels move often), whether the apartment's 동/호 is there
//   for the unit box, and for 지입 drivers registered at the 운수회사 office, whether they left it.
// - 2 '테크노파크 기업지원': ordinary notices to 벤처 / 지식산업센터 tenants, start-ups that move up or fold
//   quickly (rooms re-let within weeks), 비상주 offices that forward only while the contract runs; a
//   founder's 개인 number closed on turning into a 법인 is the same firm at the same desk.
// - 3 '지역농협 조합원사업': ordinary mail to farm businesses (개인 면세 농가, 영농조합법인, 농업회사법인), in 읍/면
//   with 지번 addresses from old membership records. A village (면) carrier knows everyone: damaged or
//   stale addresses still arrive, a farmer who moved within the village is redirected; in a 읍 or a
//   city the carrier is an ordinary one. Dormant 영농조합법인 change representatives.
//
// Hidden: the list's age, moves, closures NTS has not filed, successors, re-lets, forwarding, disputes,
// avoidance, 지입 drivers who left, ended 비상주 contracts, demolitions after the list was copied.

import { checkDigitOf } from '../../src/domain/bizno.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';
import type { NtsRecord } from '../../src/domain/status.ts';
import { between, chance, GIVEN, pick, type Rand, STEMS, SURNAMES, weighted } from './independent-names.ts';
import { type Building, buildDirectory, type Kind, missingNumberOn, namesAt, SIDO_SHORT, unitOf } from './independent-places.ts';
import type { IndependentWorld, Mailing } from './independent-world.ts';

const ACCOUNTS = ['채권추심 법무법인 (내용증명)', '보험 갱신안내 (화물·택시·퀵)', '테크노파크 기업지원', '지역농협 조합원사업'] as const;
const POOL = 2_500;
const TEST = 1_500;

const VISIBLE = ['nts', 'closedAgo', 'entity', 'trade', 'premise', 'kind', 'rural', 'village', 'form', 'damage', 'unitMissing', 'unitDash', 'zip', 'oldNames', 'taxLocal'] as const;

type Entity = 'indiv' | 'exempt' | 'corp' | 'branch' | 'nonprofit';
type Premise = 'home' | 'shop' | 'office' | 'factory' | 'virtual' | 'jiip' | 'farmhouse' | 'warehouse';
type State = 'there' | 'moved' | 'closed-gone' | 'closed-home' | 'successor' | 'suspended' | 'suspended-home' | 'demolished' | 'left-jiip' | 'virtual-ended' | 'rep-changed' | 'elder-gone';
type Damage = 'none' | 'wrong-number' | 'no-number' | 'road-typo' | 'name-only' | 'sgg-short' | 'no-area';

// ---------------------------------------------------------------- small helpers

const exp = (r: Rand, mean: number): number => -Math.log(1 - r()) * mean;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const ymd = (year: number): string => {
  const d = new Date(Date.UTC(Math.floor(year), 0, 1) + (year - Math.floor(year)) * 365.25 * 86_400_000);
  return d.toISOString().slice(0, 10).replace(/-/g, '');
};
const either = (...ps: number[]): number => 1 - ps.reduce((q, p) => q * (1 - p), 1);

const TAX_TEXT: Record<string, string> = {
  '01': '부가가치세 일반과세자', '02': '부가가치세 간이과세자', '04': '부가가치세 면세사업자', '07': '부가가치세 간이과세자(세금계산서 발급사업자)',
};
const STT_TEXT: Record<string, string> = { '01': '계속사업자', '02': '휴업자', '03': '폐업자' };

function ntsRecord(bno: string, code: '01' | '02' | '03', taxCd: string, endDt: string): NtsRecord {
  return {
    b_no: bno, b_stt: STT_TEXT[code]!, b_stt_cd: code, tax_type: TAX_TEXT[taxCd]!, tax_type_cd: taxCd, end_dt: code === '03' ? endDt : '',
    utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
  };
}

// ---------------------------------------------------------------- who is on each list

interface Row {
  account: number;
  b: Building;
  unit: string;
  entity: Entity;
  trade: string;
  premise: Premise;
  name: string;
  listYear: number;
  taxLocal: boolean;
  truth: Record<string, string | number | boolean>;
}

const LAW_TRADES = { 음식점: 0.24, 인테리어: 0.14, 건설하도급: 0.12, 도소매: 0.18, 미용: 0.07, 학원: 0.06, 제조: 0.11, 운송: 0.08 } as const;
const INS_TRADES = { 화물: 0.4, 개인택시: 0.22, 퀵서비스: 0.16, 용달: 0.12, 지입화물: 0.1 } as const;
const TP_TRADES = { 소프트웨어: 0.3, 바이오: 0.12, 제조벤처: 0.18, 디자인: 0.1, 콘텐츠: 0.12, 연구소기업: 0.08, 전자부품: 0.1 } as const;
const FARM_TRADES = { 개인농가: 0.45, 영농조합법인: 0.17, 농업회사법인: 0.12, 축산: 0.1, 농산물가공: 0.08, 시설원예: 0.08 } as const;

const corpName = (r: Rand, core: string): string => pick(r, [`(주)${core}`, `주식회사 ${core}`, `${core}(주)`, `㈜${core}`, `${core} 주식회사`]);
const person = (r: Rand): string => `${pick(r, SURNAMES)}${pick(r, GIVEN)}`;

function businessName(r: Rand, account: number, trade: string, entity: Entity, b: Building): string {
  const s = pick(r, STEMS);
  const corp = entity === 'corp' || entity === 'branch';
  const place = (b.entry.ri || b.entry.eupmyeondong).replace(/([0-9]*가|[0-9]*[동읍면리])$/, '') || s;
  switch (account) {
    case 0: {
      const core = {
        음식점: `${s}${pick(r, ['식당', '갈비', '국밥', '치킨', '횟집', '곱창', '반점', '해장국'])}`, 인테리어: `${s}인테리어`, 건설하도급: `${s}${pick(r, ['건설', '종합건설', '건업', '산업개발'])}`,
        도소매: `${s}${pick(r, ['상사', '유통', '마트', '상회'])}`, 미용: `${s}${pick(r, ['헤어', '미용실', '네일'])}`, 학원: `${s}${pick(r, ['학원', '수학학원', '어학원'])}`,
        제조: `${s}${pick(r, ['정밀', '산업', '금속', '테크'])}`, 운송: `${s}${pick(r, ['물류', '운수', '익스프레스'])}`,
      }[trade] ?? s;
      return corp ? corpName(r, core) + (entity === 'branch' ? ` ${place}지점` : '') : core;
    }
    case 1: {
      if (trade === '개인택시') return chance(r, 0.6) ? `개인택시 ${person(r)}` : person(r);
      if (chance(r, 0.3)) return person(r);
      const core = { 화물: `${s}${pick(r, ['화물', '운수', '로지스', '물류', '카고'])}`, 퀵서비스: `${s}퀵서비스`, 용달: `${s}용달`, 지입화물: `${s}${pick(r, ['운수', '화물'])}` }[trade] ?? s;
      return corp ? corpName(r, core) : core;
    }
    case 2: {
      const tail = { 소프트웨어: ['소프트', '랩스', 'AI', '데이터', '솔루션'], 바이오: ['바이오', '바이오텍', '메디컬', '헬스케어'], 제조벤처: ['로보틱스', '테크', '이노베이션', '정밀'], 디자인: ['디자인', '스튜디오', '크리에이티브'], 콘텐츠: ['미디어', '스튜디오', '엔터', '게임즈'], 연구소기업: ['연구소', '사이언스', '머티리얼즈'], 전자부품: ['전자', '일렉트로닉스', '센서', '반도체'] }[trade] ?? ['테크'];
      const core = `${s}${pick(r, tail)}`;
      return entity === 'nonprofit' ? `(재)${core}연구원` : corp ? corpName(r, core) : core;
    }
    default: {
      if (trade === '영농조합법인') return pick(r, [`${place}영농조합법인`, `영농조합법인 ${s}농장`, `${s}영농조합법인`, `(영)${s}`]);
      if (trade === '농업회사법인') return pick(r, [`농업회사법인 ${s}(주)`, `농업회사법인(주)${s}팜`, `농업회사법인 주식회사 ${s}`, `${s}팜 농업회사법인`]);
      if (chance(r, 0.3)) return person(r);
      const core = { 개인농가: `${s}${pick(r, ['농원', '농장', '영농', '과수원'])}`, 축산: `${s}${pick(r, ['한우', '축산', '농장', '양돈'])}`, 농산물가공: `${s}${pick(r, ['식품', '방앗간', '농산'])}`, 시설원예: `${s}${pick(r, ['화훼', '원예', '딸기농장'])}` }[trade] ?? s;
      return corp ? corpName(r, core) : core;
    }
  }
}

// ---------------------------------------------------------------- how each sender writes an address

interface Style {
  sidoShort: number; zip: number; jibun: number; dropUnit: number; refNote: number; unitDash: number;
  damage: Partial<Record<Damage, number>>;
}
const STYLES: readonly Style[] = [
  // the law firm copies addresses from contracts and 등기부: full, some in 지번 from old contracts
  { sidoShort: 0.3, zip: 0.2, jibun: 0.18, dropUnit: 0.14, refNote: 0.5, unitDash: 0.1, damage: { none: 0.78, 'wrong-number': 0.045, 'no-number': 0.025, 'road-typo': 0.05, 'name-only': 0.02, 'sgg-short': 0.06, 'no-area': 0.02 } },
  // the insurer's policy system: standardised, 동/호 in, but some policies are a decade old
  { sidoShort: 0.15, zip: 0.55, jibun: 0.06, dropUnit: 0.08, refNote: 0.6, unitDash: 0.3, damage: { none: 0.85, 'wrong-number': 0.03, 'no-number': 0.01, 'road-typo': 0.05, 'sgg-short': 0.04, 'no-area': 0.02 } },
  // the 테크노파크's partner database, typed by staff: building names, "3층", abbreviations
  { sidoShort: 0.65, zip: 0.3, jibun: 0.08, dropUnit: 0.15, refNote: 0.35, unitDash: 0.05, damage: { none: 0.62, 'wrong-number': 0.05, 'no-number': 0.04, 'road-typo': 0.08, 'name-only': 0.07, 'sgg-short': 0.1, 'no-area': 0.04 } },
  // the co-op's membership records: 지번, old names, old 6-digit codes, lots missing
  { sidoShort: 0.45, zip: 0.45, jibun: 0.62, dropUnit: 0.2, refNote: 0.2, unitDash: 0.2, damage: { none: 0.7, 'wrong-number': 0.07, 'no-number': 0.07, 'road-typo': 0.05, 'name-only': 0.02, 'sgg-short': 0.06, 'no-area': 0.05 } },
];

const SIMILAR: Record<string, string> = { 대: '데', 데: '대', 세: '새', 새: '세', 계: '게', 게: '계', 의: '이', 외: '왜', 왜: '외', 예: '에', 에: '예', 래: '레', 레: '래', 개: '게', 내: '네', 네: '내', 해: '헤', 매: '메', 배: '베', 채: '체', 재: '제', 제: '재', 성: '송', 동: '돈', 중: '정', 원: '언', 천: '전', 청: '정' };

function typoRoad(r: Rand, name: string): string {
  if (name.endsWith('번길') && chance(r, 0.5)) return name.replace(/번길$/, '길');
  const m = /^(.*?)([0-9]*(?:번길|길|로|대로))$/.exec(name);
  const stem = m ? m[1]! : name;
  const tail = m ? m[2]! : '';
  const idx = Array.from(stem).map((c, i) => (SIMILAR[c] ? i : -1)).filter((i) => i >= 0);
  if (idx.length > 0) {
    const i = pick(r, idx);
    return stem.slice(0, i) + SIMILAR[stem[i]!]! + stem.slice(i + 1) + tail;
  }
  if (stem.length >= 2) return `${stem.slice(0, -2)}${stem.at(-1)}${stem.at(-2)}${tail}`;
  return name.replace(/로$/, '길');
}

function writeAddress(r: Rand, row: Row): { address: string; form: string; damage: Damage; unitMissing: boolean; unitDash: boolean; zip: string; oldNames: boolean } {
  const st = STYLES[row.account]!;
  const b = row.b;
  const e = b.entry;
  const Y = row.listYear;
  const nm = namesAt(b, Y);
  const oldNames = nm.sido !== e.sido || nm.sgg !== e.sigungu || nm.area !== e.eupmyeondong;
  let damage = weighted(r, st.damage);
  const bnameNow = b.formerName && Y < b.formerName.until ? b.formerName.name : e.buildingName;
  if (damage === 'name-only' && (!bnameNow || b.kind === 'house')) damage = 'none';
  if (damage === 'sgg-short' && !nm.sgg.includes(' ') && !(nm.sgg && chance(r, 0.5))) damage = 'none';
  let sido = chance(r, st.sidoShort) ? pick(r, SIDO_SHORT[nm.sido] ?? [nm.sido]) : nm.sido;
  let sgg = nm.sgg;
  if (damage === 'sgg-short') {
    if (sgg.includes(' ')) sgg = chance(r, 0.6) ? sgg.split(' ')[1]! : sgg.split(' ')[0]!;
    else { sgg = ''; }
  }
  if (sgg === '' && nm.sido === '세종특별자치시' && chance(r, 0.3)) sido = '세종시';
  const road = b.road.former && Y < b.road.former.until ? b.road.former.name : e.roadName;
  // the unit: sometimes left out, apartments often as 101-1203
  let unit = row.unit;
  let unitMissing = false;
  let unitDash = false;
  if (unit && chance(r, st.dropUnit * (row.premise === 'virtual' ? 0.5 : 1))) { unit = ''; unitMissing = true; }
  if (unit && b.kind === 'apt' && chance(r, st.unitDash)) {
    const m = /^([0-9]+)동 ([0-9]+)호$/.exec(unit);
    if (m) { unit = `${m[1]}-${m[2]}`; unitDash = true; }
  }
  // the form: road name, lot number (more the older the list, and in the country), or building name only
  const jibunP = clamp(st.jibun + (Y < 2014 ? 0.25 : 0) + (b.rural ? 0.15 : 0), 0, 0.92);
  const form = damage === 'name-only' ? 'name' : chance(r, jibunP) ? 'jibun' : 'road';
  // zip: 6 digits before August 2015, 5 after; as a prefix or a suffix
  let zip = 'none';
  let zipText = '';
  if (chance(r, st.zip)) {
    if (Y < 2015.6) { zip = '6'; zipText = b.area.zip6; } else { zip = '5'; zipText = e.zipcode; }
  }
  const head = [sido, sgg].filter(Boolean).join(' ');
  const area = damage === 'no-area' && form !== 'name' ? '' : nm.area;
  let text: string;
  if (form === 'name') {
    text = [head, nm.area, e.ri, bnameNow, unit].filter(Boolean).join(' ');
  } else if (form === 'jibun') {
    let lot = `${e.jibunMountain ? '산' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`;
    if (damage === 'wrong-number') lot = `${e.jibunMain + pick(r, [-1, 1]) * between(r, 150, 600) > 0 ? e.jibunMain + between(r, 150, 600) : e.jibunMain + 300}${chance(r, 0.4) ? `-${between(r, 1, 30)}` : ''}`;
    if (damage === 'no-number') lot = b.rural && chance(r, 0.4) ? '(번지없음)' : '';
    const lotText = lot && chance(r, 0.3) && !lot.startsWith('(') ? `${lot}번지` : lot;
    const ri = damage === 'no-area' ? '' : e.ri;
    const bname = bnameNow && (b.kind !== 'house' && b.kind !== 'villa' ? chance(r, 0.7) : chance(r, 0.3)) ? bnameNow : '';
    text = [head, area, ri, lotText, bname, unit].filter(Boolean).join(' ');
  } else {
    const roadName = damage === 'road-typo' ? typoRoad(r, road) : road;
    let num = `${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`;
    if (damage === 'wrong-number') num = String(missingNumberOn(r, b));
    if (damage === 'no-number') num = '';
    const lead = [head, b.rural ? area : '', roadName, num].filter(Boolean).join(' ');
    const ref = [b.rural ? e.ri : area, bnameNow].filter(Boolean).join(', ');
    const v = r();
    if (v < st.refNote) text = `${lead}${unit ? `, ${unit}` : ''}${ref ? ` (${ref})` : ''}`;
    else if (v < st.refNote + 0.15 && bnameNow) text = `${lead} (${bnameNow}${unit ? ` ${unit}` : ''})`;
    else if (v < st.refNote + 0.25 && bnameNow && area) text = `${lead} ${area}, ${bnameNow}${unit ? ` ${unit}` : ''}`;
    else text = `${lead}${unit ? ` ${unit}` : ''}`;
  }
  if (zipText) text = pick(r, [`(${zipText}) ${text}`, `[${zipText}] ${text}`, `${text} 우)${zipText}`, `${zipText} ${text}`]);
  return { address: text.replace(/\s+/g, ' ').trim(), form, damage, unitMissing, unitDash, zip, oldNames };
}

// ---------------------------------------------------------------- the world

export function buildFifthWorld(seed: number, asOf: Date): IndependentWorld {
  const r = seededRandom(seed * 104729 + 5);
  const start = Date.UTC(asOf.getUTCFullYear(), 0, 1);
  const now = asOf.getUTCFullYear() + (asOf.getTime() - start) / (365.25 * 86_400_000);
  const dir = buildDirectory(r, 15_000, now);
  const all = dir.buildings;
  const byKind = (pred: (b: Building) => boolean): Map<Kind, Building[]> => {
    const m = new Map<Kind, Building[]>();
    for (const b of all) if (pred(b)) m.set(b.kind, [...(m.get(b.kind) ?? []), b]);
    return m;
  };
  const urban = byKind((b) => !b.rural);
  const industrialish = byKind((b) => !b.rural && (b.sgg.profile === 'industrial' || b.sgg.profile === 'core' || b.area.hub));
  const rural = byKind((b) => b.rural);
  const hosts = all.filter((b) => b.virtualUnit !== null && b.demolished === null);
  const allTax = [...new Set(dir.sigungu.flatMap((s) => s.taxOffices))];

  const used = new Set<string>();
  const newNumber = (prefix: string, code: number): string => {
    for (;;) {
      const nine = `${prefix}${String(code).padStart(2, '0')}${String(between(r, 0, 9999)).padStart(4, '0')}`;
      const bno = nine + String(checkDigitOf(nine));
      if (!used.has(bno)) { used.add(bno); return bno; }
    }
  };
  const entityCode = (e: Entity): number => {
    switch (e) {
      case 'indiv': return r() < 0.7 ? between(r, 1, 49) : between(r, 50, 79);
      case 'exempt': return between(r, 90, 99);
      case 'corp': return Number(weighted(r, { c81: 0.6, c86: 0.3, c87: 0.1 }).slice(1));
      case 'branch': return 85;
      case 'nonprofit': return 82;
    }
  };
  const records = new Map<string, NtsRecord>();

  const pickFrom = (m: Map<Kind, Building[]>, kind: Kind, fallback: Map<Kind, Building[]>): Building => {
    const list = m.get(kind) ?? fallback.get(kind) ?? urban.get('shopbldg')!;
    return pick(r, list);
  };

  /** One business on account a's list, its letter's fate and the registry's answer. */
  function makeRow(a: number): Mailing {
    // ---------------- who and where, as the list has it
    let trade: string;
    let entity: Entity;
    let kind: Kind;
    let b: Building;
    let premise: Premise;
    let age: number;
    if (a === 0) {
      trade = weighted(r, LAW_TRADES);
      entity = chance(r, { 건설하도급: 0.5, 제조: 0.45, 운송: 0.35, 도소매: 0.25, 음식점: 0.06, 인테리어: 0.12, 학원: 0.1, 미용: 0.03 }[trade] ?? 0.2) ? (chance(r, 0.06) ? 'branch' : 'corp') : 'indiv';
      const homeBased = (trade === '인테리어' || trade === '건설하도급' || trade === '운송' || trade === '도소매') && entity === 'indiv' && chance(r, 0.45);
      if (homeBased) { kind = weighted(r, { villa: 0.45, apt: 0.3, house: 0.2, officetel: 0.05 }); premise = 'home'; }
      else if (trade === '제조') { kind = weighted(r, { factory: 0.7, knowledge: 0.2, shopbldg: 0.1 }); premise = kind === 'factory' ? 'factory' : 'office'; }
      else if (trade === '건설하도급' || trade === '운송') { kind = weighted(r, { shopbldg: 0.4, tower: 0.2, officetel: 0.2, knowledge: 0.1, factory: 0.1 }); premise = kind === 'factory' ? 'factory' : 'office'; }
      else { kind = weighted(r, { shopbldg: 0.6, plaza: 0.3, tower: 0.05, house: 0.05 }); premise = 'shop'; }
      b = chance(r, 0.9) ? pickFrom(urban, kind, rural) : pickFrom(rural, kind, urban);
      age = 0.2 + exp(r, 1.0);
    } else if (a === 1) {
      trade = weighted(r, INS_TRADES);
      entity = trade === '지입화물' ? 'indiv' : chance(r, trade === '화물' ? 0.06 : 0.01) ? 'corp' : 'indiv';
      if (trade === '지입화물' || (trade === '화물' && chance(r, 0.1))) { kind = weighted(r, { shopbldg: 0.45, factory: 0.35, tower: 0.2 }); premise = 'jiip'; }
      else { kind = weighted(r, { apt: 0.38, villa: 0.34, house: 0.18, officetel: 0.1 }); premise = 'home'; }
      b = chance(r, 0.88) ? pickFrom(urban, kind, rural) : pickFrom(rural, kind, urban);
      age = chance(r, 0.82) ? 0.4 + r() * 1.2 : 2 + r() * 7;
    } else if (a === 2) {
      trade = weighted(r, TP_TRADES);
      entity = chance(r, 0.68) ? 'corp' : chance(r, 0.06) ? 'nonprofit' : 'indiv';
      if (chance(r, 0.08) && hosts.length > 0) { b = pick(r, hosts); kind = b.kind; premise = 'virtual'; }
      else {
        kind = weighted(r, { knowledge: 0.42, tower: 0.14, officetel: 0.14, shopbldg: 0.09, factory: 0.11, plaza: 0.03, apt: 0.03, villa: 0.04 });
        premise = kind === 'apt' || kind === 'villa' ? 'home' : kind === 'factory' ? 'factory' : 'office';
        b = pickFrom(industrialish, kind, urban);
      }
      age = chance(r, 0.7) ? r() * 1.5 : 1.5 + r() * 4.5;
    } else {
      trade = weighted(r, FARM_TRADES);
      entity = trade === '영농조합법인' || trade === '농업회사법인' ? 'corp' : trade === '농산물가공' ? (chance(r, 0.5) ? 'indiv' : 'exempt') : chance(r, 0.85) ? 'exempt' : 'indiv';
      if (trade === '농산물가공' || (trade === '축산' && chance(r, 0.4)) || (entity === 'corp' && chance(r, 0.4))) { kind = weighted(r, { factory: 0.7, shopbldg: 0.3 }); premise = kind === 'factory' ? 'warehouse' : 'shop'; }
      else { kind = 'house'; premise = 'farmhouse'; }
      const inTown = chance(r, 0.12);
      if (inTown && premise === 'farmhouse') { kind = weighted(r, { apt: 0.5, villa: 0.3, house: 0.2 }); premise = 'home'; }
      b = inTown ? pickFrom(urban, kind, rural) : pickFrom(rural, kind, urban);
      age = chance(r, 0.6) ? r() * 4 : 4 + r() * 10;
    }
    // the list cannot hold a building torn down before it was copied
    let listYear = now - age;
    for (let t = 0; t < 20 && b.demolished !== null && b.demolished <= listYear; t++) b = pick(r, (b.rural ? rural : urban).get(b.kind) ?? [b]);
    if (b.demolished !== null && b.demolished <= listYear) { listYear = b.demolished - 0.5 - r(); age = now - listYear; }
    const unit = premise === 'virtual' ? b.virtualUnit! : unitOf(r, b, premise === 'home' ? 'home' : premise === 'shop' ? 'shop' : 'office');
    const taxLocal = chance(r, a === 2 ? 0.7 : a === 3 ? 0.93 : 0.82);
    const bno = newNumber(taxLocal ? pick(r, b.sgg.taxOffices) : pick(r, allTax), entityCode(entity));
    const name = businessName(r, a, trade, entity, b);
    const row: Row = { account: a, b, unit, entity, trade, premise, name, listYear, taxLocal, truth: {} };
    const w = writeAddress(r, row);

    // ---------------- what happened after the list was copied (hidden)
    const indiv = entity === 'indiv' || entity === 'exempt';
    const village = b.village;
    // cessation of the business
    let ceaseAt = Infinity;
    let stage = '-';
    if (a === 0) {
      ceaseAt = chance(r, 0.05) ? listYear - r() * 3 : listYear + exp(r, indiv ? 12 : 18);
    } else if (a === 1) {
      ceaseAt = listYear + exp(r, 12);
    } else if (a === 2) {
      stage = weighted(r, { seed: 0.4, growth: 0.35, established: 0.25 });
      ceaseAt = listYear + exp(r, stage === 'seed' ? 7 : stage === 'growth' ? 13 : 25);
    } else {
      ceaseAt = listYear + exp(r, entity === 'corp' ? 20 : 35);
    }
    const ceased = ceaseAt < now;
    const converted = ceased && indiv && chance(r, [0.15, 0.05, 0.4, 0.1][a]!);
    // moves (of the business, or of the person for a home)
    const moveMean = (() => {
      if (a === 0) return premise === 'home' ? 9 : 13;
      if (a === 1) {
        if (premise === 'jiip') return 30;
        return { apt: 16, villa: 8, house: 20, officetel: 4 }[b.kind as string] ?? 8;
      }
      if (a === 2) return (premise === 'home' ? 9 : stage === 'seed' ? 9 : stage === 'growth' ? 11 : 18) * (row.taxLocal ? 1 : 0.7);
      return premise === 'home' ? 15 : village ? 90 : 60;
    })();
    const moveAt = listYear + exp(r, moveMean);
    const homeLike = premise === 'home' || premise === 'farmhouse';
    const moved = moveAt < now && (homeLike || moveAt < ceaseAt);
    const suspended = !ceased && chance(r, [0.03, 0.04, 0.04, 0.02][a]!);
    // the registry: closures are filed late or never; a converted 개인 number is closed at once
    let nts: '01' | '02' | '03' | '' = '01';
    let endYear = 0;
    if (ceased) {
      const lagMean = converted ? 0.08 : [indiv ? 1.3 : 3.5, indiv ? 0.5 : 2, indiv ? 0.6 : 2.5, indiv ? 1.8 : 5][a]!;
      const filedAt = ceaseAt + exp(r, lagMean);
      if (filedAt < now) {
        nts = '03';
        // a voluntary closure gives the day trade stopped; a 직권폐업 the day the office acted
        endYear = chance(r, 0.7) || converted ? ceaseAt : filedAt;
      } else nts = chance(r, 0.15) ? '02' : '01';
    } else if (suspended) nts = '02';
    const taxCd = entity === 'exempt' ? '04' : entity === 'indiv' ? (chance(r, a === 1 ? 0.55 : 0.3) ? (chance(r, 0.25) ? '07' : '02') : '01') : '01';
    // a few list numbers are wrong (typed from an invoice, a 주민번호 mix-up): NTS does not know them
    const typo = chance(r, [0.03, 0.01, 0.02, 0.04][a]!);
    let listedBno = bno;
    if (typo) { used.delete(bno); listedBno = newNumber(pick(r, allTax), entityCode(entity)); }
    else records.set(bno, ntsRecord(bno, nts, taxCd, ymd(endYear)));
    if (typo) nts = '';

    // the traits of the people
    const dispute = a === 0 && chance(r, indiv ? 0.35 : 0.25);
    const avoider = a === 0 && indiv && chance(r, 0.1);
    const elderly = a === 3 && indiv && chance(r, 0.45);
    const demolished = b.demolished !== null && b.demolished > listYear && b.demolished < now;
    let state: State;
    let leftAt = now;
    if (demolished) { state = 'demolished'; leftAt = b.demolished!; }
    else if (premise === 'jiip') {
      // a 지입 driver leaves the company (and its office) as drivers do
      const leaveAt = listYear + exp(r, 7);
      state = leaveAt < now ? 'left-jiip' : ceased && !converted ? 'closed-gone' : 'there';
      leftAt = Math.min(leaveAt, ceaseAt);
    } else if (premise === 'virtual') {
      const endAt = listYear + exp(r, 3.5);
      state = Math.min(endAt, ceaseAt) < now ? 'virtual-ended' : suspended ? 'suspended' : 'there';
      leftAt = Math.min(endAt, ceaseAt);
    } else if (homeLike) {
      if (moved) { state = 'moved'; leftAt = moveAt; }
      else if (elderly && chance(r, 1 - Math.exp(-age / 25))) state = 'elder-gone';
      else if (a === 3 && entity === 'corp' && chance(r, 1 - Math.exp(-age / 20))) state = 'rep-changed';
      else if (ceased) state = 'closed-home';
      else if (suspended) state = 'suspended-home';
      else state = 'there';
    } else {
      if (converted) state = moved ? 'moved' : 'successor';
      else if (ceased && (!moved || ceaseAt < moveAt)) { state = 'closed-gone'; leftAt = ceaseAt; }
      else if (moved) { state = 'moved'; leftAt = moveAt; }
      else if (a === 3 && entity === 'corp' && chance(r, 1 - Math.exp(-age / 20))) state = 'rep-changed';
      else if (suspended) state = 'suspended';
      else state = 'there';
    }
    if (state === 'moved' && leftAt === now) leftAt = moveAt;
    const gone = now - leftAt;
    // someone new at the premises, or nobody
    const reletMean = b.kind === 'knowledge' || b.kind === 'officetel' ? 0.3 : b.kind === 'apt' || b.kind === 'villa' ? 0.15 : b.kind === 'factory' ? 1.2 : b.rural ? 1.5 : 0.6;
    const relet = chance(r, 1 - Math.exp(-gone / reletMean));
    // forwarding (주거이전·사업장 이전 전송): asked for by some, for a year at most
    const forwardAsked = chance(r, [0.08, 0.4, 0.35, 0.2][a]!);
    const forwarded = (state === 'moved') && forwardAsked && gone < (chance(r, 0.5) ? 0.25 : 1);
    // a village carrier finds people who moved within the village
    const localMove = a === 3 && chance(r, 0.6);

    // ---------------- the letter
    const registered = a === 0;
    const present = state === 'there' || state === 'successor' || state === 'closed-home' || state === 'suspended-home' || state === 'rep-changed' || state === 'elder-gone';
    // 1. can the carrier place it?
    const named = ['tower', 'knowledge', 'apt', 'plaza', 'officetel'].includes(b.kind);
    const placeDamage = ((): number => {
      switch (w.damage) {
        case 'wrong-number': return w.form === 'jibun' ? (named ? 0.2 : 0.45) : named && /\(|, /.test(w.address) ? 0.15 : 0.5;
        case 'no-number': return named ? 0.25 : 0.6;
        case 'name-only': return named ? 0.12 : 0.5;
        case 'road-typo': return 0.05;
        case 'no-area': return 0.02;
        case 'sgg-short': return 0.02;
        case 'none':
        default: return 0.005;
      }
    })();
    const formRisk = w.form === 'jibun' ? (b.rural ? 0.01 : b.built > 2011 ? 0.1 : 0.03) : 0;
    const oldRisk = (b.road.former && listYear < b.road.former.until && w.form === 'road' ? 0.06 : 0) + (w.zip === '6' ? 0.01 : 0) + (w.oldNames ? 0.01 : 0);
    const unitRisk = !w.unitMissing ? 0 : ({ apt: registered ? 0.45 : 0.6, officetel: 0.5, knowledge: 0.3, villa: 0.2, tower: 0.08, plaza: 0.1, shopbldg: 0.06 } as Partial<Record<Kind, number>>)[b.kind] ?? 0;
    let placeFail = either(placeDamage, formRisk, oldRisk, unitRisk);
    // who knows the addressee: the village carrier, the 읍's carrier a little, a mailroom that reads names
    if (village && (present || localMove)) placeFail *= 0.12;
    else if (b.rural && present) placeFail *= 0.5;
    if (premise === 'virtual' && state === 'there') placeFail *= 0.3;
    if (state === 'demolished') placeFail = village ? 0.4 : 0.95;
    // 2. is there anyone to take it?
    const owed = ((): number => {
      switch (state) {
        case 'there': {
          if (!registered) return premise === 'warehouse' ? (village ? 0.03 : b.rural ? 0.08 : 0.15) : 0.012;
          // 등기: someone must sign; a sole proprietor in dispute refuses or is never in
          const absent = premise === 'home' ? 0.15 : indiv && (premise === 'shop' || premise === 'office') ? 0.05 : 0.025;
          const refuse = dispute ? (indiv ? 0.1 : 0.025) : (indiv ? 0.015 : 0.006);
          return either(avoider ? 0.4 : absent, refuse);
        }
        case 'successor': return registered ? 0.45 : 0.04;
        case 'closed-home': return registered ? either(avoider ? 0.55 : 0.3, dispute ? 0.3 : 0.05) : 0.02;
        case 'suspended-home': return registered ? 0.35 : 0.02;
        case 'suspended': return registered ? 0.85 : b.kind === 'knowledge' || b.kind === 'officetel' ? 0.45 : 0.3;
        case 'rep-changed': return village ? 0.12 : b.rural ? 0.4 : 0.6;
        case 'elder-gone': return village ? 0.05 : 0.25;
        case 'left-jiip': return 0.8;
        case 'virtual-ended': return 0.93;
        case 'demolished': return 0.97;
        case 'moved': {
          if (forwarded) return registered ? 0.08 : 0.04;
          if (village && localMove) return 0.08;
          if (registered) return relet ? 0.97 : 0.93;
          if (homeLike) return relet ? (b.kind === 'apt' ? 0.45 : 0.6) : 0.4;
          return relet ? 0.78 : 0.42;
        }
        case 'closed-gone': {
          if (registered) return relet ? 0.97 : 0.93;
          return relet ? 0.8 : 0.45;
        }
      }
    })();
    const other = 0.006;
    const p = clamp(either(placeFail, owed, other), 0.002, 0.995);
    const bounced = r() < p;

    const closedAgo = nts === '03' ? (now - endYear < 1 ? '<1y' : now - endYear < 3 ? '1-3y' : now - endYear < 6 ? '3-6y' : '6y+') : '-';
    return {
      account: a, bno: listedBno, name, address: w.address, p, bounced,
      truth: {
        // visible
        nts, closedAgo, entity, trade, premise, kind: b.kind, rural: b.rural, village, form: w.form, damage: w.damage, unitMissing: w.unitMissing,
        unitDash: w.unitDash, zip: w.zip, oldNames: w.oldNames, taxLocal,
        // hidden
        state, age: age < 1 ? '<1y' : age < 2 ? '1-2y' : age < 4 ? '2-4y' : age < 8 ? '4-8y' : '8y+', ceased, converted, moved, relet, forwarded, stage,
        dispute, avoider, demolished, typo, placeFail: placeFail < 0.05 ? 'low' : placeFail < 0.3 ? 'some' : 'high', owed: owed < 0.05 ? 'low' : owed < 0.5 ? 'some' : 'high',
      },
    };
  }

  const pool: Mailing[][] = [];
  const test: Mailing[][] = [];
  for (let a = 0; a < ACCOUNTS.length; a++) {
    const rows = Array.from({ length: POOL + TEST }, () => makeRow(a));
    pool.push(rows.slice(0, POOL));
    test.push(rows.slice(POOL));
  }
  return {
    name: 'fifth',
    description: 'a debt-collection law firm\'s 내용증명, an insurer\'s notices to owner-operators at home, a 테크노파크\'s start-ups, a 농협\'s farms in 읍/면',
    visible: VISIBLE,
    accounts: [...ACCOUNTS],
    directoryLines: dir.lines,
    relatedLines: dir.relatedLines,
    records,
    pool,
    test,
  };
}
