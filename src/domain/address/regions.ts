// The 17 시/도 and their 시/군/구 as 도로명주소 writes them (sggNm: "수원시 영통구", "양평군"), with
// the spellings people actually type. Kept as compact text and expanded once at load, so the
// list reads like the official table and a boundary change is a one-line edit.
//
// State as of 2025: 군위군 in 대구 (since 2023-07), 부천시 with 일반구 again (2024-01), 강원 and
// 전북 as 특별자치도. Not yet: 인천's 2026-07 reorganisation (제물포구/영종구/검단구) and the
// 일반구 of 화성시, so the table matches the address DB files most users hold.

/** [canonical 시/도, aliases, 시/군/구]; "시(구 구)" lists a city's 일반구. */
const TABLE: ReadonlyArray<readonly [sido: string, aliases: string, sigungu: string]> = [
  ['서울특별시', '서울 서울시 서울특별시',
    '종로구 중구 용산구 성동구 광진구 동대문구 중랑구 성북구 강북구 도봉구 노원구 은평구 서대문구 마포구 ' +
    '양천구 강서구 구로구 금천구 영등포구 동작구 관악구 서초구 강남구 송파구 강동구'],
  ['부산광역시', '부산 부산시 부산광역시',
    '중구 서구 동구 영도구 부산진구 동래구 남구 북구 해운대구 사하구 금정구 강서구 연제구 수영구 사상구 기장군'],
  ['대구광역시', '대구 대구시 대구광역시', '중구 동구 서구 남구 북구 수성구 달서구 달성군 군위군'],
  ['인천광역시', '인천 인천시 인천광역시', '중구 동구 미추홀구 연수구 남동구 부평구 계양구 서구 강화군 옹진군'],
  ['광주광역시', '광주 광주시 광주광역시', '동구 서구 남구 북구 광산구'],
  ['대전광역시', '대전 대전시 대전광역시', '동구 중구 서구 유성구 대덕구'],
  ['울산광역시', '울산 울산시 울산광역시', '중구 남구 동구 북구 울주군'],
  ['세종특별자치시', '세종 세종시 세종특별시 세종특별자치시', ''],
  ['경기도', '경기 경기도',
    '수원시(장안구 권선구 팔달구 영통구) 성남시(수정구 중원구 분당구) 의정부시 안양시(만안구 동안구) ' +
    '부천시(원미구 소사구 오정구) 광명시 평택시 동두천시 안산시(상록구 단원구) 고양시(덕양구 일산동구 일산서구) ' +
    '과천시 구리시 남양주시 오산시 시흥시 군포시 의왕시 하남시 용인시(처인구 기흥구 수지구) 파주시 이천시 ' +
    '안성시 김포시 화성시 광주시 양주시 포천시 여주시 연천군 가평군 양평군'],
  ['강원특별자치도', '강원 강원도 강원특별자치도',
    '춘천시 원주시 강릉시 동해시 태백시 속초시 삼척시 홍천군 횡성군 영월군 평창군 정선군 철원군 화천군 ' +
    '양구군 인제군 고성군 양양군'],
  ['충청북도', '충북 충청북도 충북도',
    '청주시(상당구 서원구 흥덕구 청원구) 충주시 제천시 보은군 옥천군 영동군 증평군 진천군 괴산군 음성군 단양군'],
  ['충청남도', '충남 충청남도 충남도',
    '천안시(동남구 서북구) 공주시 보령시 아산시 서산시 논산시 계룡시 당진시 금산군 부여군 서천군 청양군 ' +
    '홍성군 예산군 태안군'],
  ['전북특별자치도', '전북 전북도 전라북도 전북특별자치도',
    '전주시(완산구 덕진구) 군산시 익산시 정읍시 남원시 김제시 완주군 진안군 무주군 장수군 임실군 순창군 ' +
    '고창군 부안군'],
  ['전라남도', '전남 전남도 전라남도',
    '목포시 여수시 순천시 나주시 광양시 담양군 곡성군 구례군 고흥군 보성군 화순군 장흥군 강진군 해남군 ' +
    '영암군 무안군 함평군 영광군 장성군 완도군 진도군 신안군'],
  ['경상북도', '경북 경북도 경상북도',
    '포항시(남구 북구) 경주시 김천시 안동시 구미시 영주시 영천시 상주시 문경시 경산시 의성군 청송군 영양군 ' +
    '영덕군 청도군 고령군 성주군 칠곡군 예천군 봉화군 울진군 울릉군'],
  ['경상남도', '경남 경남도 경상남도',
    '창원시(의창구 성산구 마산합포구 마산회원구 진해구) 진주시 통영시 사천시 김해시 밀양시 거제시 양산시 ' +
    '의령군 함안군 창녕군 고성군 남해군 하동군 산청군 함양군 거창군 합천군'],
  ['제주특별자치도', '제주 제주도 제주특별자치도', '제주시 서귀포시'],
];

/** A 시/군/구 as the address DB names it: "강남구", "수원시 영통구", or a bare city "수원시". */
export interface SigunguRef {
  sido: string;
  name: string;
}

export interface Sido {
  name: string;
  /** canonical 시/군/구 of addresses in this 시/도, e.g. "수원시 영통구"; empty for 세종 */
  sigungu: readonly string[];
}

