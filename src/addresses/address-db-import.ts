// Imports the official 도로명주소 한글 text files into an AddressStore: the full release
// (rnaddrkor_*.txt, buildings; jibun_rnaddrkor_*.txt, related lots) and the change files published
// daily or monthly (AlterD.JUSUKR.YYYYMMDD.TH_SGCO_RNADR_MST.TXT / _LNBR.TXT, the same layouts).
// Every line carries its 이동사유코드: 폐지 lines delete, every other line inserts or replaces, so
// a full release, a change file and either one applied twice all leave the same directory.
// Files are streamed (read → CP949 decode → lines → batches), never held whole: the full set is
// millions of lines. At most one batch is being written while the next one is parsed, so memory
// stays at about two batches whatever the file size, and a slow database slows the reading.

import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';
import type { DirectoryEntry, FormerRoad, RelatedLot } from '../domain/address/types.ts';
import { roadAddressOf } from '../domain/address/official-form.ts';
import { parseAddress } from '../domain/address/parse.ts';
import { ADDRESS_BATCH_SIZE, type AddressStore, type RelatedLotOf } from '../store/address-store.ts';

/** Columns per line, in this order (no header, '|'-separated). */
export const ADDRESS_DB_COLUMNS = [
  '관리번호', '법정동코드', '시도명', '시군구명', '법정읍면동명', '법정리명', '산여부', '지번본번', '지번부번', '도로명코드',
  '도로명', '지하여부', '건물본번', '건물부번', '행정동코드', '행정동명', '기초구역번호', '이전도로명주소', '효력발생일',
  '공동주택구분', '이동사유코드', '건축물대장건물명', '시군구용건물명', '비고',
] as const;

/** Columns of a related-lot line (jibun_rnaddrkor_*.txt, and the change files' _LNBR). */
export const RELATED_LOT_COLUMNS = [
  '관리번호', '법정동코드', '시도명', '시군구명', '법정읍면동명', '법정리명', '산여부', '지번본번', '지번부번', '도로명코드',
  '지하여부', '건물본번', '건물부번', '이동사유코드',
] as const;

/**
 * 이동사유코드 that mean the building (or the lot's relation to it) is gone: 63 폐지 and 64, as
 * loaders of the published change files read them. 31/33 (신규) and 34/35/36 (변경) replace.
 */
const GONE = new Set(['63', '64']);

