// Messages between isolated-rows.ts (the main thread) and parse-worker.ts (the parsing thread).
// Both directions are pulled: the worker asks for bytes ('pull'), the main thread asks for rows
// ('next'), so neither side can queue more than a bounded amount for the other.
import type { FileErrorCode } from './errors.ts';
import type { OpenedRows, ReadOptions } from './read-rows.ts';
import type { FileNotes, FileRow } from './row-builder.ts';

/** What the thread tells once the columns are known: everything of OpenedRows but the rows. */
export type OpenedMeta = Omit<OpenedRows, 'rows' | 'batches' | 'close' | 'notes'>;

// every message carries the number of the file it belongs to: a worker reads many files one
// after another, and a late message about the last one must not reach the next
export type ToParser =
  | { t: 'start'; job: number; opts: Omit<ReadOptions, 'signal'> }
  | { t: 'data'; job: number; chunk: Uint8Array }
  | { t: 'end'; job: number }
  /** one more batch of rows may be sent */
  | { t: 'next'; job: number };

export type FromParser =
  | { t: 'pull' }
  | { t: 'opened'; meta: OpenedMeta }
  /** `headers`: columns added since the last message (wide rows, late JSON keys) */
  | { t: 'rows'; rows: FileRow[]; headers: string[] }
  | { t: 'done'; headers: string[]; notes: FileNotes }
  | { t: 'error'; fileError: { code: FileErrorCode; message: string; details: Record<string, unknown> } }
  | { t: 'error'; message: string; fileError?: undefined };

// a batch of rows handed over at once: enough rows to keep message overhead per row small, few
// enough characters that two batches in flight stay a few MB however wide the rows
export const BATCH_MAX_ROWS = 2000;
export const BATCH_MAX_CHARS = 1024 * 1024;

/** Characters of a row's cells: what its size in memory, in the store and in a download follows. */
export function rowChars(cells: Record<string, string>): number {
  let n = 0;
  for (const k in cells) n += cells[k]!.length;
  return n;
}
