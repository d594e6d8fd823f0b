// The juso.go.kr address search as an AddressDirectory: one HTTP call per keyword (JusoHttpClient),
// wrapped in the registry's resilience policies and a small keyword cache (JusoDirectory).

import type { AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { dongAgrees } from '../domain/address/match.ts';
import { roadNameDistance } from '../domain/address/road-names.ts';
import { type BreakerState, type ResilienceOptions, type ResilientCall, resilient } from '../registry/resilience.ts';
import { UpstreamError } from '../domain/status.ts';
import { JUSO_DEFAULT_BASE_URL, type JusoPage, jusoKeyword, jusoSearchUrl, parseJusoResponse } from './juso-wire.ts';
import { describeFetchError } from '../registry/fetch-error.ts';

export interface JusoHttpClientOptions {
  confmKey: string;
  /** defaults to https://business.juso.go.kr; a fake server's URL in tests */
  baseUrl?: string;
  fetch?: typeof fetch;
}

export class JusoHttpClient {
  // the key is part of every URL: kept private and never put in an error message
  readonly #confmKey: string;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;

  constructor(opts: JusoHttpClientOptions) {
    this.#confmKey = opts.confmKey;
    this.#baseUrl = opts.baseUrl ?? JUSO_DEFAULT_BASE_URL;
    this.#fetch = opts.fetch ?? fetch;
  }

  async searchOnce(keyword: string, countPerPage: number, signal: AbortSignal): Promise<JusoPage> {
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(jusoSearchUrl(this.#baseUrl, this.#confmKey, keyword, countPerPage), {
        headers: { accept: 'application/json' },
        signal,
      });
      // a server stalling mid-body is as stuck as one that never answers
      text = await response.text();
    } catch (cause) {
      if (signal.aborted) throw new UpstreamError('timeout', 'juso call timed out or was aborted', { retryable: true, cause });
      throw new UpstreamError('network', `juso call failed: ${describeFetchError(cause)}`, { retryable: true, cause });
    }
    return parseJusoResponse(response.status, text);
  }
}


export const JUSO_DEFAULTS = {
  // juso answers a keyword in a few hundred ms; 3 s means it is stuck, and a batch job must move on
  timeoutMs: 3_000,
  // two retries ride out a -999 blip without holding a verification request for long
  maxRetries: 2,
  // the DB behind juso changes once a day, so an hour-old answer is as good as a fresh one
  cacheTtlMs: 60 * 60 * 1000,
  // a page of 20 entries is ~10 KB: 2,000 keywords bound the cache near 20 MB
  cacheMaxKeywords: 2_000,
  // a typical answer holds one building; 20 leaves room for every plausible correction
  pageSize: 20,
} as const;

export interface JusoDirectoryOptions extends JusoHttpClientOptions, ResilienceOptions {
  cacheTtlMs?: number;
  cacheMaxKeywords?: number;
}

interface CacheItem {
  page: JusoPage;
  /** countPerPage asked for: a later, larger limit must ask again unless this page held everything */
  asked: number;
  expiresAt: number;
}

export class JusoDirectory implements AddressDirectory {
  readonly source = 'juso' as const;
  readonly #call: ResilientCall<{ keyword: string; count: number }, JusoPage>;
  readonly #cache = new Map<string, CacheItem>();
  readonly #inflight = new Map<string, Promise<JusoPage>>();
  readonly #ttlMs: number;
  readonly #maxKeywords: number;
  // aborted on close() so shutdown does not wait out timeouts and retries in flight
  readonly #shutdown = new AbortController();

