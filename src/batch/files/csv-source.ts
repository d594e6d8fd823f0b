// CSV/TSV text → records, streamed: bytes are decoded by iconv-lite (CP949 is never valid input
// to a UTF-8 decoder) and split by csv-parse, so memory is one record plus stream buffers.

import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import iconv from 'iconv-lite';
import type { Delimiter, TextEncoding } from './detect.ts';
import { FileError } from './errors.ts';

export interface CsvOptions {
  encoding: TextEncoding;
  delimiter: Delimiter;
  /** characters one record may hold before parsing stops (an unclosed quote swallows the file) */
  maxRecordChars: number;
}

function csvError(err: CsvError, maxRecordChars: number): FileError {
  const line = typeof err.lines === 'number' ? err.lines : undefined;
  const where = line ? ` (${line}번째 줄 부근)` : '';
  if (err.code === 'CSV_MAX_RECORD_SIZE') {
    return new FileError(
      'too_large',
      `한 행이 너무 깁니다${where}. 닫히지 않은 큰따옴표(")가 있는지 확인해 주세요. (한 행 최대 ${maxRecordChars.toLocaleString('ko-KR')}자)`,
      { line, limit: maxRecordChars },
      err,
    );
  }
  return new FileError('unreadable', `CSV 파일을 읽을 수 없습니다${where}: ${err.message}`, { line, csvCode: err.code }, err);
}

/**
 * Records in batches: whatever the parser has ready is taken in one go. One await per record
 * (an async iterator over the parser) cost more than parsing did on a million-row file.
 */
export async function* csvRecords(body: Readable, opts: CsvOptions): AsyncGenerator<string[][]> {
  const parser = parse({
    delimiter: opts.delimiter,
    // a stray quote inside a field ("주식회사 "한빛"") is data, as Excel writes it
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: opts.maxRecordChars,
    bom: true,
  });
  // csv-parse splits bytes and decodes each field from them: UTF-8 goes to it as read, and only
  // other encodings are decoded first (a string fed to it is encoded back to bytes, which cost a
  // decode, an encode and the garbage of both for nothing)
  const decoder = opts.encoding === 'utf-8' ? null : iconv.decodeStream(opts.encoding, { stripBOM: true });
  let failure: unknown = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  parser.on('readable', signal);
  parser.on('end', () => {
    ended = true;
    signal();
  });
  // errors anywhere in the chain surface through `parser`
  const done = (err: Error | null) => {
    if (err) failure ??= err;
    signal();
  };
  if (decoder) pipeline(body, decoder, parser, done);
  else pipeline(body, parser, done);
  parser.on('error', (err) => {
    failure ??= err;
    signal();
  });
  try {
    for (;;) {
      const batch: string[][] = [];
      for (let r = parser.read() as string[] | null; r !== null; r = parser.read() as string[] | null) batch.push(r);
      if (batch.length > 0) yield batch;
      else if (failure) throw failure;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (err) {
    if (err instanceof CsvError) throw csvError(err, opts.maxRecordChars);
    throw err;
  } finally {
    parser.destroy();
  }
}
