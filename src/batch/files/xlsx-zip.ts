// The XLSX container, read as a stream of zip entries with every inflated byte counted. A zip bomb
// is a small upload whose parts inflate to gigabytes; counting what comes out of the inflater, not
// trusting the sizes the zip declares, is what stops one. exceljs reads the same way (unzipper's
// streaming Parse) but without a meter, so the entries are driven from here.

import { createRequire } from 'node:module';
import type { Duplex, Readable } from 'node:stream';
import { Transform, Writable, pipeline as connect } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createWriteStream } from 'node:fs';
import { FileError } from './errors.ts';
import { ElementCounter, type PartKind } from './xlsx-elements.ts';

export interface ZipEntry extends Readable {
  /** the name as stored, which may use backslashes or a leading slash */
  path: string;
}


// unzipper is exceljs's own zip reader; resolving it from exceljs keeps exactly the version
// exceljs was built against, instead of a second copy as our own dependency.
const requireFromExceljs = createRequire(import.meta.resolve('exceljs'));
const unzipper = requireFromExceljs('unzipper') as { Parse(opts: { forceStream: true }): Duplex };

/** A stream of the zip's entries, in the order they are stored. */
export function openZip(body: Readable): Duplex {
  const zip = unzipper.Parse({ forceStream: true });
  // pipeline, not pipe: an upload that fails or is aborted must fail the zip reader too, and
  // closing the zip reader early must release the upload
  connect(body, zip, () => {});
  // unzipper can still report a broken record after it was destroyed; readers get errors from
  // the iterator, and a late one must not become an uncaught 'error' event
  zip.on('error', () => {});
  return zip;
}

export function entryPath(entry: ZipEntry): string {
  return entry.path.replace(/\\/g, '/').replace(/^\/+/, '');
}

/** Inflated bytes left for the whole workbook. */
export class InflateBudget {
  used = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) {
      const mb = Math.round(this.limit / (1024 * 1024));
      throw new FileError(
        'too_large',
        `엑셀 파일의 압축을 풀면 너무 큽니다 (최대 ${mb.toLocaleString('ko-KR')}MB). 빈 행·열의 서식을 지우거나 파일을 나누어 올려 주세요.`,
        { limit: this.limit },
      );
    }
  }
}

/**
 * Excel holds at most 32,767 characters in a cell. XML-escaped (up to 6 bytes a character) that
 * is under 256 KiB between two markup delimiters; a longer run of text or of one tag cannot come
 * from Excel, and the XML parser would hold all of it in memory.
 */
const MAX_XML_RUN_BYTES = 256 * 1024;
const LT = 0x3c;
const GT = 0x3e;

function firstDelimiter(chunk: Buffer, from: number): number {
  const lt = chunk.indexOf(LT, from);
  const gt = chunk.indexOf(GT, from);
  return lt === -1 ? gt : gt === -1 ? lt : Math.min(lt, gt);
}

/** Counts bytes through and bounds text runs; with `decode`, turns UTF-8 into strings without splitting a character. */
export class Meter extends Transform {
  readonly #budget: InflateBudget;
  readonly #decoder: StringDecoder | null;
  readonly #counter: ElementCounter | null;
  /** bytes since the last `<` or `>` (UTF-8 never uses those bytes inside a character) */
  #run = 0;
  /** `part`: decode, and count the part's elements as they pass (see xlsx-elements.ts) */
  constructor(budget: InflateBudget, part: PartKind | null) {
    super({ readableObjectMode: part !== null });
    this.#budget = budget;
    this.#decoder = part ? new StringDecoder('utf8') : null;
    this.#counter = part ? new ElementCounter(part) : null;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: unknown) => void): void {
    try {
      this.#budget.take(chunk.length);
      this.#bound(chunk);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (!this.#decoder) {
      done(null, chunk);
      return;
    }
    done(this.#pushText(this.#decoder.write(chunk)));
  }

  /** Counts the text's elements and passes it on; the error that stops the part, if any. */
  #pushText(text: string | undefined): Error | null {
    if (!text) return null;
    try {
      this.#counter?.feed(text);
    } catch (err) {
      return err as Error;
    }
    this.push(text);
    return null;
  }
  #bound(chunk: Buffer): void {
    const first = firstDelimiter(chunk, 0);
    if (first === -1) {
      this.#run += chunk.length;
    } else if (chunk.length < MAX_XML_RUN_BYTES) {
      // runs wholly inside a chunk are shorter than the chunk, so only its ends can add up
      this.#run += first;
      this.#check();
      this.#run = chunk.length - 1 - Math.max(chunk.lastIndexOf(LT), chunk.lastIndexOf(GT));
    } else {
      for (let at = 0, next = first; ; next = firstDelimiter(chunk, at)) {
        this.#run += (next === -1 ? chunk.length : next) - at;
        this.#check();
        if (next === -1) break;
        this.#run = 0;
        at = next + 1;
      }
    }
    this.#check();
  }

  #check(): void {
    if (this.#run > MAX_XML_RUN_BYTES) {
      throw new FileError('too_large', '엑셀 셀 하나의 내용이 너무 깁니다 (엑셀 셀은 최대 32,767자). 파일을 확인해 주세요.', { limit_bytes: MAX_XML_RUN_BYTES });
    }
  }

  override _flush(done: (err?: Error | null) => void): void {
    done(this.#pushText(this.#decoder?.end()));
  }
}

/**
 * The entry (or a spooled copy of one) as metered text with its elements counted, for exceljs's
 * XML parsers (which would split characters at chunk ends).
 */
export function meteredText(entry: Readable, budget: InflateBudget, part: PartKind): Meter {
  const meter = new Meter(budget, part);
  // errors reach exceljs through `meter`; these listeners only forward them
  entry.on('error', (err) => meter.destroy(err));
  meter.on('error', () => entry.destroy());
  entry.pipe(meter);
  return meter;
}

export async function drain(entry: ZipEntry, budget: InflateBudget): Promise<void> {
  await pipeline(entry, new Meter(budget, null), new Writable({ write: (_c, _e, cb) => cb() }));
}

/** Writes the entry into `file` from its start (an unlinked temporary file: see xlsx-source.ts). */
export async function spool(entry: ZipEntry, budget: InflateBudget, fd: number): Promise<void> {
  await pipeline(entry, new Meter(budget, null), createWriteStream('', { fd, start: 0, autoClose: false }));
}
