// Which columns hold the business number, the name and the address (and, for 진위확인, the
// representative and the opening date). Office files label them in
// many ways ("사업자 등록번호(필수)", "*상호", "Biz_No"), so labels are compared after folding
// case, spaces, separators and a trailing marker; the caller can always name a column outright.

import { FileError } from './errors.ts';

/** A header text as in the file, or a 1-based column index. */
export type ColumnRef = string | number;

export interface ColumnOverrides {
  bnoColumn?: ColumnRef | undefined;
  nameColumn?: ColumnRef | undefined;
  addressColumn?: ColumnRef | undefined;
  representativeColumn?: ColumnRef | undefined;
  openedColumn?: ColumnRef | undefined;
}

export interface ChosenColumn {
  /** 1-based */
  index: number;
  header: string;
  by: 'recognised' | 'override';
}

export interface ChosenColumns {
  bno: ChosenColumn;
  name: ChosenColumn | null;
  address: ChosenColumn | null;
  /** 대표자: with the opening date, each row is also checked by NTS's 진위확인 */
  representative: ChosenColumn | null;
  /** 개업일 */
  opened: ChosenColumn | null;
}

// in order of preference when a file has more than one of them
export const NUMBER_LABELS = ['사업자등록번호', '사업자번호', '등록번호', 'b_no', 'biz_no', 'bizno', 'business_number'] as const;
export const NAME_LABELS = ['상호', '상호명', '업체명', '회사명', '거래처명', '법인명', 'name', 'company', 'company_name'] as const;
export const ADDRESS_LABELS = ['주소', '사업장주소', '소재지', 'address', 'addr'] as const;
export const REPRESENTATIVE_LABELS = ['대표자', '대표자명', '대표자성명', '대표자이름', '대표자 성명', '대표', '대표이사', '대표자(명)', 'p_nm', 'representative', 'ceo', 'ceo_name'] as const;
export const OPENED_LABELS = ['개업일', '개업일자', '개업연월일', '개업년월일', '개업일(자)', '사업개시일', 'start_dt', 'opening_date', 'open_date', 'start_date'] as const;

/**
 * Folds a label for comparison: NFKC (full-width letters), lower case, without whitespace or
 * `_ - .`, without a leading or trailing `*` and without a trailing "(필수)", "[필수]", "(10자리)".
 */
export function foldLabel(label: string): string {
  let s = label.normalize('NFKC').toLowerCase().replace(/[\s_\-.·]/g, '');
  for (;;) {
    const next = s.replace(/^\*+|\*+$/g, '').replace(/(\([^()]*\)|\[[^[\]]*\])$/, '');
    if (next === s || next === '') break;
    s = next;
  }
  return s;
}

const folded = (labels: readonly string[]): string[] => labels.map(foldLabel);
const NUMBER_FOLDED = folded(NUMBER_LABELS);
const NAME_FOLDED = folded(NAME_LABELS);
const ADDRESS_FOLDED = folded(ADDRESS_LABELS);
const REPRESENTATIVE_FOLDED = folded(REPRESENTATIVE_LABELS);
const OPENED_FOLDED = folded(OPENED_LABELS);

const KEYWORD_MAX_CHARS = 30;

type Field = 'bno' | 'name' | 'address' | 'representative' | 'opened';

/**
 * Beyond the labels above, what real exports write (홈택스, ERP 거래처 목록, 공공데이터 files):
 * a qualifier around the label ("공급받는자 사업자등록번호", "본점소재지", "소재지(도로명)",
 * "상호(법인명)", "Company Name"). A header's forms: folded whole, without any bracket group, and
 * each group's content ("소재지(주소)" is also "주소"). Keyword ranks come after every exact label.
 */
function formsOf(label: string): string[] {
  const whole = foldLabel(label);
  const plain = label.normalize('NFKC').toLowerCase().replace(/[\s_\-.·*]/g, '');
  const bare = plain.replace(/\([^()]*\)|\[[^[\]]*\]/g, '');
  const inner = [...plain.matchAll(/\(([^()]*)\)|\[([^[\]]*)\]/g)].map((m) => (m[1] ?? m[2])!);
  return [...new Set([whole, bare, ...inner].filter((f) => f !== ''))];
}

