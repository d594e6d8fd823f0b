// Reading an uploaded customer list: detect what it is, find the header and the number column,
// then stream the rows. openRows() resolves once the columns are known (so a file without a
// number column is refused before anything is stored) and hands back the rows still unread.
//
// The input is owned from here on: it is destroyed when the rows end, fail or are abandoned,
// and an AbortSignal destroys it too, which wakes any read waiting on a stalled upload.

import type { Readable } from 'node:stream';
import type { ChosenHeaders } from '../../domain/batch.ts';
import { readHead } from './byte-head.ts';
import { rawText, type RawCell } from './cell-text.ts';
import { chooseColumns, type ChosenColumns, type ColumnOverrides } from './columns.ts';
import { csvRecords } from './csv-source.ts';
import { detectFile, SNIFF_BYTES, type Delimiter, type FileKind, type TextEncoding } from './detect.ts';
import { FileError } from './errors.ts';
import { jsonRecords } from './json-source.ts';
import { findTableHeader, HEADER_SEARCH_ROWS, sampleKeysHeader } from './find-header.ts';
import { isBlank, RowBuilder, type FileNotes, type FileRow } from './row-builder.ts';
import { xlsxRecords } from './xlsx-source.ts';

export type { ColumnOverrides, ChosenColumns } from './columns.ts';
export type { FileNotes, FileRow } from './row-builder.ts';
export type { FileKind } from './detect.ts';

export const DEFAULT_LIMITS = {
  maxCellChars: 2_000,
  maxColumns: 256,
  maxBlankRows: 100_000,
  maxInflatedBytes: 256 * 1024 * 1024,
  maxJsonDepth: 64,
  maxRecordChars: 1_000_000,
} as const;

export interface ReadOptions {
  /** what the caller says the file is; binary content still decides (see detect.ts) */
  kind?: FileKind | undefined;
  filename?: string | undefined;
  contentType?: string | undefined;
  /** XLSX worksheet name, or 1-based position among visible sheets; default the first visible */
  sheet?: string | number | undefined;
  columns?: ColumnOverrides | undefined;
  /**
   * A header naming no number column is not refused: the first column stands in for it and
   * `numberRecognised` is false (for showing a file's columns to choose from, never for a job).
   */
  provisionalNumber?: boolean | undefined;
  /** data rows (not blank, not the header) allowed; one more is 'too_many_rows' at once */
  maxRows: number;
  /** longer cells are cut to this many characters */
  maxCellChars?: number | undefined;
  maxColumns?: number | undefined;
  /** blank rows tolerated in total (a sheet formatted down to row 1,048,576 has a million) */
  maxBlankRows?: number | undefined;
  /** XLSX: bytes all zip parts may inflate to, together */
  maxInflatedBytes?: number | undefined;
  maxJsonDepth?: number | undefined;
  /** CSV: characters one record may hold (an unclosed quote otherwise swallows the file) */
  maxRecordChars?: number | undefined;
  /** XLSX: where sheets stored before their shared strings are spooled; default os.tmpdir() */
  tmpDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface OpenedRows {
  kind: FileKind;
  encoding: TextEncoding | null;
  delimiter: Delimiter | null;
  /** XLSX: the worksheet read */
  sheet: string | null;
  /** XLSX: the visible worksheets in tab order */
  sheets: string[];
  /** XLSX: the sheet was picked for holding the number column (no sheet asked for, and not the first) */
  sheetByContent: boolean;
  /**
   * Column names in file order, the keys of every row's `cells`. Empty headers are "열N",
   * repeats get " (2)". The array grows while rows are read when a row is wider than the
   * header or a JSON object brings a key not seen in the first objects; read it again after
   * the rows for the complete list.
   */
  headers: string[];
  /** header names of the recognised columns */
  chosen: ChosenHeaders;
  columns: ChosenColumns;
  /** false when the number column is the first column standing in (`provisionalNumber`) */
  numberRecognised: boolean;
  /** total rows skipped and numbers read with their leading zero: complete once the rows have ended */
  notes: FileNotes;
  rows: AsyncGenerator<FileRow>;
  /** The same rows in batches (whatever the reader had ready): read either this or `rows`. */
  batches: AsyncGenerator<FileRow[]>;
  /** Releases the input when the rows will not be read to the end. */
  close(): Promise<void>;
}

type Source = { records: AsyncGenerator<RawCell[][]>; keys?: readonly string[]; sheet?: () => SheetRead };

/** XLSX: the worksheet read, the visible ones, and whether it was picked for holding the list. */
export interface SheetRead {
  name: string | null;
  sheets: string[];
  byContent: boolean;
}

/** One-record batches, for the readers that produce a record at a time. */
async function* single(records: AsyncGenerator<RawCell[]>): AsyncGenerator<RawCell[][]> {
  try {
    for await (const r of records) yield [r];
  } finally {
    await records.return(undefined);
  }
}

function openSource(body: Readable, kind: FileKind, encoding: TextEncoding | null, delimiter: Delimiter | null, opts: ReadOptions): Source {
  const maxColumns = opts.maxColumns ?? DEFAULT_LIMITS.maxColumns;
  switch (kind) {
    case 'csv':
      return {
        records: csvRecords(body, {
          encoding: encoding ?? 'utf-8',
          delimiter: delimiter ?? ',',
          maxRecordChars: opts.maxRecordChars ?? DEFAULT_LIMITS.maxRecordChars,
        }),
      };
    case 'json': {
      const json = jsonRecords(body, {
        encoding: encoding ?? 'utf-8',
        maxDepth: opts.maxJsonDepth ?? DEFAULT_LIMITS.maxJsonDepth,
        maxCellChars: opts.maxCellChars ?? DEFAULT_LIMITS.maxCellChars,
        maxColumns,
      });
      return { records: single(json.records), keys: json.keys };
    }
    case 'xlsx': {
      const xlsx = xlsxRecords(body, {
        sheet: opts.sheet,
        maxInflatedBytes: opts.maxInflatedBytes ?? DEFAULT_LIMITS.maxInflatedBytes,
        maxColumns,
        tmpDir: opts.tmpDir,
        probe: (head) => head.filter((r) => !isBlank(r)).slice(0, HEADER_SEARCH_ROWS).some((r) => chooseColumns(RowBuilder.uniqueNames(r.map((c) => rawText(c))), opts.columns).ok),
      });
      return { records: single(xlsx.records), sheet: () => ({ name: xlsx.sheet, sheets: xlsx.sheets, byContent: xlsx.byContent }) };
    }
  }
}

const UNREADABLE: Record<FileKind, string> = {
  csv: 'CSV 파일을 읽을 수 없습니다.',
  json: 'JSON 파일을 읽을 수 없습니다.',
  xlsx: '엑셀(XLSX) 파일을 읽을 수 없습니다. 파일이 손상되었거나 XLSX 형식이 아닙니다. 엑셀에서 "Excel 통합 문서(*.xlsx)"로 다시 저장해 올려 주세요.',
};

function mapError(err: unknown, kind: FileKind | null, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  if (err instanceof FileError) return err;
  return new FileError('unreadable', kind ? UNREADABLE[kind] : '파일을 읽을 수 없습니다.', {}, err);
}

export async function openRows(input: Readable, opts: ReadOptions): Promise<OpenedRows> {
  const signal = opts.signal;
  signal?.throwIfAborted();
  const onAbort = () => input.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
  signal?.addEventListener('abort', onAbort, { once: true });
  let source: Source | null = null;
  let kind: FileKind | null = null;
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    signal?.removeEventListener('abort', onAbort);
    // destroying first wakes a read that is waiting on the upload, so the return() below can run
    input.destroy();
    await source?.records.return(undefined).catch(() => undefined);
  };

