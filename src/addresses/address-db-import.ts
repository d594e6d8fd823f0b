// Imports the official 도로명주소 DB text files (주소DB, 도로명주소 한글 전체분) into an AddressStore.
// Files are streamed (read → CP949 decode → lines → batches), never held whole: the full set is
// millions of lines. At most one batch is being written while the next one is parsed, so memory
// stays at about two batches whatever the file size, and a slow database slows the reading.

import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { ADDRESS_BATCH_SIZE, type AddressStore } from '../store/address-store.ts';

/** Columns per line, in this order (no header, '|'-separated). */
export const ADDRESS_DB_COLUMNS = [
  '관리번호', '법정동코드', '시도명', '시군구명', '법정읍면동명', '법정리명', '산여부', '지번본번', '지번부번', '도로명코드',
  '도로명', '지하여부', '건물본번', '건물부번', '행정동코드', '행정동명', '기초구역번호', '이전도로명주소', '효력발생일',
  '공동주택구분', '이동사유코드', '건축물대장건물명', '시군구용건물명', '비고',
] as const;

export interface ImportResult {
  files: number;
  /** entries handed to the store */
  rows: number;
  /** non-blank lines that were not a well-formed address */
  skipped: number;
}

export interface ImportOptions {
  /** called after each batch is stored, with the running total of rows */
  onProgress?(rows: number): void;
}

// 본번/부번 are at most 4–5 digits; anything longer is a broken line, not a building
const NUMBER = /^[0-9]{1,6}$/;
const FLAG = /^[01]$/;
// a real line is ~200 characters; a file without line breaks (an archive, say) must not pile up in memory
const MAX_LINE_CHARS = 10_000;

/** One line as a DirectoryEntry, or null when it is not a well-formed address line. */
export function parseAddressDbLine(line: string): DirectoryEntry | null {
  // undecodable bytes: a damaged line, or a file that is not CP949 (UTF-8 read as CP949 always
  // yields some), whose names would otherwise be stored as mojibake
  if (line.includes('\uFFFD')) return null;
  const c = line.split('|');
  // some releases end every line with one more '|' (an empty 25th field)
  if (c.length === ADDRESS_DB_COLUMNS.length + 1 && c.at(-1)!.trim() === '') c.pop();
  if (c.length !== ADDRESS_DB_COLUMNS.length) return null;
  const col = (i: number): string => (c[i] ?? '').trim();
  const [buildingId, sido, sigungu, dong, ri, mountain] = [col(0), col(2), col(3), col(4), col(5), col(6)];
  const [jibunMain, jibunSub, roadName, underground, main, sub, zipcode] = [col(7), col(8), col(10), col(11), col(12), col(13), col(16)];
  if (!/^[0-9]+$/.test(buildingId) || !sido || !dong || !roadName || !/^[0-9]{5}$/.test(zipcode)) return null;
  if (!FLAG.test(mountain) || !FLAG.test(underground)) return null;
  if (![jibunMain, jibunSub, main, sub].every((n) => NUMBER.test(n))) return null;
  const buildingMain = Number(main);
  const buildingSub = Number(sub);
  return {
    buildingId,
    zipcode,
    sido,
    sigungu,
    eupmyeondong: dong,
    ri,
    roadName,
    underground: underground === '1',
    buildingMain,
    buildingSub,
    jibunMountain: mountain === '1',
    jibunMain: Number(jibunMain),
    jibunSub: Number(jibunSub),
    buildingName: col(22),
    roadAddress: roadAddressOf({ sido, sigungu, eupmyeondong: dong, roadName, underground: underground === '1', buildingMain, buildingSub }),
  };
}


/** The *.txt files of DIR, in name order so progress is reproducible. */
async function addressFiles(dir: string): Promise<string[]> {
  const found = await readdir(dir, { withFileTypes: true });
  const txt = found.filter((d) => d.isFile() && /\.txt$/i.test(d.name)).map((d) => d.name);
  // the official download also holds other lists (jibun_rnaddrkor_*: related lots) in other
  // layouts; when the building files are recognisable by name, read only those
  const buildings = txt.filter((n) => /^rnaddrkor_/i.test(n));
  return (buildings.length > 0 ? buildings : txt).map((n) => path.join(dir, n)).toSorted();
}

export async function importAddressDb(dir: string, sink: AddressStore, opts: ImportOptions = {}): Promise<ImportResult> {
  const files = await addressFiles(dir);
  // an empty or mistyped DIR would otherwise "succeed" with zero rows
  if (files.length === 0) throw new Error(`no *.txt address files in ${dir}`);
  let rows = 0;
  let skipped = 0;
  let batch: DirectoryEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  const failure: { error?: unknown } = {};

  const flush = async (): Promise<void> => {
    await writing;
    if ('error' in failure) throw failure.error;
    if (batch.length === 0) return;
    const b = batch;
    batch = [];
    // not awaited: the next batch is parsed while this one is written
    writing = sink
      .upsertEntries(b)
      .then(() => {
        rows += b.length;
        opts.onProgress?.(rows);
      })
      .catch((error: unknown) => {
        failure.error = error;
      });
  };

  const take = (line: string): void => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    const entry = parseAddressDbLine(text);
    if (entry) batch.push(entry);
    else skipped++;
  };

  for (const file of files) {
    try {
      await pipeline(createReadStream(file), iconv.decodeStream('cp949'), async (source: AsyncIterable<string | Buffer>) => {
        let rest = '';
        for await (const chunk of source) {
          const lines = (rest + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))).split('\n');
          rest = lines.pop() ?? '';
          if (rest.length > MAX_LINE_CHARS) {
            skipped++;
            rest = '';
          }
          for (const line of lines) {
            take(line);
            // awaiting here pauses the read stream: back-pressure from the store to the disk
            if (batch.length >= ADDRESS_BATCH_SIZE) await flush();
          }
        }
        take(rest);
      });
    } catch (error) {
      // pipeline reports the AbortError of the streams it tore down, not the store's error that caused it
      if ('error' in failure) throw failure.error;
      throw error;
    }
  }
  await flush();
  await writing;
  if ('error' in failure) throw failure.error;
  // lines but no building among them: another product (주소DB's 주소_*.txt, 지번 files) or a
  // damaged download, which must not pass for an imported directory
  if (rows === 0 && skipped > 0) {
    throw new Error(`none of the ${skipped} lines in ${dir} is a building line of the 도로명주소 한글 files (24 '|'-separated columns, rnaddrkor_*.txt); was another product downloaded?`);
  }
  await sink.analyze();
  return { files: files.length, rows, skipped };
}
