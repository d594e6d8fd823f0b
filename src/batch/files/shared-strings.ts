// The shared-string table of a workbook, kept off the JavaScript heap. Excel stores every text
// cell as an index into one table that comes whole before (or after) the sheet, so all of it must
// be kept while the sheet is read: a million-row list with unique names and addresses has two
// million entries, several hundred MB as JavaScript strings. Here the texts are UTF-8 bytes in an
// unlinked temporary file (the page cache keeps them in memory while there is room) and the heap
// holds one offset per string; a cell's text is read back with one pread.
import { readSync, writeSync } from 'node:fs';

const WRITE_BUFFER = 1024 * 1024;

export class SharedStringTable {
  readonly #fd: number;
  #pending = Buffer.allocUnsafe(WRITE_BUFFER);
  #pendingBytes = 0;
  #written = 0;
  /** offsets[i]..offsets[i + 1] are string i's bytes */
  #offsets = new Float64Array(1024);
  #count = 0;
  #scratch = Buffer.allocUnsafe(64 * 1024);

  /** `fd`: an open, unlinked, read-write file the caller closes */
  constructor(fd: number) {
    this.#fd = fd;
  }

  get size(): number {
    return this.#count;
  }

  add(text: string): void {
    if (this.#count + 2 > this.#offsets.length) {
      const grown = new Float64Array(this.#offsets.length * 2);
      grown.set(this.#offsets);
      this.#offsets = grown;
    }
    const bytes = Buffer.byteLength(text, 'utf8');
    if (this.#pendingBytes + bytes > this.#pending.length) this.#flush();
    if (bytes > this.#pending.length) {
      this.#written += writeSync(this.#fd, Buffer.from(text, 'utf8'), 0, bytes, this.#written);
    } else {
      this.#pendingBytes += this.#pending.write(text, this.#pendingBytes, 'utf8');
    }
    this.#offsets[this.#count + 1] = this.#offsets[this.#count]! + bytes;
    this.#count++;
  }

  /** Writes what is still buffered; call once every string is added. */
  finish(): void {
    this.#flush();
  }

  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#count) return undefined;
    const start = this.#offsets[index]!;
    const length = this.#offsets[index + 1]! - start;
    if (length === 0) return '';
    if (length > this.#scratch.length) this.#scratch = Buffer.allocUnsafe(length);
    const read = readSync(this.#fd, this.#scratch, 0, length, start);
    return this.#scratch.toString('utf8', 0, read);
  }

  /** What exceljs's sheet reader indexes (`sharedStrings[i]`), answered from the file. */
  view(): Record<number, string | undefined> {
    return new Proxy({}, { get: (_target, key) => (typeof key === 'string' ? this.get(Number(key)) : undefined) });
  }

  #flush(): void {
    let at = 0;
    while (at < this.#pendingBytes) at += writeSync(this.#fd, this.#pending, at, this.#pendingBytes - at, this.#written + at);
    this.#written += this.#pendingBytes;
    this.#pendingBytes = 0;
  }
}