  constructor(opts: JusoDirectoryOptions) {
    const client = new JusoHttpClient(opts);
    this.#call = resilient((a: { keyword: string; count: number }, signal) => client.searchOnce(a.keyword, a.count, signal), {
      ...opts,
      timeoutMs: opts.timeoutMs ?? JUSO_DEFAULTS.timeoutMs,
      maxRetries: opts.maxRetries ?? JUSO_DEFAULTS.maxRetries,
    });
    this.#ttlMs = opts.cacheTtlMs ?? JUSO_DEFAULTS.cacheTtlMs;
    this.#maxKeywords = opts.cacheMaxKeywords ?? JUSO_DEFAULTS.cacheMaxKeywords;
  }

  async find(query: ParsedAddress, limit = 20): Promise<DirectoryEntry[]> {
    const keyword = jusoKeyword(query);
    if (keyword === null || limit <= 0) return [];
    const count = Math.max(limit, JUSO_DEFAULTS.pageSize);
    const page = await this.#page(keyword, count);
    if (page.entries.length > 0 || !query.road) return page.entries.slice(0, limit).map((e) => foundThrough(query, e));
    // juso does not forgive a typo in a road name, but it finds a road by part of its name: the
    // parts around each letter that may be wrong, until one finds buildings on a road a typo
    // away (roadNameDistance, the rule of the other directories); other roads found so are not
    // the one meant
    const written = query.road.name;
    for (const part of typoParts(query)) {
      const k = jusoKeyword({ ...query, road: { ...query.road, name: part } });
      if (k === null) continue;
      const near = (await this.#page(k, count)).entries.filter((e) => roadNameDistance(written, e.roadName) !== null);
      if (near.length > 0) return near.slice(0, limit);
    }
    return [];
  }

  async #page(keyword: string, count: number): Promise<JusoPage> {
    const hit = this.#cache.get(keyword);
    if (hit && hit.expiresAt > Date.now() && (hit.asked >= count || hit.page.entries.length >= hit.page.totalCount)) {
      // re-inserting keeps Map order = recency, so eviction drops the least recently used
      this.#cache.delete(keyword);
      this.#cache.set(keyword, hit);
      return hit.page;
    }
    // concurrent rows of one batch often share an address: one call answers them all
    const key = `${count}\u0000${keyword}`;
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = this.#fetch(keyword, count).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  async #fetch(keyword: string, count: number): Promise<JusoPage> {
    let page: JusoPage;
    try {
      page = await this.#call({ keyword, count }, this.#shutdown.signal);
    } catch (error) {
      throw relabel(error);
    }
    this.#cache.delete(keyword);
    this.#cache.set(keyword, { page, asked: count, expiresAt: Date.now() + this.#ttlMs });
    while (this.#cache.size > this.#maxKeywords) {
      const oldest = this.#cache.keys().next();
      if (oldest.done) break;
      this.#cache.delete(oldest.value);
    }
    return page;
  }

  health(): { upstream: BreakerState } {
    return { upstream: this.#call.breakerState() };
  }

  async close(): Promise<void> {
    this.#shutdown.abort();
    this.#cache.clear();
  }
}

/** resilient() was written for NTS and says so in its own errors (timeout, breaker, queue). */
function relabel(error: unknown): unknown {
  if (!(error instanceof UpstreamError) || !/\bNTS\b/.test(error.message)) return error;
  return new UpstreamError(error.fault, error.message.replace(/\bNTS\b/g, 'juso'), {
    retryable: error.retryable,
    httpStatus: error.httpStatus,
    cause: error,
  });
}

/**
 * How juso found an entry that does not carry the written address: asked with hstryYn=Y, a road
 * address on another road is the one the building had before its road was renamed; a lot other
 * than the building's own is one it also stands on (관련지번). Said as the local directory says it,
 * so the matcher answers the same whichever directory found the building.
 */
export function foundThrough(q: ParsedAddress, e: DirectoryEntry): DirectoryEntry {
  if (q.road) {
    // a road whose name holds the written one was found by that part of its name, not its history
    if (roadNameDistance(q.road.name, e.roadName) !== null || e.roadName.includes(q.road.name)) return e;
    const { name, underground, main, sub } = q.road;
    return { ...e, via: { kind: 'former_road', sigungu: q.sigungu ?? e.sigungu, roadName: name, underground, main, sub } };
  }
  const j = q.jibun;
  if (!j) return e;
  const own = dongAgrees(j.dong, e) && j.mountain === e.jibunMountain && j.main === e.jibunMain && j.sub === e.jibunSub;
  if (own) return e;
  return { ...e, via: { kind: 'related_lot', eupmyeondong: j.dong, ri: '', mountain: j.mountain, main: j.main, sub: j.sub } };
}

/**
 * What juso is asked for when a written road name found nothing: for each letter that may be the
 * mistyped one, the parts of the name around it (each of at least two letters, as searched
 * words), so "태헤란로" asks for 헤란로, "테해란로" for 란로 — substrings of the real name juso
 * matches within the written 시군구 and number. A branch road's number ("12번길") is left out: a
 * searched word with digits must match a whole word.
 */
export function typoParts(q: ParsedAddress): string[] {
  const name = /^[^\d]*/.exec(q.road?.name ?? '')![0];
  if (name.length < 3) return [];
  const out = new Set<string>();
  for (let i = 0; i < name.length; i++) {
    const parts = [name.slice(0, i), name.slice(i + 1)].filter((p) => p.length >= 2);
    if (parts.length > 0) out.add(parts.join(' '));
  }
  return [...out];
}
