// From positional records to FileRows: header names made unique and usable as keys, blank rows
// told apart from data, limits counted, the three recognised columns pulled out.

import { normaliseFromFile } from '../../domain/bizno.ts';
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
    `빈 행이 너무 많습니다 (${limit.toLocaleString('ko-KR')}행 초과). 서식만 남은 빈 행을 삭제한 뒤 다시 올려 주세요.`,
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

  constructor(init: RowBuilderInit) {
    this.#limits = init.limits;
    this.#columns = init.columns;
    this.#laterName = init.laterName ?? (() => '');
    this.#blank = init.blankSeen ?? 0;
    this.#extend(init.headerRaw.length, (i) => init.headerRaw[i] ?? '');
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
    if (++this.#rows > this.#limits.maxRows) {
      throw new FileError(
        'too_many_rows',
        `행이 너무 많습니다. 한 파일에 최대 ${this.#limits.maxRows.toLocaleString('ko-KR')}행까지 올릴 수 있습니다. 파일을 나누어 올려 주세요.`,
        { limit: this.#limits.maxRows },
      );
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
    // full-width digits (１２４－８１) are what some Korean IMEs type
    const bno = typeof bnoCell === 'number' ? normaliseFromFile(bnoCell) : (plainNumber(bnoRaw) ?? normaliseFromFile(bnoRaw.normalize('NFKC')));
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
