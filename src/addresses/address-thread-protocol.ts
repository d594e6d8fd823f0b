// Messages between AddressThreads (address-threads.ts) and its threads (address-thread.ts).
import type { Config } from '../config.ts';
import type { AddressCheck } from './address-service.ts';
import type { ChunkMailing, KeptChunk, ScoringContext } from '../domain/mailing-score.ts';

/** What a thread opens: the local directory in the store, or the sandbox. */
export type AddressThreadSetup = { directory: 'local'; store: Config['store'] } | { directory: 'sandbox' };

export type ToAddressThread =
  /** check these addresses; with `keep`, keep the checks for a `score` of the same chunk and answer only their buildings */
  | { id: number; raws: string[]; keep?: true }
  /** score a chunk's mailings against the checks kept by call `session` (then forgotten) */
  | { id: number; score: { session: number; rows: ChunkMailing[]; ctx: ScoringContext } }
  /** close the directory and end (what is in flight is answered first) */
  | { id: number; stop: true };

export type FromAddressThread =
  | { id: number; checks: [string, AddressCheck | { error: string }][] }
  /** the checks were kept: per address, the matched building's id (null: none) or the directory's error */
  | { id: number; buildings: [string, string | null | { error: string }][] }
  | { id: number; scored: KeptChunk }
  /** the whole call failed (the per-address failures are in `checks`) */
  | { id: number; failed: string };