  try {
    const { head, body } = await readHead(input, SNIFF_BYTES);
    const detected = detectFile(head, { filename: opts.filename, contentType: opts.contentType, kind: opts.kind });
    kind = detected.kind;
    const src = openSource(body, detected.kind, detected.encoding, detected.delimiter, opts);
    source = src;
    let ready: RawCell[][] = [];
    let at = 0;
    const next = async (): Promise<RawCell[] | null> => {
      while (at >= ready.length) {
        const r = await src.records.next();
        if (r.done) return null;
        ready = r.value;
        at = 0;
      }
      return ready[at++]!;
    };
    const maxBlankRows = opts.maxBlankRows ?? DEFAULT_LIMITS.maxBlankRows;
    const header = src.keys
      ? await sampleKeysHeader(next, src.keys, opts.columns, opts.provisionalNumber)
      : await findTableHeader(next, opts.columns, maxBlankRows, () => src.sheet?.() ?? null, opts.provisionalNumber);
    const sheetRead = src.sheet?.() ?? null;
    const { columns, pending } = header;
    const builder = new RowBuilder({
      headerRaw: header.headerRaw,
      columns,
      limits: {
        maxRows: opts.maxRows,
        maxBlankRows,
        maxColumns: opts.maxColumns ?? DEFAULT_LIMITS.maxColumns,
        maxCellChars: opts.maxCellChars ?? DEFAULT_LIMITS.maxCellChars,
      },
      laterName: (i) => src.keys?.[i] ?? '',
      blankSeen: header.blankSeen,
    });

    /** Rows of some records; the rows before a record that breaks a limit still come out first. */
    function* build(records: readonly RawCell[][], from = 0): Generator<FileRow[]> {
      const out: FileRow[] = [];
      try {
        for (let i = from; i < records.length; i++) {
          const row = builder.build(records[i]!);
          if (row) out.push(row);
        }
      } catch (err) {
        if (out.length > 0) yield out;
        throw err;
      }
      if (out.length > 0) yield out;
    }

    async function* batches(): AsyncGenerator<FileRow[]> {
      try {
        yield* build(pending.splice(0));
        // the rest of the batch the header search stopped in
        yield* build(ready, at);
        at = ready.length;
        for (;;) {
          const r = await src.records.next();
          if (r.done) return;
          yield* build(r.value);
        }
      } catch (err) {
        throw mapError(err, kind, signal);
      } finally {
        await release();
      }
    }

    async function* rows(): AsyncGenerator<FileRow> {
      for await (const batch of batches()) yield* batch;
    }

    return {
      kind: detected.kind,
      encoding: detected.encoding,
      delimiter: detected.delimiter,
      sheet: sheetRead?.name ?? null,
      sheets: sheetRead?.sheets ?? [],
      sheetByContent: sheetRead?.byContent ?? false,
      headers: builder.headers,
      chosen: {
        bno: columns.bno.header, name: columns.name?.header ?? null, address: columns.address?.header ?? null,
        representative: columns.representative?.header ?? null, opened: columns.opened?.header ?? null,
      },
      columns,
      numberRecognised: header.numberRecognised,
      notes: builder.notes,
      rows: rows(),
      batches: batches(),
      close: release,
    };
  } catch (err) {
    await release();
    throw mapError(err, kind, signal);
  }
}

/** The rows alone, for callers that do not need the header first. */
export async function* readRows(input: Readable, opts: ReadOptions): AsyncGenerator<FileRow> {
  const opened = await openRows(input, opts);
  try {
    yield* opened.rows;
  } finally {
    await opened.close();
  }
}
