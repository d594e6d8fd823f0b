// Korean postal addresses as the rest of the service sees them. Parsing and matching are pure
// (src/domain/address/); directories that know real addresses live in src/addresses/.

/** What could be read out of free-text address input. Every part is optional. */
export interface ParsedAddress {
  raw: string;
  /** canonical 시/도, e.g. 서울특별시, 경기도, 세종특별자치시 */
  sido: string | null;
  /** canonical 시/군/구, e.g. 강남구, 수원시 영통구, 양평군; null for 세종 */
  sigungu: string | null;
  /** 법정동/읍/면 (and 리) as written, e.g. 역삼동, 양평읍 */
  eupmyeondong: string | null;
  /** road-name form: 도로명 + 건물번호 (본번-부번), 지하 flag */
  road: { name: string; underground: boolean; main: number; sub: number } | null;
  /** road name present but no building number */
  roadNameOnly: string | null;
  /** lot-number form: 동/리 + (산) 본번-부번 */
  jibun: { dong: string; mountain: boolean; main: number; sub: number } | null;
  /** unit part (동/층/호), normalised, e.g. "101동 3층 301호" */
  detail: string | null;
  unit: { dong: string | null; floor: string | null; ho: string | null } | null;
  /** building name given in parentheses or after the number */
  buildingName: string | null;
  /** postal code found in the text: 5-digit (기초구역번호, since 2015) or old 6-digit (outdated) */
  zipcode: { value: string; outdated: boolean } | null;
  form: 'road' | 'jibun' | 'unknown';
}

/** One building address as an address directory knows it. */
export interface DirectoryEntry {
  /** 건물관리번호 (juso bdMgtSn), stable identifier of the building */
  buildingId: string;
  /** 5-digit 기초구역번호 */
  zipcode: string;
  sido: string;
  sigungu: string;
  /** 법정읍면동 */
  eupmyeondong: string;
  /** 법정리, or '' */
  ri: string;
  roadName: string;
  underground: boolean;
  buildingMain: number;
  buildingSub: number;
  jibunMountain: boolean;
  jibunMain: number;
  jibunSub: number;
  /** 시군구용건물명, or '' */
  buildingName: string;
  /** full road-name address without detail, e.g. "서울특별시 강남구 테헤란로 152" */
  roadAddress: string;
  /** 건축물대장건물명 when the directory knows one other than buildingName */
  registerName?: string;
  /** 공동주택 (the files' 공동주택구분 1, juso's bdKdcd 1): 아파트, 연립 or 다세대, whatever its name says */
  apartment?: boolean;
  /**
   * How the directory found the building when not by its own address: by the road address it had
   * before its road was renamed (이전도로명주소), or by another lot it stands on (관련지번).
   */
  via?: FormerRoad | RelatedLot;
}

/** A road address a building had before a renaming or renumbering. */
export interface FormerRoad {
  kind: 'former_road';
  sigungu: string;
  roadName: string;
  underground: boolean;
  main: number;
  sub: number;
}

/** A lot a building stands on besides the one its own row names. */
export interface RelatedLot {
  kind: 'related_lot';
  eupmyeondong: string;
  ri: string;
  mountain: boolean;
  main: number;
  sub: number;
}

export interface AddressDirectory {
  readonly source: 'juso' | 'local' | 'sandbox';
  /** Candidates for the parsed address, best first, at most `limit` (default 20). Throws on upstream failure. */
  find(query: ParsedAddress, limit?: number): Promise<DirectoryEntry[]>;
  /** find() of each query, when the directory answers many at once for less than one at a time. */
  findMany?(queries: readonly ParsedAddress[], limit?: number): Promise<DirectoryEntry[][]>;
  /**
   * A number that changes whenever an answer of find() may have (a directory that can say so
   * cheaply; at most about a second late): what was checked under one version holds under it.
   */
  version?(): Promise<number>;
  close(): Promise<void>;
}

export type MatchQuality = 'exact' | 'corrected' | 'ambiguous' | 'not_found';

export type AddressField = 'sido' | 'sigungu' | 'eupmyeondong' | 'road_name' | 'building_number' | 'jibun' | 'zipcode';

/** One component that differs between the input and the matched address (Smarty-style analysis). */
export interface AddressChange {
  field: AddressField;
  from: string | null;
  to: string;
}

/** An address as written, read (parsed) and matched against the directory. */
export type AddressCheck = AddressMatch & { parsed: ParsedAddress };

export interface AddressMatch {
  quality: MatchQuality;
  changes: AddressChange[];
  /** the matched building when exact or corrected */
  entry: DirectoryEntry | null;
  /** how many candidates were considered plausible */
  candidates: number;
  /** 5-digit postal code of the match, or null */
  fixedZipcode: string | null;
  /** normalised road-name address of the match plus the input's detail part, or null */
  fixedAddress: string | null;
  missingBuildingNumber: boolean;
  missingUnit: boolean;
  /** input carried a postal code that differs from the matched one */
  zipMismatch: boolean;
  /** input carried an old 6-digit postal code */
  outdatedZip: boolean;
  /** the building was found by the road address it had before its road was renamed (이전도로명주소): the list was not updated since */
  formerRoad: boolean;
  /** not_found only: why no building fits (see NotFoundWhy) */
  notFound: NotFoundWhy | null;
  /** what kind of building the address is, from its names (see buildingKindOf) */
  buildingKind: BuildingKind;
  /** the matched building is in a 읍 or 면 (its 읍면동 name says so): a rural round, whose carrier knows the people on it */
  rural: boolean;
}

/**
 * Why an address was not found, which says different things about the letter: a road the
 * directory does not know (often a typo beyond the matcher's tolerance, or a renamed road the
 * carrier still knows), a number that does not exist on a real road (the record is wrong), a lot
 * that does not exist, or text with neither a road nor a lot in it.
 */
export type NotFoundWhy = 'unknown_road' | 'no_such_number' | 'unknown_lot' | 'unreadable';

/**
 * What kind of building, as its names tell (시군구용건물명 from the directory, or the name the
 * input wrote): whether a letter needs 동/호 to reach its addressee.
 * apartment: 아파트 and complexes named by brand (hundreds of units, mail sorted to unit boxes);
 * officetel: 오피스텔 and the brands they are sold under (unit boxes like an apartment block, and
 *   small tenants — one-person businesses, shared offices — that come and go);
 * knowledge_center: 지식산업센터 (아파트형공장) by the word or the names they go by (small makers and
 *   IT firms in small units, a management office);
 * office: 빌딩, 타워, 센터, 상가 … (many tenants, often a management office);
 * villa: 빌라, 맨션, 연립, 다세대 (a few units, carriers often know the tenants);
 * house: a matched building with no name (a detached house or a small shop, one addressee);
 * unknown: no building matched and the input names none.
 */
export type BuildingKind = 'apartment' | 'officetel' | 'knowledge_center' | 'office' | 'villa' | 'house' | 'unknown';