export interface ImportResult {
  files: number;
  /** buildings inserted or replaced */
  rows: number;
  /** buildings deleted by a 폐지 line */
  deleted: number;
  /** related lots added or removed */
  related_lots: number;
  /** non-blank lines that were not a well-formed line of their file */
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
  const registerName = col(21);
  const entry: DirectoryEntry = {
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
  // most buildings carry the same name twice; the second copy says nothing
  if (registerName !== '' && registerName !== entry.buildingName) entry.registerName = registerName;
  if (col(19) === '1') entry.apartment = true;
  return entry;
}

/** A building line as the import applies it: the entry, its 이전도로명주소, and whether it is gone. */
export interface BuildingLine {
  entry: DirectoryEntry;
  former: FormerRoad | null;
  gone: boolean;
}

export function readBuildingLine(line: string): BuildingLine | null {
  const entry = parseAddressDbLine(line);
  if (!entry) return null;
  const c = line.split('|');
  return { entry, former: formerRoadOf(entry, (c[17] ?? '').trim()), gone: GONE.has((c[20] ?? '').trim()) };
}

/** The 이전도로명주소 as a road and number, when it names one other than the building's own. */
function formerRoadOf(e: DirectoryEntry, text: string): FormerRoad | null {
  if (text === '') return null;
  const p = parseAddress(text);
  if (!p.road) return null;
  const former: FormerRoad = { kind: 'former_road', sigungu: p.sigungu ?? e.sigungu, roadName: p.road.name, underground: p.road.underground, main: p.road.main, sub: p.road.sub };
  const same = former.roadName === e.roadName && former.main === e.buildingMain && former.sub === e.buildingSub && former.underground === e.underground;
  return same ? null : former;
}

/** A related-lot line (14 columns), or null when it is not one. */
export function readRelatedLotLine(line: string): (RelatedLotOf & { gone: boolean }) | null {
  if (line.includes('\uFFFD')) return null;
  const c = line.split('|').map((x) => x.trim());
  if (c.length === RELATED_LOT_COLUMNS.length + 1 && c.at(-1) === '') c.pop();
  if (c.length !== RELATED_LOT_COLUMNS.length) return null;
  const [buildingId, , sido, sigungu, dong, ri, mountain, main, sub] = c as [string, string, string, string, string, string, string, string, string];
  if (!/^[0-9]+$/.test(buildingId) || !sido || !dong || !FLAG.test(mountain) || !NUMBER.test(main) || !NUMBER.test(sub)) return null;
  const lot: RelatedLot = { kind: 'related_lot', eupmyeondong: dong, ri, mountain: mountain === '1', main: Number(main), sub: Number(sub) };
  return { buildingId, sido, sigungu, lot, gone: GONE.has(c[13]!) };
}


/** What a file holds, by its name as published. */
type FileKind = 'buildings' | 'lots';

const LOTS = /^jibun_rnaddrkor_|TH_SGCO_RNADR_LNBR/i;
const BUILDINGS = /^rnaddrkor_|TH_SGCO_RNADR_MST/i;
/** The day a change file applies to (AlterD.JUSUKR.20260402.…); a full release sorts before every change. */
const dayOf = (name: string): string => /JUSUKR\.(\d{8})\./i.exec(name)?.[1] ?? '';

/**
 * The files of DIR and its subfolders to apply, in order: the full release, then change files
 * day by day, each day's buildings before its lots. Other *.txt files are read as building files
 * only when none is recognisable by name (a folder of renamed files).
 */
async function addressFiles(dir: string): Promise<{ file: string; kind: FileKind }[]> {
  // the folder and those below it: releases and days are published as archives of their own,
  // each extracted to a folder of its own
  const found = await readdir(dir, { withFileTypes: true, recursive: true });
  const txt = found.filter((d) => d.isFile() && /\.txt$/i.test(d.name)).map((d) => ({ name: d.name, file: path.join(d.parentPath, d.name) }));
  const known = txt.filter((f) => LOTS.test(f.name) || BUILDINGS.test(f.name));
  type Found = { name: string; file: string; kind: FileKind };
  const files = (known.length > 0 ? known : txt).map((f): Found => ({ ...f, kind: LOTS.test(f.name) ? 'lots' : 'buildings' }));
  const rank = (f: Found): string => `${dayOf(f.name)}|${f.kind === 'buildings' ? 0 : 1}|${f.name}|${f.file}`;
  return files.toSorted((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0)).map((f) => ({ file: f.file, kind: f.kind }));
}

/** One batch of a file's lines, each key's last line winning (a change file may touch a building twice). */
class Batch {
  readonly buildings = new Map<string, BuildingLine>();
  readonly lots = new Map<string, RelatedLotOf & { gone: boolean }>();
  get size(): number {
    return this.buildings.size + this.lots.size;
  }
}

async function applyBatch(store: AddressStore, b: Batch, counts: ImportResult): Promise<void> {
  const lines = [...b.buildings.values()];
  const gone = lines.filter((l) => l.gone).map((l) => l.entry.buildingId);
  const kept = lines.filter((l) => !l.gone);
  if (gone.length > 0) await store.deleteBuildings(gone);
  if (kept.length > 0) await store.upsertEntries(kept.map((l) => l.entry));
  const formers = kept.flatMap((l) => (l.former ? [{ buildingId: l.entry.buildingId, former: l.former }] : []));
  if (formers.length > 0) await store.addFormerRoads(formers);
  const lots = [...b.lots.values()];
  const lotsGone = lots.filter((l) => l.gone);
  const lotsKept = lots.filter((l) => !l.gone);
  if (lotsGone.length > 0) await store.deleteRelatedLots(lotsGone);
  if (lotsKept.length > 0) await store.addRelatedLots(lotsKept);
  counts.rows += kept.length;
  counts.deleted += gone.length;
  counts.related_lots += lots.length;
}

export async function importAddressDb(dir: string, sink: AddressStore, opts: ImportOptions = {}): Promise<ImportResult> {
  const files = await addressFiles(dir);
  // an empty or mistyped DIR would otherwise "succeed" with zero rows
  if (files.length === 0) throw new Error(`no *.txt address files in ${dir}`);
  const counts: ImportResult = { files: files.length, rows: 0, deleted: 0, related_lots: 0, skipped: 0 };
  // indexes an earlier import left unbuilt (it died midway) are built before anything else
  await sink.rebuildIndexes();
  // a first import loads without the secondary indexes and builds them once at the end
  const deferred = await sink.deferIndexes();
  try {
    await load(files, dir, sink, counts, opts);
  } finally {
    if (deferred) await sink.rebuildIndexes();
  }
  await sink.analyze();
  return counts;
}

async function load(files: { file: string; kind: FileKind }[], dir: string, sink: AddressStore, counts: ImportResult, opts: ImportOptions): Promise<void> {
  let batch = new Batch();
  let writing: Promise<void> = Promise.resolve();
  const failure: { error?: unknown } = {};

  const flush = async (): Promise<void> => {
    await writing;
    if ('error' in failure) throw failure.error;
    if (batch.size === 0) return;
    const b = batch;
    batch = new Batch();
    // not awaited: the next batch is parsed while this one is written
    writing = applyBatch(sink, b, counts)
      .then(() => opts.onProgress?.(counts.rows + counts.deleted + counts.related_lots))
      .catch((error: unknown) => {
        failure.error = error;
      });
  };

  for (const { file, kind } of files) {
    const take = (line: string): void => {
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      // a change file with nothing in it for the day says so in words
      if (text.trim() === '' || text.trim() === 'No Data') return;
      if (kind === 'lots') {
        const lot = readRelatedLotLine(text);
        if (!lot) counts.skipped++;
        else batch.lots.set(`${lot.buildingId}|${lot.lot.eupmyeondong}|${lot.lot.ri}|${lot.lot.mountain}|${lot.lot.main}|${lot.lot.sub}`, lot);
        return;
      }
      const building = readBuildingLine(text);
      if (!building) counts.skipped++;
      else batch.buildings.set(building.entry.buildingId, building);
    };
    try {
      await pipeline(createReadStream(file), iconv.decodeStream('cp949'), async (source: AsyncIterable<string | Buffer>) => {
        let rest = '';
        for await (const chunk of source) {
          const lines = (rest + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))).split('\n');
          rest = lines.pop() ?? '';
          if (rest.length > MAX_LINE_CHARS) {
            counts.skipped++;
            rest = '';
          }
          for (const line of lines) {
            take(line);
            // awaiting here pauses the read stream: back-pressure from the store to the disk
            if (batch.size >= ADDRESS_BATCH_SIZE) await flush();
          }
        }
        take(rest);
      });
    } catch (error) {
      // pipeline reports the AbortError of the streams it tore down, not the store's error that caused it
      if ('error' in failure) throw failure.error;
      throw error;
    }
    // a file is applied before the next one: a later day's line must land after an earlier day's
    await flush();
    await writing;
    if ('error' in failure) throw failure.error;
  }
  // lines but nothing usable among them: another product (주소DB's 주소_*.txt, 지번 files) or a
  // damaged download, which must not pass for an imported directory
  if (counts.rows + counts.deleted + counts.related_lots === 0 && counts.skipped > 0) {
    throw new Error(`none of the ${counts.skipped} lines in ${dir} is a line of the 도로명주소 한글 files (rnaddrkor_*.txt: 24 '|'-separated columns; jibun_rnaddrkor_*.txt: 14); was another product downloaded?`);
  }
}