const NOT_AN_ADDRESS = /메일|email|전자우편|홈페이지|웹|url|web|^ip|ip주소|우편번호|zip|postal|영문|english/;
const NOT_A_NAME = /대표|담당|성명|직원|사원|고객번호|코드|code|번호|no$|id$|은행|예금주|품명|상품|제품|품목|ceo|contact|user|owner|person|bank|product|item/;
const KEYWORDS: Record<Field, ((f: string) => number | null)[]> = {
  bno: [
    (f) => (/사업자/.test(f) && /번호|no|num/.test(f) && !/종사업장|주민|법인등록/.test(f) ? 0 : null),
    (f) => (/^(brn|taxid|bizregno|businessregistrationn(o|umber)|businessregno|companyregistrationn(o|umber)|vatno)$/.test(f) ? 0 : null),
  ],
  name: [
    (f) => (/(상호|상호명|업체명|회사명|거래처명|법인명|기업명|단체명|사업장명|사업체명|가맹점명|매장명|점포명|상점명|매입처명|매출처명|공급자명|고객사명|사업자명|기관명|업소명)$/.test(f) && !NOT_A_NAME.test(f) ? 0 : null),
    (f) => (/(거래처|업체|회사|고객사|가맹점|매입처|매출처|업소)$/.test(f) && !NOT_A_NAME.test(f) ? 1 : null),
    (f) => (/(company|business|corp|corporation|vendor|customer|supplier|merchant|store|shop|trade|firm)(name)?$/.test(f) && !NOT_A_NAME.test(f) ? 2 : null),
    (f) => (/(고객명|고객)$/.test(f) ? 3 : null),
  ],
  address: [
    // the business's own place first, a road address before a lot one, a detail-only column last
    (f) => (/(주소|소재지|주사무소|address|addr)/.test(f) && !NOT_AN_ADDRESS.test(f) && !/상세|나머지|detail|대표자|자택|집|거주|배송|반송/.test(f) ? (/지번/.test(f) ? 1 : 0) : null),
    (f) => (/(주소|소재지|address|addr)/.test(f) && !NOT_AN_ADDRESS.test(f) && /배송|반송|대표자|자택|거주/.test(f) ? 2 : null),
  ],
  representative: [
    (f) => (f.startsWith('대표') && !/(전화|번호|메일|팩스|fax|주소|업종|종목|품목|상품|사이트|홈페이지|휴대|핸드폰|연락처|tel|phone|mobile|email)/.test(f) ? 0 : null),
  ],
  opened: [(f) => (/(개업|사업개시|사업시작|영업개시)/.test(f) && !/폐업|휴업/.test(f) ? 0 : null)],
};
const EXACT: Record<Field, string[]> = { bno: NUMBER_FOLDED, name: NAME_FOLDED, address: ADDRESS_FOLDED, representative: REPRESENTATIVE_FOLDED, opened: OPENED_FOLDED };

/** How well a header names a field: an exact label's rank, then keyword ranks after them; null when it does not. */
export function labelRank(header: string, field: Field): number | null {
  const exact = EXACT[field];
  const forms = formsOf(header);
  let best: number | null = null;
  for (const f of forms) {
    const rank = exact.indexOf(f);
    if (rank >= 0 && (best === null || rank < best)) best = rank;
  }
  if (best !== null) return best + roadPreference(field, forms);
  // a line of notes ("1. 사업자번호는 숫자로 입력하세요") is not a header: keywords only in short labels
  if (header.length > KEYWORD_MAX_CHARS || /^\s*[0-9]+[.)]/.test(header) || /[다요][.!]?\s*$/.test(header.trim())) return null;
  for (const f of forms) {
    for (const rule of KEYWORDS[field]) {
      const r = rule(f);
      if (r !== null && (best === null || exact.length + r < best)) best = exact.length + r;
    }
  }
  return best === null ? null : best + roadPreference(field, forms);
}

/** Of two address columns alike but for their form, the road address is what the carrier reads. */
function roadPreference(field: Field, forms: readonly string[]): number {
  if (field !== 'address') return 0;
  if (forms.some((f) => /지번|jibun|lot/.test(f))) return 0.5;
  return forms.some((f) => /도로명|road|street/.test(f)) ? -0.25 : 0;
}

/**
 * The best-ranked free column for a field. Ties (an export with the supplier's and the buyer's
 * 상호 and 주소) go to the column nearest after `near` — the number column the row belongs to.
 */
