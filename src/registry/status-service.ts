// The one way the rest of the service learns a business status: shared cache first, the
// registry for what is missing or expired, stale cache as the fallback when the registry fails.

import type { Settled } from './coalescer.ts';
import { NtsRegistry, type NtsRegistryOptions, type SettlingRegistry } from './nts-registry.ts';
import { SandboxRegistry } from './sandbox.ts';
import {
  type CachedStatus, type LookupOptions, type Registry, type StatusAnswer, type StatusCache,
  type StatusLookupResult, type StatusService, UpstreamError,
} from '../domain/status.ts';

export interface StatusServiceDeps {
  registry: Registry;
  cache: StatusCache;
  ttlSeconds: number;
  now?: () => Date;
  /** A failed cache write loses nothing but a later re-fetch, so it is reported, not thrown. */
  onCacheWriteError?: (error: unknown) => void;
}

export interface CreateRegistryOptions extends Omit<NtsRegistryOptions, 'serviceKey'> {
  /** no key (or an empty one) = the sandbox registry */
  serviceKey?: string;
}

/** The sandbox without a service key; otherwise NTS over HTTP with resilience and coalescing. */
export function createRegistry(opts: CreateRegistryOptions): Registry {
  if (!opts.serviceKey) return new SandboxRegistry();
  return new NtsRegistry({ ...opts, serviceKey: opts.serviceKey });
}

function hasSettled(registry: Registry): registry is SettlingRegistry {
  return typeof (registry as Partial<SettlingRegistry>).lookupSettled === 'function';
}

/** A registry without per-number failures (the sandbox) settles all-or-nothing. */
async function lookupSettled(registry: Registry, bnos: readonly string[], now: () => Date): Promise<Map<string, Settled>> {
  if (hasSettled(registry)) return registry.lookupSettled(bnos, now);
  const out = new Map<string, Settled>();
  try {
    const records = await registry.lookup(bnos);
    for (const bno of bnos) out.set(bno, { ok: true, record: records.get(bno) });
  } catch (cause) {
    const error = cause instanceof UpstreamError
      ? cause
      : new UpstreamError('network', `registry failed: ${String(cause)}`, { retryable: true, cause });
    for (const bno of bnos) out.set(bno, { ok: false, error });
  }
  return out;
}

export function createStatusService(deps: StatusServiceDeps): StatusService {
  const { registry, cache, ttlSeconds } = deps;
  const now = deps.now ?? (() => new Date());
  const onCacheWriteError = deps.onCacheWriteError ?? ((e: unknown) => console.error('status cache write failed:', e));
  const hot = new HotCache();
  const recent = new RecentAnswers();

  async function lookup(bnos: readonly string[], opts: LookupOptions = {}): Promise<StatusLookupResult> {
    const unique = [...new Set(bnos)];
    const answers = new Map<string, StatusAnswer>();
    const unanswered = new Map<string, UpstreamError>();
    if (unique.length === 0) return { answers, unanswered };

    const startMs = now().getTime();
    // an answer checked longer ago than the caller accepts counts as expired (watch re-checks)
    const youngEnough = (c: CachedStatus) => opts.maxAgeMs === undefined || Date.parse(c.checkedAt) >= startMs - opts.maxAgeMs;
    const cached = new Map<string, CachedStatus>();
    const toRead: string[] = [];
    for (const bno of unique) {
      const h = hot.get(bno, startMs);
      if (h && youngEnough(h)) answers.set(bno, fromCache(h, false));
      else toRead.push(bno);
    }
    if (toRead.length === 0) return { answers, unanswered };
    // Bulk lookups (batch chunks, watch rounds) ask for numbers that are rarely asked again soon;
    // keeping them would only flush the numbers single lookups keep asking for, and cost a
    // million-row batch a Map insert per number and a clear every HOT_MAX of them. A bulk job's
    // small lookups (a chunk's unregistered numbers' neighbours, ~45 a chunk) are no different:
    // kept, they would fill the hot cache to HOT_MAX over a million-row named list.
    const keepHot = !opts.bulk && unique.length <= HOT_FILL_MAX;
    for (const [bno, c] of await cache.getCachedStatuses(toRead)) {
      // Synthetic sandbox statuses must never pass for NTS answers (or the reverse) after the
      // service key is added or removed; a mismatched entry is as good as absent.
      if (c.source === registry.source) cached.set(bno, c);
    }

    const misses: string[] = [];
    for (const bno of toRead) {
      const c = cached.get(bno);
      const fresh = c !== undefined && Date.parse(c.expiresAt) > startMs && youngEnough(c);
      if (c && fresh && keepHot) hot.set(c, startMs);
      if (c && (fresh || opts.offline)) answers.set(bno, fromCache(c, !fresh));
      else if (opts.offline) unanswered.set(bno, offlineMiss());
      else misses.push(bno);
    }
    // Another lookup may have had these answers from NTS a moment ago, its write to the store
    // still under way or committed after our read: they are used rather than asked for again.
    const asking: string[] = [];
    for (const bno of misses) {
      const r = recent.get(bno, startMs);
      if (r && Date.parse(r.expiresAt) > startMs && youngEnough(r)) answers.set(bno, fromCache(r, false));
      else asking.push(bno);
    }
    if (asking.length === 0) return { answers, unanswered };

    const settled = await lookupSettled(registry, asking, now);
    const returned = now();
    // A number is checked when its call returned, not when this lookup's last call did: another
    // lookup sharing that call (a chunk's neighbour) then records the very same answer.
    const stamps = new Map<number, { checkedAt: string; expiresAt: string }>();
    const stampOf = (at: Date) => {
      let stamp = stamps.get(at.getTime());
      if (!stamp) stamps.set(at.getTime(), (stamp = { checkedAt: at.toISOString(), expiresAt: new Date(at.getTime() + ttlSeconds * 1000).toISOString() }));
      return stamp;
    };
    const toStore: CachedStatus[] = [];
    for (const bno of asking) {
      const s = settled.get(bno);
      if (s?.ok && s.record) {
        const record = s.record;
        const { checkedAt, expiresAt } = stampOf(s.at ?? returned);
        toStore.push({ record, source: registry.source, checkedAt, expiresAt });
        if (keepHot) hot.set(toStore.at(-1)!, returned.getTime());
        recent.add(toStore.at(-1)!, returned.getTime());
        answers.set(bno, { record, source: registry.source, checkedAt, fromCache: false, stale: false });
        continue;
      }
      const stale = cached.get(bno);
      if (stale) answers.set(bno, fromCache(stale, true));
      else unanswered.set(bno, s && !s.ok ? s.error : notAnswered());
    }
    if (toStore.length > 0) {
      try {
        await cache.putCachedStatuses(toStore);
      } catch (error) {
        onCacheWriteError(error);
      }
    }
    return { answers, unanswered };
  }

  return {
    lookup,
    source: registry.source,
    health: () => (hasSettled(registry) ? registry.health() : { upstream: registry.source === 'sandbox' ? 'sandbox' : 'closed' }),
    close: () => registry.close(),
  };
}

