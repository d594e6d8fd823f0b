// How much batch work is waiting, for /metrics: both engines count chunks by state the same way.
import type { Row } from './rows.ts';

export interface WorkQueue {
  /** chunks no worker holds yet */
  pendingChunks: number;
  /** chunks a worker holds (or held, if its lease ran out and nobody reclaimed them yet) */
  leasedChunks: number;
}

export function toWorkQueue(rows: readonly Row[]): WorkQueue {
  const n = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  return { pendingChunks: n('pending'), leasedChunks: n('leased') };
}
