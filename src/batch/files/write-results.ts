// Streaming writers for the results download. Rows are pulled one at a time and written as the
// client reads: each writer waits for 'drain' when the output is full, so a slow download slows
// the database paging instead of filling memory. Each writer ends `out` when all rows are
// written; on failure it leaves `out` to the caller (who destroys it, usually mid-response).

import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { cleanText } from '../../domain/safe-text.ts';
import { neutralise, valueText } from './formula-guard.ts';
import { settle } from './xlsx-backlog.ts';

export type ResultRow = Record<string, unknown>;
type Rows = AsyncIterable<ResultRow> | Iterable<ResultRow>;

// Excel refuses a cell longer than this as a corrupt file
const XLSX_MAX_CELL = 32_767;
// small writes are gathered so a million rows are not a million syscalls
const FLUSH_AT = 64 * 1024;
// uncompressed sheet XML allowed to wait inside exceljs before rows stop being pulled
const XLSX_BACKLOG = 256 * 1024;

function waitDrain(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    // a client that goes away destroys the response without 'drain' ever coming
    const onClose = () => {
      cleanup();
      reject(new Error('output closed before the results were written'));
    };
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed) throw new Error('output closed before the results were written');
  if (!out.write(chunk)) await waitDrain(out);
}

function end(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    out.end((err?: Error | null) => (err ? reject(err) : resolve()));
  });
}

/** Rejects if `out` is closed or fails before it has finished; never resolves otherwise. */
function closedEarly(out: Writable): Promise<never> {
  const p = new Promise<never>((_resolve, reject) => {
    out.once('error', reject);
    out.once('close', () => {
      if (!out.writableFinished) reject(new Error('output closed before the results were written'));
    });
  });
  p.catch(() => undefined);
  return p;
}

function csvField(value: unknown): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : neutralise(valueText(value));
  // quoted when it holds a list separator of any locale (or a quote): a reader set to ";" or tab
  // must not split it either
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV with CRLF, in UTF-8 with a BOM: without it Excel reads Korean as CP949 mojibake. */
export async function writeCsv(rows: Rows, columns: readonly string[], out: Writable): Promise<void> {
  let buf = `\uFEFF${columns.map((c) => csvField(c)).join(',')}\r\n`;
  for await (const row of rows) {
    buf += `${columns.map((c) => csvField(row[c])).join(',')}\r\n`;
    if (buf.length >= FLUSH_AT) {
      await write(out, buf);
      buf = '';
    }
  }
  if (buf) await write(out, buf);
  await end(out);
}

export interface JsonWriteOptions {
  /** 'array' (default): one JSON array; 'ndjson': one object per line */
  format?: 'array' | 'ndjson';
}

function jsonRecord(row: ResultRow, columns: readonly string[]): string {
  const obj: Record<string, unknown> = {};
  for (const c of columns) obj[c] = row[c] ?? null;
  return JSON.stringify(obj, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

/** JSON is data, not a spreadsheet: values are written as they are, without the apostrophe guard. */
export async function writeJson(rows: Rows, columns: readonly string[], out: Writable, opts: JsonWriteOptions = {}): Promise<void> {
  const ndjson = opts.format === 'ndjson';
  let buf = ndjson ? '' : '[';
  let first = true;
  for await (const row of rows) {
    buf += ndjson ? `${jsonRecord(row, columns)}\n` : `${first ? '\n' : ',\n'}${jsonRecord(row, columns)}`;
    first = false;
    if (buf.length >= FLUSH_AT) {
      await write(out, buf);
      buf = '';
    }
  }
  if (!ndjson) buf += first ? ']\n' : '\n]\n';
  if (buf) await write(out, buf);
  await end(out);
}

export interface XlsxWriteOptions {
  sheetName?: string;
  /** columns holding a probability, shown as a percentage (the value stays the number) */
  percentColumns?: readonly string[];
}

// rows read ahead to size the columns to their content
const WIDTH_SAMPLE = 200;
const WIDE = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** Columns as wide as a line of text in them: Hangul and CJK count twice, as Excel draws them. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? 2 : 1;
  return w;
}

/**
 * An XLSX cell: numbers and booleans as themselves; text without the CSV apostrophe, because an
 * XLSX string cell is never read as a formula (`formulaLike` marks the ones to format as text, so
 * that editing them in Excel does not make one either).
 */
export function xlsxCell(value: unknown): { value: string | number | boolean | null; formulaLike: boolean } {
  if (value === null || value === undefined || value === '') return { value: null, formulaLike: false };
  if (typeof value === 'boolean') return { value, formulaLike: false };
  if (typeof value === 'number') return { value: Number.isFinite(value) ? value : null, formulaLike: false };
  const text = cleanText(valueText(value));
  const cut = text.length > XLSX_MAX_CELL ? text.slice(0, XLSX_MAX_CELL) : text;
  return { value: cut, formulaLike: neutralise(cut) !== cut };
}

/**
 * One worksheet as a person would set it up: the header bold, frozen and filtered, columns sized
 * to the first rows, numbers and booleans typed, probabilities as percentages. Strings are always
 * written as strings (exceljs makes a formula only from a { formula } value).
 */
export async function writeXlsx(rows: Rows, columns: readonly string[], out: Writable, opts: XlsxWriteOptions = {}): Promise<void> {
  const iterator: AsyncIterator<ResultRow> | Iterator<ResultRow> = Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  let finished = false;
  try {
    const sample: ResultRow[] = [];
    while (sample.length < WIDTH_SAMPLE) {
      const r = await iterator.next();
      if (r.done) {
        finished = true;
        break;
      }
      sample.push(r.value);
    }
    const widths = columns.map((c) => {
      let w = displayWidth(c);
      for (const row of sample) {
        const v = row[c];
        if (v !== null && v !== undefined) w = Math.max(w, displayWidth(typeof v === 'number' ? String(v) : valueText(v)));
      }
      return Math.min(60, Math.max(8, w + 2));
    });
    const percent = new Set(opts.percentColumns ?? []);
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = book.addWorksheet(opts.sheetName ?? 'results', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, columns.length) } };
    sheet.columns = columns.map((c, i) => ({ width: widths[i]!, ...(percent.has(c) ? { style: { numFmt: '0.0%' } } : {}) }));
    // exceljs waits for 'finish' on `out`, which a client that went away never gives
    const closed = closedEarly(out);
    const header = sheet.addRow(columns.map((c) => xlsxCell(c).value));
    header.font = { bold: true };
    header.commit();
    let n = 0;
    const add = async (row: ResultRow) => {
      const cells = columns.map((c) => xlsxCell(row[c]));
      const added = sheet.addRow(cells.map((c) => c.value));
      cells.forEach((c, i) => {
        if (c.formulaLike) added.getCell(i + 1).numFmt = '@';
      });
      added.commit();
      if (++n % 64 === 0) await settle(sheet, out, XLSX_BACKLOG, waitDrain);
    };
    for (const row of sample) await add(row);
    while (!finished) {
      const r = await iterator.next();
      if (r.done) finished = true;
      else await add(r.value);
    }
    sheet.commit();
    await Promise.race([book.commit(), closed]);
  } finally {
    // rows not read to the end (a failure, a client gone) release what feeds them
    if (!finished) await iterator.return?.();
  }
}
