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

export async function* csvRecords(body: Readable, opts: CsvOptions): AsyncGenerator<string[]> {
  const parser = parse({
    delimiter: opts.delimiter,
    // a stray quote inside a field ("주식회사 "한빛"") is data, as Excel writes it
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: opts.maxRecordChars,
    bom: true,
  });
  const decoder = iconv.decodeStream(opts.encoding, { stripBOM: true });
  // errors anywhere in the chain surface through `parser`'s iterator
  pipeline(body, decoder, parser, () => {});
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    if (err instanceof CsvError) throw csvError(err, opts.maxRecordChars);
    throw err;
  } finally {
    parser.destroy();
  }
}
