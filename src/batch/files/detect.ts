// What an uploaded part is, from its first bytes first and its name second: people rename files
// (a ".csv" that is really an XLSX, an ERP's ".xls" export that is really text), so the content
// decides between binary formats and text, and the declared name only settles what text it is.

import iconv from 'iconv-lite';
import { FileError } from './errors.ts';

export type FileKind = 'csv' | 'xlsx' | 'json';
export type TextEncoding = 'utf-8' | 'cp949' | 'utf-16le' | 'utf-16be';
export type Delimiter = ',' | '\t' | ';';

export interface DetectHints {
  filename?: string | undefined;
  contentType?: string | undefined;
  /** The caller's word for text files; binary content still wins (a zip is never read as CSV). */
  kind?: FileKind | undefined;
}

export interface Detected {
  kind: FileKind;
  /** null for XLSX, whose XML carries its own encoding */
  encoding: TextEncoding | null;
  /** CSV only */
  delimiter: Delimiter | null;
}

/** How much of the file detection looks at. */
export const SNIFF_BYTES = 64 * 1024;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];
// OLE2 compound file: .xls (Excel 97-2003), a password-protected .xlsx, .hwp
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(head: Uint8Array, magic: readonly number[]): boolean {
  return head.length >= magic.length && magic.every((b, i) => head[i] === b);
}

export function kindFromName(filename?: string, contentType?: string): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase();
  if (ext === 'xlsx' || ext === 'xlsm') return 'xlsx';
  if (ext === 'json' || ext === 'ndjson' || ext === 'jsonl') return 'json';
  if (ext === 'csv' || ext === 'tsv' || ext === 'txt' || ext === 'tab') return 'csv';
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type.includes('spreadsheetml')) return 'xlsx';
  if (type === 'application/json' || type.endsWith('+json') || type.includes('ndjson') || type.includes('jsonl')) return 'json';
  if (type.startsWith('text/')) return 'csv';
  return null;
}

/**
 * UTF-8 unless the first bytes are not valid UTF-8, then CP949 (which includes EUC-KR): Excel's
 * "CSV (쉼표로 분리)" on Korean Windows writes CP949, and the two are told apart reliably because
 * Korean text in CP949 is almost never valid UTF-8. Excel's "유니코드 텍스트" is UTF-16 with a BOM.
 */
export function detectEncoding(head: Uint8Array): TextEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  try {
    // stream: a character cut by the end of the sample is not an error
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'cp949';
  }
}

function looksBinary(head: Uint8Array): boolean {
  let controls = 0;
  for (const b of head) {
    if (b === 0) return true;
    // tab, LF, VT, FF, CR and ESC occur in text; the rest of C0 does not
    if (b < 0x20 && !(b >= 0x09 && b <= 0x0d) && b !== 0x1b) controls++;
  }
  return controls > head.length / 100;
}

/**
 * The delimiter that splits the sampled lines most consistently. Lines are split outside
 * quotes; a title line above the header ("거래처 목록") or an address with commas in a
 * semicolon file does not sway it, because the count seen on the most lines wins.
 */
export function detectDelimiter(text: string, hint?: Delimiter): Delimiter {
  const candidates: Delimiter[] = [',', '\t', ';'];
  const lines: Map<Delimiter, number>[] = [];
  let counts = new Map<Delimiter, number>();
  let inQuotes = false;
  let nonEmpty = false;
  for (let i = 0; i < text.length && lines.length < 20; i++) {
    const ch = text[i]!;
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) {
      if (nonEmpty) lines.push(counts);
      counts = new Map();
      nonEmpty = false;
    } else {
      nonEmpty = true;
      if (!inQuotes && (ch === ',' || ch === '\t' || ch === ';')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
  }
  if (nonEmpty && lines.length < 20) lines.push(counts);

  let best: { d: Delimiter; lines: number; width: number } | null = null;
  for (const d of candidates) {
    const seen = new Map<number, number>();
    for (const line of lines) {
      const n = line.get(d) ?? 0;
      if (n > 0) seen.set(n, (seen.get(n) ?? 0) + 1);
    }
    for (const [width, count] of seen) {
      if (!best || count > best.lines || (count === best.lines && width > best.width)) best = { d, lines: count, width };
    }
  }
  return best?.d ?? hint ?? ',';
}

function firstSignificantChar(text: string): string {
  const m = /^[\s\uFEFF]*(\S)/.exec(text);
  return m?.[1] ?? '';
}

export function detectFile(head: Uint8Array, hints: DetectHints = {}): Detected {
  if (startsWith(head, ZIP) || startsWith(head, ZIP_EMPTY)) return { kind: 'xlsx', encoding: null, delimiter: null };
  if (startsWith(head, OLE2)) {
    throw new FileError(
      'unsupported_format',
      '엑셀 97-2003 형식(.xls)이나 암호가 설정된 엑셀 파일은 읽을 수 없습니다. 암호를 해제하고 "Excel 통합 문서(*.xlsx)" 또는 CSV로 다시 저장해 올려 주세요.',
      { format: 'ole2' },
    );
  }
  if (head.length === 0) throw new FileError('empty', '파일이 비어 있습니다.');

  const encoding = detectEncoding(head);
  if (!encoding.startsWith('utf-16') && looksBinary(head)) {
    throw new FileError('unreadable', '파일 형식을 알 수 없습니다. CSV, XLSX 또는 JSON 파일을 올려 주세요.', { format: 'binary' });
  }
  const text = iconv.decode(Buffer.from(head.buffer, head.byteOffset, head.byteLength), encoding);
  const first = firstSignificantChar(text);
  if (first === '') throw new FileError('empty', '파일에 내용이 없습니다.');

  const declared = hints.kind ?? kindFromName(hints.filename, hints.contentType);
  if (first === '<' && declared !== 'csv') {
    // ERP and banking sites often save HTML tables under a .xls name
    throw new FileError(
      'unsupported_format',
      'HTML/XML 형식의 파일입니다. 엑셀에서 연 뒤 "Excel 통합 문서(*.xlsx)" 또는 CSV로 다시 저장해 올려 주세요.',
      { format: 'markup' },
    );
  }
  const jsonLike = first === '[' || first === '{';
  const kind: FileKind = declared === 'csv' || !jsonLike ? 'csv' : 'json';
  if (kind === 'json') return { kind, encoding, delimiter: null };
  const tabHint = /\.(tsv|tab)$/i.test(hints.filename ?? '') || /tab-separated/i.test(hints.contentType ?? '');
  return { kind, encoding, delimiter: detectDelimiter(text, tabHint ? '\t' : undefined) };
}