function fromCache(c: CachedStatus, stale: boolean): StatusAnswer {
  return { record: c.record, source: c.source, checkedAt: c.checkedAt, fromCache: true, stale };
}

/** types.ts has no 'offline' fault; circuit_open is the nearest: we chose not to call upstream. */
function offlineMiss(): UpstreamError {
  return new UpstreamError('circuit_open', 'offline mode: no stored status for this number', { retryable: true });
}

/** NTS answers every number it is asked about (unregistered ones too), so silence is a fault. */
function notAnswered(): UpstreamError {
  return new UpstreamError('malformed', 'NTS answer did not include this number', { retryable: true });
}

/**
 * Fresh answers kept in process memory, in front of the shared cache: a cached lookup then costs
 * no database read. An entry lives until its own expiry or HOT_TTL_MS, whichever is first, so a
 * refresh written by another process is seen within a minute; HOT_MAX bounds the memory (~50 MB).
 */
const HOT_TTL_MS = 60_000;
const HOT_MAX = 50_000;
/** lookups of more numbers than this (one NTS call's worth) do not fill the hot cache */
const HOT_FILL_MAX = 100;

class HotCache {
  readonly #entries = new Map<string, { c: CachedStatus; until: number }>();

  get(bno: string, nowMs: number): CachedStatus | undefined {
    const e = this.#entries.get(bno);
    if (!e) return undefined;
    if (e.until > nowMs) return e.c;
    this.#entries.delete(bno);
    return undefined;
  }

  set(c: CachedStatus, nowMs: number): void {
    const until = Math.min(Date.parse(c.expiresAt), nowMs + HOT_TTL_MS);
    if (until <= nowMs) return;
    // Full: start over rather than evict one by one. Deleting a Map's first key again and again
    // makes finding the next first key slower each time (V8 skips the deleted slots), which a
    // million-number batch turned into most of its CPU time; everything is still in the store.
    if (this.#entries.size >= HOT_MAX && !this.#entries.has(c.record.b_no)) this.#entries.clear();
    this.#entries.set(c.record.b_no, { c, until });
  }
}

/**
 * Answers just had from NTS, for as long as writing them to the store may take (milliseconds;
 * kept a little longer): two generations of at most RECENT_MS and RECENT_MAX entries each, swapped
 * rather than expired entry by entry. At NTS's fastest (10 calls of 100 numbers every 100 ms)
 * that is at most ~40,000 answers, most of them still held by the chunks that asked for them.
 */
const RECENT_MS = 2_000;
const RECENT_MAX = 20_000;

class RecentAnswers {
  #current = new Map<string, CachedStatus>();
  #previous = new Map<string, CachedStatus>();
  #since = -Infinity;

  get(bno: string, nowMs: number): CachedStatus | undefined {
    this.#age(nowMs);
    return this.#current.get(bno) ?? this.#previous.get(bno);
  }

  add(c: CachedStatus, nowMs: number): void {
    this.#age(nowMs);
    this.#current.set(c.record.b_no, c);
  }

  #age(nowMs: number): void {
    const elapsed = nowMs - this.#since;
    if (elapsed < RECENT_MS && this.#current.size < RECENT_MAX) return;
    this.#previous = elapsed < 2 * RECENT_MS ? this.#current : new Map();
    this.#current = new Map();
    this.#since = nowMs;
  }
}
