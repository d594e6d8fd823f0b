// XLSX → records of one worksheet, streamed with exceljs's streaming reader parts. exceljs's own
// entry loop is replaced (see xlsx-zip.ts) so that every part is metered, only the chosen sheet is
// kept, and sheets that arrive before the shared strings (Excel writes them in that order) are
// spooled to an unlinked temporary file, never to memory; the shared strings are kept there too
// (shared-strings.ts), off the heap. Every part's elements are counted against Excel's own limits
// before exceljs builds anything from them (xlsx-elements.ts). The private exceljs methods used
// here are pinned by the exact exceljs version in package.json.

import { randomUUID } from 'node:crypto';
import { close, open, read, unlink } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { cellRaw, rawText, type RawCell } from './cell-text.ts';
import { formatNumber } from './number-format.ts';
import { SharedStringTable } from './shared-strings.ts';
import { FileError } from './errors.ts';
import { drain, entryPath, InflateBudget, meteredText, openZip, spool, type ZipEntry } from './xlsx-zip.ts';

export interface XlsxOptions {
  /** worksheet name, or 1-based position among the visible sheets; default the first visible one */
  sheet?: string | number | undefined;
  maxInflatedBytes: number;
  /** cells right of this column are an error if they hold anything */
  maxColumns: number;
  tmpDir?: string | undefined;
  /**
   * With no sheet asked for: whether a sheet's first records hold the list (a header with a number
   * column). A workbook of several visible sheets is then read from the first that does — a 안내
   * sheet of notes before the list is common — and from the first visible one when none does.
   */
  probe?: ((head: readonly RawCell[][]) => boolean) | undefined;
}

export interface XlsxSource {
  /** the chosen worksheet's name, known before the first record */
  readonly sheet: string | null;
  /** the visible worksheets in tab order, known before the first record */
  readonly sheets: string[];
  /** the sheet was picked by `probe`, past the first visible one */
  readonly byContent: boolean;
  records: AsyncGenerator<RawCell[]>;
}

// what a probe sees of a sheet: its first rows, as the header search reads them
const PROBE_NON_BLANK = 10;
const PROBE_RECORDS = 1_000;

interface SheetRef {
  name: string;
  state?: string;
  rId: string;
}
interface StreamRow {
  eachCell(cb: (cell: { value: unknown; numFmt?: string }, col: number) => void): void;
}
interface WorksheetReader extends AsyncIterable<StreamRow> {
  name: string;
}
// what exceljs's WorkbookReader knows after reading the workbook parts
interface ReaderState {
  options: Record<string, string>;
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: SheetRef[] };
}
interface ReaderInternals extends ReaderState {
  _parseRels(s: Readable): Promise<void>;
  _parseWorkbook(s: Readable): Promise<void>;
  _parseStyles(s: Readable): Promise<void>;
  _parseSharedStrings(s: Readable): AsyncIterable<{ index: number; text: unknown }>;
  sharedStrings?: unknown;
  _parseWorksheet(it: AsyncIterable<string>, sheetNo: string): Iterable<{ value: WorksheetReader }>;
}
interface ReaderParts {
  state: ReaderState;
  rels(s: Readable): Promise<void>;
  workbook(s: Readable): Promise<void>;
  styles(s: Readable): Promise<void>;
  sharedStrings(s: Readable, table: SharedStringTable): Promise<void>;
  worksheet(text: AsyncIterable<string>): WorksheetReader | null;
}

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * exceljs's reader with the part parsers its own parse() loop calls; those are private by name
 * only, and the exact exceljs version in package.json pins them.
 */
