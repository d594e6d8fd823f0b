// From positional records to FileRows: header names made unique and usable as keys, blank rows
// told apart from data, limits counted, the three recognised columns pulled out.

import { hasValidCheckDigit, normaliseFromFile } from '../../domain/bizno.ts';
import { cleanText } from '../../domain/safe-text.ts';
import { rawText, type RawCell } from './cell-text.ts';
import type { ChosenColumns } from './columns.ts';
import { FileError } from './errors.ts';

export interface FileRow {
  /**
   * 1-based position among the data rows that are not blank, in file order. The header row (and
   * any title rows above it) and blank rows are not counted, so row_id 1 is the first customer.
   */
  rowId: number;
  /** the number cell as text, trimmed ("124-81-00998", "1248100998", "'124 81 00998") */
  bnoRaw: string;
  /** ten digits, or null when the cell does not hold a business number */
  bno: string | null;
  name: string | null;
  address: string | null;
  /** every column by header name (see OpenedRows.headers), for the results download */
  cells: Record<string, string>;
}

/** What reading changed or left out, for the job to report (none of it is silent). */
export interface FileNotes {
  /** rows under or between the list that total it (합계, 소계, a =COUNT() result): skipped, not looked up */
  totalRows: number;
  /** the first few of them as they read, cells joined */
  totalRowTexts: string[];
  /** 9-digit numbers (Excel dropped the leading zero of a number typed as a number): read with it */
  paddedNumbers: number;
  /** row_ids of the first few */
  paddedRows: number[];
}

export const emptyNotes = (): FileNotes => ({ totalRows: 0, totalRowTexts: [], paddedNumbers: 0, paddedRows: [] });
const NOTE_EXAMPLES = 5;

// 합계 / 총 합계: / 소계(3건) / Grand Total, folded like a label
const TOTAL_LABEL = /^(합계|총계|소계|총합계|누계|계|합|총|합계금액|총액|total|grandtotal|subtotal|sum|totals)[:：]?([0-9,]+(건|개|곳|개사|개소|명))?$/;
const foldCell = (t: string): string => t.normalize('NFKC').toLowerCase().replace(/[\s_\-.·()[\]]/g, '');

/**
 * A row that totals the list rather than naming a customer: a 합계/소계 label anywhere in it; or,
 * with no text in the row, a count under the number column no larger than the rows above it
 * (what "=COUNT(A2:A20)" leaves: "12345" under 40 rows is a mistyped number, not a count), or no
 * number and only figures (an unlabelled =SUM() row). The caller asks only when the row's number
 * is not a valid business number.
 */
export function isTotalRow(record: readonly RawCell[], bnoText: string, rowsAbove: number): boolean {
  let otherText = false;
  for (const c of record) {
    if (typeof c === 'number') continue;
    const f = foldCell(c);
    if (f === '') continue;
    if (TOTAL_LABEL.test(f)) return true;
    if (!/^[0-9,+%₩원]*$/.test(f)) otherText = true;
  }
  if (otherText) return false;
  // an empty number cell with only figures beside it is a sum row without its label
  if (bnoText === '') return true;
  const count = bnoText.replace(/,/g, '');
  return /^[0-9]{1,7}$/.test(count) && Number(count) >= 1 && Number(count) <= rowsAbove;
}

export interface RowLimits {
  maxRows: number;
  maxBlankRows: number;
  maxColumns: number;
  maxCellChars: number;
}

export function isBlank(record: readonly RawCell[]): boolean {
  return record.every((c) => (typeof c === 'number' ? false : c.trim() === ''));
}

/** Header text as a key: whitespace (Alt+Enter line breaks) folded, empty ones named by position. */
export function headerName(raw: string, index: number): string {
  const s = cleanText(raw).replace(/\s+/g, ' ').trim();
  if (s === '') return `열${index + 1}`;
  // cells are plain objects, where "__proto__" cannot be an ordinary key
  return s === '__proto__' ? `${s} (열${index + 1})` : s;
}

export function blankRowsError(limit: number): FileError {
  return new FileError(
    'too_many_rows',
    `빈 행이나 합계 행이 너무 많습니다 (${limit.toLocaleString('ko-KR')}행 초과). 서식만 남은 빈 행을 삭제한 뒤 다시 올려 주세요.`,
    { limit, blank: true },
  );
}

export interface RowBuilderInit {
  headerRaw: readonly string[];
  columns: ChosenColumns;
  limits: RowLimits;
  /** names for columns past the header: JSON keys seen later; for tables none, so "열N" */
  laterName?: (index: number) => string;
  /** blank rows already passed while looking for the header */
  blankSeen?: number;
}

export class RowBuilder {
  readonly headers: string[] = [];
  readonly #used = new Set<string>();
  readonly #limits: RowLimits;
  readonly #columns: ChosenColumns;
  readonly #laterName: (index: number) => string;
  #rows = 0;
  #blank: number;
  /** counts as the rows are read; complete once they end */
  readonly notes: FileNotes = emptyNotes();

  constructor(init: RowBuilderInit) {
    this.#limits = init.limits;
    this.#columns = init.columns;
    this.#laterName = init.laterName ?? (() => '');
    this.#blank = init.blankSeen ?? 0;
    this.#extend(init.headerRaw.length, (i) => init.headerRaw[i] ?? '');
  }

