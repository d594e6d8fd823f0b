// Where the data starts. A table's header is the first row in which the number column is found,
// searched among the first few non-blank rows because offices put a title ("거래처 현황 2024년
// 3월") and a blank line above it. A JSON file's header is the keys of its first objects.

import { rawText, type RawCell } from './cell-text.ts';
import { chooseColumns, type ChosenColumns, type ColumnOverrides } from './columns.ts';
import { FileError } from './errors.ts';
import { blankRowsError, isBlank, RowBuilder } from './row-builder.ts';
import type { SheetRead } from './read-rows.ts';

export const HEADER_SEARCH_ROWS = 10;
// objects may leave keys out; the first few together name the columns, not the first alone
const JSON_HEADER_SAMPLE = 50;
const JSON_SAMPLE_CHARS = 1_000_000;

export type NextRecord = () => Promise<RawCell[] | null>;

export interface HeaderFound {
  headerRaw: string[];
  columns: ChosenColumns;
  /** records already read past the header, to be handed out first */
  pending: RawCell[][];
  blankSeen: number;
  /** false when no header named a number column and `provisional` took the first row's first column */
  numberRecognised: boolean;
}

function emptyError(headerOnly: boolean): FileError {
  return headerOnly
    ? new FileError('empty', '머리글 행만 있고 데이터 행이 없습니다.', { headerOnly: true })
    : new FileError('empty', '파일에 데이터가 없습니다.', { headerOnly: false });
}

/**
 * `provisional`: a file whose header names no number column is not refused; its first non-blank
 * row is read as the header with the first column standing in for the number (numberRecognised
 * false), so its columns can be shown and chosen from (POST /batch/inspect).
 */
export async function findTableHeader(next: NextRecord, overrides: ColumnOverrides | undefined, maxBlank: number, sheet: () => SheetRead | null, provisional = false): Promise<HeaderFound> {
  let firstError: FileError | null = null;
  let found: { raw: string[]; columns: ChosenColumns } | null = null;
  let blank = 0;
  const triedRows: { record: RawCell[]; raw: string[] }[] = [];
  for (let tried = 0; !found && tried < HEADER_SEARCH_ROWS; ) {
    const record = await next();
    if (!record) break;
    if (isBlank(record)) {
      if (++blank > maxBlank) throw blankRowsError(maxBlank);
      continue;
    }
    tried++;
    const raw = record.map((c) => rawText(c));
    if (provisional) triedRows.push({ record, raw });
    const result = chooseColumns(RowBuilder.uniqueNames(raw), overrides);
    if (result.ok) found = { raw, columns: result.columns };
    else firstError ??= result.error;
  }
  if (!found && provisional && firstError?.code === 'no_number_column' && triedRows.length > 0) {
    const [head, ...rest] = triedRows;
    const stand = chooseColumns(RowBuilder.uniqueNames(head!.raw), { ...overrides, bnoColumn: 1 });
    // shown, not refused: a notes sheet of one line is a header with no rows under it
    if (stand.ok) return { headerRaw: head!.raw, columns: stand.columns, pending: rest.map((r) => r.record), blankSeen: blank, numberRecognised: false };
  }
  if (!found) {
    const err = firstError ?? emptyError(false);
    const read = sheet();
    // in a workbook the likeliest mistake is the sheet: say which one was read, and which there are
    if (!read?.name) throw err;
    const others = read.sheets.length > 1 ? `; 파일의 시트: ${read.sheets.map((s) => `"${s}"`).join(', ')} (sheet로 고를 수 있습니다)` : '';
    throw new FileError(err.code, `${err.message} (읽은 시트: "${read.name}"${others})`, { ...err.details, sheet: read.name, sheets: read.sheets });
  }
  return { ...(await rowsUnder(next, found.raw, found.columns, blank, maxBlank)), numberRecognised: true };
}

/** The first data row under a header: a header with nothing under it is refused now, before the caller creates anything. */
async function rowsUnder(next: NextRecord, headerRaw: string[], columns: ChosenColumns, blankSeen: number, maxBlank: number): Promise<Omit<HeaderFound, 'numberRecognised'>> {
  let blank = blankSeen;
  for (;;) {
    const record = await next();
    if (!record) throw emptyError(true);
    if (!isBlank(record)) return { headerRaw, columns, pending: [record], blankSeen: blank };
    if (++blank > maxBlank) throw blankRowsError(maxBlank);
  }
}

export async function sampleKeysHeader(next: NextRecord, keys: readonly string[], overrides: ColumnOverrides | undefined, provisional = false): Promise<HeaderFound> {
  const pending: RawCell[][] = [];
  let chars = 0;
  while (pending.length < JSON_HEADER_SAMPLE && chars < JSON_SAMPLE_CHARS) {
    const record = await next();
    if (!record) break;
    pending.push(record);
    for (const c of record) chars += rawText(c).length;
  }
  if (!pending.some((r) => !isBlank(r))) throw emptyError(false);
  const headerRaw = [...keys];
  const result = chooseColumns(RowBuilder.uniqueNames(headerRaw), overrides);
  if (result.ok) return { headerRaw, columns: result.columns, pending, blankSeen: 0, numberRecognised: true };
  if (provisional && result.error.code === 'no_number_column' && headerRaw.length > 0) {
    const stand = chooseColumns(RowBuilder.uniqueNames(headerRaw), { ...overrides, bnoColumn: 1 });
    if (stand.ok) return { headerRaw, columns: stand.columns, pending, blankSeen: 0, numberRecognised: false };
  }
  throw result.error;
}
