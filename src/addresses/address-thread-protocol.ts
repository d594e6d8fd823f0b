// Messages between AddressThreads (address-threads.ts) and its threads (address-thread.ts).
import type { Config } from '../config.ts';
import type { AddressCheck } from './address-service.ts';

/** What a thread opens: the local directory in the store, or the sandbox. */
export type AddressThreadSetup = { directory: 'local'; store: Config['store'] } | { directory: 'sandbox' };

export interface ToAddressThread {
  id: number;
  raws: string[];
}

export type FromAddressThread =
  | { id: number; checks: [string, AddressCheck | { error: string }][] }
  /** the whole call failed (the per-address failures are in `checks`) */
  | { id: number; failed: string };