  #noteTotal(record: readonly RawCell[]): void {
    // rows that are not customers are bounded like blank ones: a file of nothing but 합계 rows ends
    if (++this.notes.totalRows > this.#limits.maxBlankRows) throw blankRowsError(this.#limits.maxBlankRows);
    if (this.notes.totalRowTexts.length < NOTE_EXAMPLES) {
      const text = record.map((c) => rawText(c).trim()).filter((t) => t !== '').join(' ');
      this.notes.totalRowTexts.push(cleanText(text.length > 100 ? `${text.slice(0, 100)}…` : text));
    }
  }

  /** Gives each column a distinct name; "비고", "비고" become "비고", "비고 (2)". */
  static uniqueNames(raw: readonly string[]): string[] {
    const used = new Set<string>();
    return raw.map((r, i) => unique(headerName(r, i), used));
  }

  #extend(width: number, rawName: (i: number) => string): void {
    if (width > this.#limits.maxColumns) {
      throw new FileError('too_many_columns', `열이 너무 많습니다 (최대 ${this.#limits.maxColumns}열).`, { limit: this.#limits.maxColumns });
    }
    for (let i = this.headers.length; i < width; i++) this.headers.push(unique(headerName(rawName(i), i), this.#used));
  }

  /** The row for a record, or null for a blank one; throws past the row limits. */
  build(record: readonly RawCell[]): FileRow | null {
    if (isBlank(record)) {
      if (++this.#blank > this.#limits.maxBlankRows) throw blankRowsError(this.#limits.maxBlankRows);
      return null;
    }
    if (record.length > this.headers.length) this.#extend(record.length, this.#laterName);

    const cells: Record<string, string> = {};
    const max = this.#limits.maxCellChars;
    for (let i = 0; i < this.headers.length; i++) {
      const raw = rawText(record[i]);
      // control characters cannot be stored or echoed (domain/safe-text.ts): in a cell they are
      // cleaned, not refused; after the cut, which may split a surrogate pair
      cells[this.headers[i]!] = cleanText(raw.length > max ? raw.slice(0, max) : raw);
    }
    const textAt = (index: number | undefined): string | null => {
      if (index === undefined) return null;
      const t = cells[this.headers[index - 1]!]?.trim() ?? '';
      return t === '' ? null : t;
    };
    const bnoCell = record[this.#columns.bno.index - 1];
    const bnoRaw = textAt(this.#columns.bno.index) ?? '';
    // a number shown with thousands separators (#,##0) is still the number
    const bnoText = bnoRaw.includes(',') && /^[0-9][0-9,]*$/.test(bnoRaw) ? bnoRaw.replace(/,/g, '') : bnoRaw;
    // full-width digits (１２４－８１) are what some Korean IMEs type
    let bno = typeof bnoCell === 'number' ? normaliseFromFile(bnoCell) : (plainNumber(bnoText) ?? normaliseFromFile(bnoText.normalize('NFKC')));
    // Excel keeps a number typed as a number without its leading zero, and a CSV saved from it
    // too: nine digits are read as ten, alike in both, and reported
    const nine = bno !== null || typeof bnoCell === 'number' ? null : (/^'?([0-9]{9})$/.exec(bnoText.normalize('NFKC').replace(/\s/g, ''))?.[1] ?? null);
    if (nine !== null) bno = `0${nine}`;
    const padded = typeof bnoCell === 'number' ? bnoCell >= 100_000_000 && bnoCell < 1_000_000_000 : nine !== null;
    if (!(bno !== null && hasValidCheckDigit(bno)) && isTotalRow(record, bnoRaw, this.#rows)) {
      this.#noteTotal(record);
      return null;
    }
    if (++this.#rows > this.#limits.maxRows) {
      throw new FileError(
        'too_many_rows',
        `행이 너무 많습니다. 한 파일에 최대 ${this.#limits.maxRows.toLocaleString('ko-KR')}행까지 올릴 수 있습니다. 파일을 나누어 올려 주세요.`,
        { limit: this.#limits.maxRows },
      );
    }
    if (padded) {
      this.notes.paddedNumbers++;
      if (this.notes.paddedRows.length < NOTE_EXAMPLES) this.notes.paddedRows.push(this.#rows);
    }
    return {
      rowId: this.#rows,
      bnoRaw,
      bno,
      name: textAt(this.#columns.name?.index),
      address: textAt(this.#columns.address?.index),
      cells,
    };
  }
}

const isDigit = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};

/**
 * The two forms nearly every cell has, 1248100998 and 124-81-00998, read without the general
 * path (NFKC, regular expressions), which cost more than the rest of a row; null for anything else.
 */
export function plainNumber(raw: string): string | null {
  if (raw.length === 10) {
    for (let i = 0; i < 10; i++) if (!isDigit(raw, i)) return null;
    return raw;
  }
  if (raw.length === 12 && raw[3] === '-' && raw[6] === '-') {
    for (const i of [0, 1, 2, 4, 5, 7, 8, 9, 10, 11]) if (!isDigit(raw, i)) return null;
    return raw.slice(0, 3) + raw.slice(4, 6) + raw.slice(7);
  }
  return null;
}

function unique(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name} (${n})`;
  used.add(candidate);
  return candidate;
}
