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

function recognise(headers: readonly string[], labels: readonly string[], taken: Set<number>): ChosenColumn | null {
  let bestRank = labels.length;
  let bestIndex = 0;
  for (let i = 0; i < headers.length; i++) {
    if (taken.has(i + 1)) continue;
    const rank = labels.indexOf(foldLabel(headers[i]!));
    if (rank >= 0 && rank < bestRank) {
      bestRank = rank;
      bestIndex = i + 1;
    }
  }
  return bestIndex === 0 ? null : { index: bestIndex, header: headers[bestIndex - 1]!, by: 'recognised' };
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
  const bno = bnoPick.col ?? recognise(headers, NUMBER_FOLDED, taken);
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
  const name = namePick.col ?? recognise(headers, NAME_FOLDED, taken);
  if (name) taken.add(name.index);
  const address = addressPick.col ?? recognise(headers, ADDRESS_FOLDED, taken);
  if (address) taken.add(address.index);
  const representative = representativePick.col ?? recognise(headers, REPRESENTATIVE_FOLDED, taken);
  if (representative) taken.add(representative.index);
  const opened = openedPick.col ?? recognise(headers, OPENED_FOLDED, taken);
  return { ok: true, columns: { bno, name, address, representative, opened } };
}
