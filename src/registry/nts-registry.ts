// The real registry: NtsHttpClient calls, each wrapped in resilience policies, fed by the
// coalescer so concurrent requests share calls of up to 100 numbers.

import { Coalescer, type CoalescerOptions, type Settled } from './coalescer.ts';
import { NtsHttpClient } from './nts-client.ts';
import { type BreakerState, type ResilienceOptions, type ResilientCall, resilient } from './resilience.ts';
import type { NtsRecord, Registry, UpstreamError } from './types.ts';

export interface NtsRegistryOptions extends ResilienceOptions, CoalescerOptions {
  serviceKey: string;
  baseUrl: string;
  fetch?: typeof fetch;
}

/** A Registry that can also say, per number, why it was not answered, and how upstream is doing. */
export interface SettlingRegistry extends Registry {
  lookupSettled(bnos: readonly string[]): Promise<Map<string, Settled>>;
  health(): { upstream: BreakerState | 'sandbox' };
}

export class NtsRegistry implements SettlingRegistry {
  readonly source = 'nts' as const;
  readonly #call: ResilientCall<string[], Map<string, NtsRecord>>;
  readonly #coalescer: Coalescer;
  // Aborted on close() so shutdown does not wait out timeouts and retries of calls in flight.
  readonly #shutdown = new AbortController();

  constructor(opts: NtsRegistryOptions) {
    const client = new NtsHttpClient({ serviceKey: opts.serviceKey, baseUrl: opts.baseUrl, fetch: opts.fetch });
    this.#call = resilient((bnos: string[], signal) => client.callOnce(bnos, signal), opts);
    this.#coalescer = new Coalescer((bnos) => this.#call(bnos, this.#shutdown.signal), opts);
  }

  lookupSettled(bnos: readonly string[]): Promise<Map<string, Settled>> {
    return this.#coalescer.lookupSettled(bnos);
  }

  /**
   * The plain Registry contract has no room for partial failure, so any failed number rejects
   * the whole lookup: a caller must never mistake "not asked successfully" for "not answered".
   */
  async lookup(bnos: readonly string[]): Promise<Map<string, NtsRecord>> {
    const settled = await this.lookupSettled(bnos);
    const out = new Map<string, NtsRecord>();
    let failure: UpstreamError | undefined;
    for (const [bno, s] of settled) {
      if (!s.ok) failure ??= s.error;
      else if (s.record) out.set(bno, s.record);
    }
    if (failure) throw failure;
    return out;
  }

  health(): { upstream: BreakerState } {
    return { upstream: this.#call.breakerState() };
  }

  async close(): Promise<void> {
    this.#coalescer.close();
    this.#shutdown.abort();
  }
}
