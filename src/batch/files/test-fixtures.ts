// Files for the tests, made the way the tests need them: as uploads arriving in small chunks (so
// every parser meets a character cut in half), and as hand-built zips for XLSX files no
// spreadsheet program would write (bombs, a million empty rows).

import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';
import { FileError } from './errors.ts';
import type { FileRow } from './row-builder.ts';

/** The FileError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function fileError(p: Promise<unknown>): Promise<FileError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof FileError) return err;
    throw err;
  }
  assert.fail('expected a FileError');
}

/** An upload of `buf` delivered in chunks of `size` bytes. */
export function upload(buf: Buffer | string, size = 7): Readable {
  const bytes = typeof buf === 'string' ? Buffer.from(buf, 'utf8') : buf;
  function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  return Readable.from(chunks(), { objectMode: false });
}

export async function collect(rows: AsyncIterable<FileRow>): Promise<FileRow[]> {
  const out: FileRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

export interface ZipPart {
  name: string;
  /** the part's content, produced lazily so a bomb is never held inflated */
  content: () => Iterable<Buffer | string>;
}

/** A zip with deflated parts and sizes in the local headers (no data descriptors). */
export async function buildZip(parts: ZipPart[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const deflate = createDeflateRaw({ level: 9 });
    const compressed: Buffer[] = [];
    deflate.on('data', (c: Buffer) => compressed.push(c));
    const ended = new Promise<void>((resolve, reject) => {
      deflate.on('end', resolve);
      deflate.on('error', reject);
    });
    let crc = 0;
    let size = 0;
    for (const chunk of part.content()) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      crc = crc32(b, crc);
      size += b.length;
      if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
    }
    deflate.end();
    await ended;
    const data = Buffer.concat(compressed);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(crc >>> 0, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(size >>> 0, 22);
    header.writeUInt16LE(name.length, 26);
    locals.push(header, name, data);

    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(size >>> 0, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += header.length + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

/** A one-sheet XLSX whose sheet data is `rows()` (XML of <row> elements, inline strings). */
export function xlsxWithRows(rows: () => Iterable<string>, extra: ZipPart[] = []): Promise<Buffer> {
  return buildZip([
    { name: 'xl/workbook.xml', content: () => [WORKBOOK] },
    { name: 'xl/_rels/workbook.xml.rels', content: () => [RELS] },
    ...extra,
    {
      name: 'xl/worksheets/sheet1.xml',
      content: function* () {
        yield SHEET_HEAD;
        yield* rows();
        yield SHEET_TAIL;
      },
    },
  ]);
}

export function inlineRow(r: number, values: string[]): string {
  const cells = values.map((v, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${v}</t></is></c>`).join('');
  return `<row r="${r}">${cells}</row>`;
}