function newReader(): ReaderParts {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader('', {
    worksheets: 'emit',
    // each string is handed over as it is read and kept off the heap (shared-strings.ts)
    sharedStrings: 'emit',
    // styles are needed to tell a date from a number
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as ReaderInternals;
  /* oxlint-disable no-underscore-dangle */
  return {
    state: reader,
    rels: (s) => reader._parseRels(s),
    workbook: (s) => reader._parseWorkbook(s),
    styles: (s) => reader._parseStyles(s),
    async sharedStrings(s, table) {
      for await (const { text } of reader._parseSharedStrings(s)) table.add(rawText(cellRaw(text)));
      table.finish();
      reader.sharedStrings = table.view();
    },
    worksheet(text) {
      for (const event of reader._parseWorksheet(text, '0')) return event.value;
      return null;
    },
  };
  /* oxlint-enable no-underscore-dangle */
}

function unreadable(message: string): FileError {
  return new FileError('unreadable', `엑셀(XLSX) 파일을 읽을 수 없습니다: ${message}`);
}

/** Worksheets in tab order with their part names, once workbook.xml and its rels are read. */
function worksheetsOf(reader: ReaderState): { name: string; hidden: boolean; part: string }[] | null {
  if (!reader.model || !reader.workbookRels) return null;
  const out: { name: string; hidden: boolean; part: string }[] = [];
  for (const s of reader.model.sheets ?? []) {
    const rel = reader.workbookRels.find((r) => r.Id === s.rId);
    if (!rel) continue;
    const target = rel.Target.replace(/\\/g, '/');
    const part = target.startsWith('/') ? target.slice(1) : path.posix.normalize(`xl/${target}`);
    if (WORKSHEET.test(part)) out.push({ name: s.name, hidden: s.state === 'hidden' || s.state === 'veryHidden', part });
  }
  return out;
}

function choose(sheets: { name: string; hidden: boolean; part: string }[], wanted: string | number | undefined) {
  const visible = sheets.filter((s) => !s.hidden);
  let found;
  if (wanted === undefined) found = visible[0] ?? sheets[0];
  else if (typeof wanted === 'number') found = visible[wanted - 1];
  else {
    found = sheets.find((s) => s.name === wanted) ?? sheets.find((s) => s.name.trim().toLowerCase() === wanted.trim().toLowerCase());
    // a form field sends "2" as text: a position, unless a sheet is literally named "2"
    if (!found && /^[1-9][0-9]*$/.test(wanted.trim())) found = visible[Number(wanted.trim()) - 1];
  }
  if (found) return found;
  const names = visible.map((s) => `"${s.name}"`).join(', ');
  if (sheets.length === 0) throw new FileError('bad_sheet', '엑셀 파일에 워크시트가 없습니다.', { sheets: [] });
  throw new FileError('bad_sheet', `"${String(wanted)}" 시트를 찾지 못했습니다. 파일의 시트: ${names}`, {
    wanted,
    sheets: visible.map((s) => s.name),
  });
}

function toRecord(row: StreamRow, maxColumns: number): RawCell[] {
  const record: RawCell[] = [];
  row.eachCell((cell, col) => {
    let raw = cellRaw(cell.value);
    // as the sheet shows it: a postal code with its leading zero, a number as 000-00-00000
    if (typeof raw === 'number') raw = formatNumber(raw, cell.numFmt) ?? raw;
    if (raw === '') return;
    if (col > maxColumns) {
      throw new FileError('too_many_columns', `열이 너무 많습니다 (최대 ${maxColumns}열).`, { limit: maxColumns });
    }
    while (record.length < col - 1) record.push('');
    record[col - 1] = raw;
  });
  return record;
}

/**
 * A temporary file that is already unlinked: it lives while it is open and vanishes with its last
 * descriptor, so no exit — a refusal, a crash, a killed process — leaves it behind.
 */
async function spoolFile(dir: string | undefined): Promise<number> {
  const name = path.join(dir ?? tmpdir(), `bizcheck-xlsx-${randomUUID()}.xml`);
  // a bare descriptor: streams over a FileHandle keep it from closing while they are unfinished
  const fd = await promisify(open)(name, 'wx+', 0o600);
  await promisify(unlink)(name).catch(async (err: unknown) => {
    await promisify(close)(fd);
    throw err;
  });
  return fd;
}

export function xlsxRecords(body: Readable, opts: XlsxOptions): XlsxSource {
  const source = { sheet: null as string | null, sheets: [] as string[], byContent: false, records: null as unknown as AsyncGenerator<RawCell[]> };
  source.records = generate(body, opts, (name, sheets, byContent) => {
    source.sheet = name;
    source.sheets = sheets;
    source.byContent = byContent;
  });
  return source;
}

type SheetInfo = { name: string; hidden: boolean; part: string };

const visibleNames = (sheets: SheetInfo[] | null): string[] => (sheets ?? []).filter((s) => !s.hidden).map((s) => s.name);

const readAt = promisify(read);

/**
 * The bytes of a spooled file from its start, by positional reads. Not an fs read stream: one that
 * is destroyed before its end (a probe stops after a sheet's first rows) closes its descriptor
 * even with autoClose false, and the sheet chosen could then not be read again (EBADF: every
 * workbook with a 안내 sheet and a list of more than a few rows was refused as unreadable).
 */
async function* bytesOf(fd: number): AsyncGenerator<Buffer> {
  for (let at = 0; ;) {
    const buf = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await readAt(fd, buf, 0, buf.length, at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buf.subarray(0, bytesRead);
  }
}

/** A spooled sheet read again from its start: its bytes were counted as they inflated, its elements are counted now. */
const spooledText = (fd: number) => meteredText(Readable.from(bytesOf(fd), { objectMode: false }), new InflateBudget(Infinity), 'sheet');

async function* generate(body: Readable, opts: XlsxOptions, onSheet: (name: string, sheets: string[], byContent: boolean) => void): AsyncGenerator<RawCell[]> {
  const reader = newReader();
  const budget = new InflateBudget(opts.maxInflatedBytes);
  const zip = openZip(body);
  // unlinked temporary files by part: sheets stored before the shared strings, and the strings
  const spooled = new Map<string, number>();
  let sharedStringsRead = false;
  let chosen: { name: string; part: string } | null = null;
  let byContent = false;
  // several visible sheets and none asked for: every visible one is kept until one is seen to hold the list
  const probing = (sheets: SheetInfo[] | null) => opts.sheet === undefined && opts.probe !== undefined && (sheets === null || sheets.filter((s) => !s.hidden).length > 1);

  async function* records(text: AsyncIterable<string>): AsyncGenerator<RawCell[]> {
    const sheet = reader.worksheet(text);
    if (!sheet) return;
    for await (const row of sheet) yield toRecord(row, opts.maxColumns);
  }

  async function* rowsOf(text: AsyncIterable<string>, name: string): AsyncGenerator<RawCell[]> {
    onSheet(name, visibleNames(worksheetsOf(reader.state)), byContent);
    yield* records(text);
  }


  /** The first visible spooled sheet whose first records pass the probe, or null. */
  async function probed(sheets: SheetInfo[]): Promise<SheetInfo | null> {
    for (const s of sheets.filter((x) => !x.hidden)) {
      const fd = spooled.get(s.part);
      if (fd === undefined) continue;
      const head: RawCell[][] = [];
      let nonBlank = 0;
      for await (const record of records(spooledText(fd))) {
        head.push(record);
        if (record.some((c) => rawText(c).trim() !== '')) nonBlank++;
        if (nonBlank >= PROBE_NON_BLANK || head.length >= PROBE_RECORDS) break;
      }
      if (opts.probe!(head)) return s;
    }
    return null;
  }

  try {
    for await (const entry of zip as AsyncIterable<ZipEntry>) {
      const part = entryPath(entry);
      if (part === 'xl/_rels/workbook.xml.rels') await reader.rels(meteredText(entry, budget, 'rels'));
      else if (part === 'xl/workbook.xml') await reader.workbook(meteredText(entry, budget, 'workbook'));
      else if (part === 'xl/styles.xml') await reader.styles(meteredText(entry, budget, 'styles'));
      else if (part === 'xl/sharedStrings.xml') {
        const fd = await spoolFile(opts.tmpDir);
        spooled.set(part, fd);
        await reader.sharedStrings(meteredText(entry, budget, 'sharedStrings'), new SharedStringTable(fd));
        sharedStringsRead = true;
      } else if (WORKSHEET.test(part)) {
        const sheets = worksheetsOf(reader.state);
        if (probing(sheets)) {
          const known = sheets?.find((s) => s.part === part);
          if (sheets && (!known || known.hidden)) await drain(entry, budget);
          else {
            const file = await spoolFile(opts.tmpDir);
            spooled.set(part, file);
            await spool(entry, budget, file);
          }
          continue;
        }
        chosen ??= sheets ? choose(sheets, opts.sheet) : null;
        if (chosen && chosen.part !== part) await drain(entry, budget);
        else if (chosen && sharedStringsRead) {
          yield* rowsOf(meteredText(entry, budget, 'sheet'), chosen.name);
          return;
        } else {
          const file = await spoolFile(opts.tmpDir);
          spooled.set(part, file);
          await spool(entry, budget, file);
        }
      } else await drain(entry, budget);
    }

    const sheets = worksheetsOf(reader.state);
    if (!sheets) throw unreadable('통합 문서 정보(workbook.xml)가 없습니다.');
    if (!chosen && probing(sheets)) {
      const found = await probed(sheets);
      byContent = found !== null && found.name !== visibleNames(sheets)[0];
      // none holds the list: the first, whose header search then says what it saw
      chosen = found;
    }
    chosen ??= choose(sheets, opts.sheet);
    const file = spooled.get(chosen.part);
    if (!file) throw unreadable(`"${chosen.name}" 시트의 내용이 없습니다.`);
    // its bytes were counted as they inflated; its elements are counted now
    yield* rowsOf(spooledText(file), chosen.name);
  } finally {
    zip.destroy();
    body.destroy();
    await Promise.all([...spooled.values()].map((fd) => promisify(close)(fd).catch(() => undefined)));
  }
}