function expand(list: string): string[] {
  const out: string[] = [];
  for (const m of list.matchAll(/([^\s()]+)(?:\(([^)]*)\))?/g)) {
    const city = m[1]!;
    if (m[2] === undefined) out.push(city);
    else for (const gu of m[2].split(' ')) out.push(`${city} ${gu}`);
  }
  return out;
}

export const SIDOS: readonly Sido[] = TABLE.map(([name, , list]) => ({ name, sigungu: expand(list) }));

const SIDO_BY_ALIAS = new Map<string, string>();
for (const [name, aliases] of TABLE) for (const alias of aliases.split(' ')) SIDO_BY_ALIAS.set(alias, name);
// "광주시" usually means 광주광역시; 경기 광주시 is recognised once 경기 has been read (readSigungu).

/** Longest first, so a glued "서울특별시강남구" loses the whole 시/도 name, not just "서울". */
export const SIDO_ALIASES: readonly string[] = [...SIDO_BY_ALIAS.keys()].toSorted((a, b) => b.length - a.length);

export function sidoByAlias(alias: string): string | null {
  return SIDO_BY_ALIAS.get(alias) ?? null;
}

// Every way of writing a 시/군/구 that points at a place: the canonical name, the glued form
// ("수원시영통구"), the city with or without 시 ("수원시", "수원" → the city itself), the 군 without
// 군, and an 일반구 alone ("영통구"). Bare names of 구 ("강남") are left out: too many roads and
// 동 start with them.
const REFS = new Map<string, SigunguRef[]>();
function addRef(key: string, ref: SigunguRef): void {
  const list = REFS.get(key);
  if (!list) REFS.set(key, [ref]);
  else if (!list.some((r) => r.sido === ref.sido && r.name === ref.name)) list.push(ref);
}
const stem = (name: string): string => name.slice(0, -1);
for (const { name: sido, sigungu } of SIDOS) {
  for (const full of sigungu) {
    const [city, gu] = full.split(' ');
    addRef(full, { sido, name: full });
    if (gu === undefined) {
      if (!full.endsWith('구') && stem(full).length >= 2 && !SIDO_BY_ALIAS.has(stem(full))) addRef(stem(full), { sido, name: full });
      continue;
    }
    addRef(city + gu, { sido, name: full });
    addRef(gu, { sido, name: full });
    addRef(city!, { sido, name: city! });
    addRef(stem(city!), { sido, name: city! });
  }
}

/**
 * 시/군/구 that moved to another 시/도, with the 시/도 they were under: lists written before the move
 * still name the old one ("경상북도 군위군"), and it is the same place, as "강원도" is 강원특별자치도.
 */
const MOVED: ReadonlyMap<string, { from: string; to: string }> = new Map([
  ['군위군', { from: '경상북도', to: '대구광역시' }], // 2023-07-01
]);

/** The 시/도 a 시/군/구 is under today when it was written under the one it left; else the 시/도 as read. */
export function currentSido(sido: string, sigungu: string): string {
  const moved = MOVED.get(sigungu);
  return moved !== undefined && moved.from === sido ? moved.to : sido;
}

/** Places a written 시/군/구 can mean, across all 시/도 (filter by 시/도 yourself). */
export function sigunguRefs(key: string): readonly SigunguRef[] {
  return REFS.get(key) ?? [];
}

// Within the 시/도 when it has the name, else anywhere (the matcher then corrects the 시/도); several
// places of one name ("중구") stay that name, and a spelling that fits unrelated names is dropped.
function pick(refs: readonly SigunguRef[], sido: string | null, written: string): string | null {
  const inSido = sido ? refs.filter((r) => r.sido === sido) : [];
  const use = inSido.length > 0 ? inSido : refs;
  const names = [...new Set(use.map((r) => r.name))];
  if (names.length === 1) return names[0]!;
  return names.includes(written) ? written : null;
}

/**
 * The canonical 시/군/구 written at token `t` — "수원시 영통구", "수원 영통구", "영통구", "강남구",
 * "양평군", "양평"; with 경기 read, also "광주" — and how many tokens it took (2 for city + 구).
 */
export function readSigungu(t: string, next: string | undefined, sido: string | null): { name: string; used: number } | null {
  if (next !== undefined) {
    for (const city of sigunguRefs(t)) {
      if (!city.name.endsWith('시')) continue;
      const name = pick(sigunguRefs(`${city.name} ${next}`), sido, `${city.name} ${next}`);
      if (name) return { name, used: 2 };
    }
  }
  let refs = sigunguRefs(t);
  if (sido && !refs.some((r) => r.sido === sido)) {
    const local = [...sigunguRefs(`${t}시`), ...sigunguRefs(`${t}군`)].filter((r) => r.sido === sido);
    if (local.length > 0) refs = local;
  }
  const name = pick(refs, sido, t);
  return name ? { name, used: 1 } : null;
}

/** The 일반구 of a city with 구 ("수원시" → ["수원시 장안구", …]), or [] for any other name. */
export function districtsOf(sido: string, city: string): string[] {
  const s = SIDOS.find((x) => x.name === sido);
  return s ? s.sigungu.filter((n) => n.startsWith(`${city} `)) : [];
}

/** Keys ending in 시/군/구, longest first: what may be glued to the front of a road or 동. */
export const SIGUNGU_PREFIXES: readonly string[] = [...REFS.keys()]
  .filter((k) => /[시군구]$/.test(k))
  .toSorted((a, b) => b.length - a.length);

export const SIGUNGU_COUNT: number = SIDOS.reduce((n, s) => n + s.sigungu.length, 0);