function recognise(headers: readonly string[], field: Field, taken: Set<number>, near = 0): ChosenColumn | null {
  let best: { rank: number; distance: number; index: number } | null = null;
  for (let i = 0; i < headers.length; i++) {
    if (taken.has(i + 1)) continue;
    const rank = labelRank(headers[i]!, field);
    if (rank === null) continue;
    // after the number column counts before anything before it
    const distance = near === 0 ? i : i + 1 > near ? i + 1 - near : headers.length + (near - i - 1);
    if (!best || rank < best.rank || (rank === best.rank && distance < best.distance)) best = { rank, distance, index: i + 1 };
  }
  return best ? { index: best.index, header: headers[best.index - 1]!, by: 'recognised' } : null;
}

/** The column a caller named, or null when the file has no such column. */
function resolveRef(headers: readonly string[], ref: ColumnRef): ChosenColumn | null {
  if (typeof ref === 'number') {
    return Number.isInteger(ref) && ref >= 1 && ref <= headers.length
      ? { index: ref, header: headers[ref - 1]!, by: 'override' }
      : null;
  }
  // a numeric string from a form field ("3") is an index unless a header is literally "3"
  let i = headers.findIndex((h) => h.trim() === ref.trim());
  if (i < 0) i = headers.findIndex((h) => foldLabel(h) === foldLabel(ref) && foldLabel(ref) !== '');
  if (i < 0 && /^[1-9][0-9]*$/.test(ref.trim())) return resolveRef(headers, Number(ref.trim()));
  return i < 0 ? null : { index: i + 1, header: headers[i]!, by: 'override' };
}

export type ColumnsResult = { ok: true; columns: ChosenColumns } | { ok: false; error: FileError };

function quoteList(items: readonly string[]): string {
  return items.map((h) => `"${h}"`).join(', ');
}

/** Chooses the columns in one header row; never throws, so several candidate rows can be tried. */
export function chooseColumns(headers: readonly string[], overrides: ColumnOverrides = {}): ColumnsResult {
  const seen = headers.filter((h) => h.trim() !== '');
  const pick = (what: 'bno' | 'name' | 'address' | 'representative' | 'opening_date', ref: ColumnRef | undefined) => {
    if (ref === undefined) return { ok: true as const, col: null };
    const col = resolveRef(headers, ref);
    if (col) return { ok: true as const, col };
    const label = { bno: '사업자등록번호', name: '상호', address: '주소', representative: '대표자', opening_date: '개업일' }[what];
    return {
      ok: false as const,
      error: new FileError(
        'bad_column',
        `${label} 열로 지정한 "${String(ref)}" 열이 파일에 없습니다. 파일의 열: ${quoteList(seen) || '(없음)'}`,
        { column: what, ref, seenHeaders: seen },
      ),
    };
  };

  const bnoPick = pick('bno', overrides.bnoColumn);
  if (!bnoPick.ok) return bnoPick;
  const namePick = pick('name', overrides.nameColumn);
  if (!namePick.ok) return namePick;
  const addressPick = pick('address', overrides.addressColumn);
  if (!addressPick.ok) return addressPick;
  const representativePick = pick('representative', overrides.representativeColumn);
  if (!representativePick.ok) return representativePick;
  const openedPick = pick('opening_date', overrides.openedColumn);
  if (!openedPick.ok) return openedPick;

  const taken = new Set<number>([bnoPick.col, namePick.col, addressPick.col, representativePick.col, openedPick.col].flatMap((c) => (c ? [c.index] : [])));
  const bno = bnoPick.col ?? recognise(headers, 'bno', taken);
  if (!bno) {
    return {
      ok: false,
      error: new FileError(
        'no_number_column',
        `사업자등록번호 열을 찾지 못했습니다. 머리글 행에 ${quoteList(NUMBER_LABELS)} 중 하나를 적거나 열을 직접 지정해 주세요. ` +
          `파일의 머리글: ${quoteList(seen) || '(없음)'}`,
        { seenHeaders: seen, recognised: [...NUMBER_LABELS] },
      ),
    };
  }
  taken.add(bno.index);
  const name = namePick.col ?? recognise(headers, 'name', taken, bno.index);
  if (name) taken.add(name.index);
  const address = addressPick.col ?? recognise(headers, 'address', taken, bno.index);
  if (address) taken.add(address.index);
  const representative = representativePick.col ?? recognise(headers, 'representative', taken, bno.index);
  if (representative) taken.add(representative.index);
  const opened = openedPick.col ?? recognise(headers, 'opened', taken, bno.index);
  return { ok: true, columns: { bno, name, address, representative, opened } };
}
