// exceljs's streaming writer never says "wait": a committed row goes into the sheet's buffer,
// which hands 64 KB blocks to the zip's deflater without looking at write()'s answer, so with a
// slow client the whole sheet would pile up in memory uncompressed. The backlog is measured where
// it piles up (the sheet buffer and the queue in front of the deflater); these are exceljs internals, pinned by
// the exact exceljs version in package.json, and read defensively: if they are not there, only
// the output's own back-pressure applies.

import type { Writable } from 'node:stream';

// the pipe is archiver's readable-stream PassThrough, which has no writableLength of its own
interface StreamState {
  length?: unknown;
}
interface SheetStream {
  buffers?: { length: unknown }[];
  pipes?: { _writableState?: StreamState; _readableState?: StreamState }[];
}

const size = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** Bytes of sheet XML accepted by exceljs and not yet compressed. */
export function sheetBacklog(sheet: object): number {
  const stream = (sheet as { stream?: SheetStream }).stream;
  if (!stream) return 0;
  let bytes = 0;
  for (const b of stream.buffers ?? []) bytes += size(b.length);
  for (const p of stream.pipes ?? []) {
    // oxlint-disable-next-line no-underscore-dangle -- readable-stream 2 exposes the queue lengths only here
    bytes += size(p._writableState?.length) + size(p._readableState?.length);
  }
  return bytes;
}

const POLL_MS = 2;

/**
 * Waits until `out` has room and the sheet's backlog is under `limit` bytes. The deflater drains
 * only as fast as `out` is read, so waiting on it is waiting on the client.
 */
export async function settle(sheet: object, out: Writable, limit: number, waitDrain: (w: Writable) => Promise<void>): Promise<void> {
  for (;;) {
    if (out.destroyed) throw new Error('output closed before the results were written');
    if (out.writableNeedDrain) {
      await waitDrain(out);
      continue;
    }
    if (sheetBacklog(sheet) <= limit) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
