// A spreadsheet cell as the person who made the file sees it. Numbers stay numbers up to this
// point because a 사업자등록번호 typed as a number is read by its value (normaliseFromFile pads
// it back to ten digits), while every other column shows them as text.

/** One cell from any source: text, or a number that Excel stored as a number. */
export type RawCell = string | number;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Excel dates arrive as UTC instants of the wall-clock time that was typed. */
export function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (time === '00:00:00') return date;
  // a time without a date is stored on Excel's day zero
  if (date === '1899-12-30') return time;
  return `${date} ${time}`;
}

/** Fifteen significant digits, as Excel displays them: 0.30000000000000004 is "0.3". */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return '';
  return String(Number(n.toPrecision(15)));
}

function richTextOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || !('richText' in value) || !Array.isArray(value.richText)) return null;
  return value.richText.map((run: unknown) => (typeof run === 'object' && run !== null && 'text' in run ? (typeof run.text === 'string' ? run.text : '') : '')).join('');
}

function scalar(value: unknown): RawCell | null {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  return null;
}

/**
 * exceljs's cell value → RawCell: rich text joined, a formula's cached result (never the
 * formula), a hyperlink's shown text, an error as "#N/A" and so on.
 */
export function cellRaw(value: unknown): RawCell {
  const plain = scalar(value);
  if (plain !== null) return plain;
  const rich = richTextOf(value);
  if (rich !== null) return rich;
  if (typeof value !== 'object' || value === null) return '';
  if ('formula' in value || 'sharedFormula' in value) {
    const result = 'result' in value ? value.result : undefined;
    const r = scalar(result);
    if (r !== null) return r;
    if (typeof result === 'object' && result !== null && 'error' in result) return String(result.error);
    return '';
  }
  if ('error' in value) return String(value.error);
  if ('text' in value) return scalar(value.text) ?? richTextOf(value.text) ?? '';
  return '';
}

export function rawText(cell: RawCell | undefined): string {
  if (cell === undefined) return '';
  return typeof cell === 'number' ? numberText(cell) : cell;
}
