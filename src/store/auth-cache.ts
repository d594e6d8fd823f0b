// API-key lookups happen on every request; the answer changes only when a key is revoked or an
// account's plan or limit changes. This wrapper keeps answers for a short TTL and forgets them
// at once when those changes go through it. Changes made by another process (the CLI, another
// server) take effect within the TTL.
import type { Store } from './store.ts';

type Found = Awaited<ReturnType<Store['findByKeyHash']>>;

export interface AuthCacheOptions {
  ttlMs: number;
  /** bounds memory however many distinct keys (valid or not) are tried */
  maxEntries?: number;
  now?: () => number;
}

export function withAuthCache(store: Store, opts: AuthCacheOptions): Store {
  if (opts.ttlMs <= 0) return store;
  const now = opts.now ?? Date.now;
  const max = opts.maxEntries ?? 10_000;
  const entries = new Map<string, { until: number; found: Found }>();
  const forgetting =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const out = await fn(...args);
      entries.clear();
      return out;
    };
  const overrides: Partial<Store> = {
    findByKeyHash: async (hash) => {
      const hit = entries.get(hash);
      if (hit && hit.until > now()) return hit.found;
      const found = await store.findByKeyHash(hash);
      // unknown keys are not remembered: a key issued a moment ago must work at once
      if (found) {
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(hash, { until: now() + opts.ttlMs, found });
      } else entries.delete(hash);
      return found;
    },
    revokeApiKey: forgetting(store.revokeApiKey.bind(store)),
    setPlan: forgetting(store.setPlan.bind(store)),
    setQuotaLimit: forgetting(store.setQuotaLimit.bind(store)),
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof Store];
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      // store methods use private fields, so they must run with the store itself as `this`
      let fn = bound.get(prop);
      if (!fn) bound.set(prop, (fn = value.bind(target)));
      return fn;
    },
  });
}
