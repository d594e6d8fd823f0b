// API-key lookups happen on every request; the answer changes only when a key is revoked or an
// account's plan or limit changes. These decorators keep answers for a short TTL and forget them
// at once when those changes go through them. Changes made by another process (the CLI, another
// server) take effect within the TTL.
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import type { PlanName } from '../domain/plans.ts';
import type { AccountStore } from '../store/account-store.ts';
import type { KeyStore } from '../store/key-store.ts';
import { withStores, type Store } from '../store/store.ts';

type Found = { account: Account; key: ApiKeyRecord } | null;

export interface AuthCacheOptions {
  ttlMs: number;
  /** bounds memory however many distinct keys (valid or not) are tried */
  maxEntries?: number;
  now?: () => number;
}

class AuthAnswers {
  readonly #entries = new Map<string, { until: number; found: Found }>();
  readonly #o: Required<AuthCacheOptions>;
  constructor(o: Required<AuthCacheOptions>) {
    this.#o = o;
  }

  async get(hash: string, load: () => Promise<Found>): Promise<Found> {
    const hit = this.#entries.get(hash);
    if (hit && hit.until > this.#o.now()) return hit.found;
    const found = await load();
    // unknown keys are not remembered: a key issued a moment ago must work at once
    if (found) {
      if (this.#entries.size >= this.#o.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(hash, { until: this.#o.now() + this.#o.ttlMs, found });
    } else this.#entries.delete(hash);
    return found;
  }

  /** After `change`, every answer is forgotten (which account a key served is not worth tracking). */
  async forgetAfter<T>(change: Promise<T>): Promise<T> {
    const out = await change;
    this.#entries.clear();
    return out;
  }
}

class CachedKeys implements KeyStore {
  readonly #inner: KeyStore;
  readonly #answers: AuthAnswers;
  constructor(inner: KeyStore, answers: AuthAnswers) {
    this.#inner = inner;
    this.#answers = answers;
  }

  findByHash(hash: string): Promise<Found> {
    return this.#answers.get(hash, () => this.#inner.findByHash(hash));
  }
  revoke(accountId: string, prefix: string, at: string): Promise<ApiKeyRecord | null> {
    return this.#answers.forgetAfter(this.#inner.revoke(accountId, prefix, at));
  }
  insert(key: ApiKeyRecord & { hash: string }): Promise<void> {
    return this.#inner.insert(key);
  }
  insertWithin(key: ApiKeyRecord & { hash: string }, limit: number): Promise<boolean> {
    return this.#inner.insertWithin(key, limit);
  }
  touch(keyId: string, at: string, minIntervalMs: number): Promise<void> {
    return this.#inner.touch(keyId, at, minIntervalMs);
  }
  list(accountId: string): Promise<ApiKeyRecord[]> {
    return this.#inner.list(accountId);
  }
  ownerOf(prefix: string): Promise<string | null> {
    return this.#inner.ownerOf(prefix);
  }
}

class ForgetfulAccounts implements AccountStore {
  readonly #inner: AccountStore;
  readonly #answers: AuthAnswers;
  constructor(inner: AccountStore, answers: AuthAnswers) {
    this.#inner = inner;
    this.#answers = answers;
  }

  setPlan(accountId: string, plan: PlanName): Promise<Account | null> {
    return this.#answers.forgetAfter(this.#inner.setPlan(accountId, plan));
  }
  setBatchRetention(accountId: string, days: number | null): Promise<Account | null> {
    return this.#answers.forgetAfter(this.#inner.setBatchRetention(accountId, days));
  }

  setQuotaLimit(accountId: string, limit: number | null): Promise<Account | null> {
    return this.#answers.forgetAfter(this.#inner.setQuotaLimit(accountId, limit));
  }
  create(account: Account): Promise<void> {
    return this.#inner.create(account);
  }
  get(accountId: string): Promise<Account | null> {
    return this.#inner.get(accountId);
  }
  count(): Promise<number> {
    return this.#inner.count();
  }
  list(opts: { email?: string; limit: number }): Promise<Account[]> {
    return this.#inner.list(opts);
  }
  findByEmail(email: string): Promise<Account | null> {
    return this.#inner.findByEmail(email);
  }
}

export function withAuthCache(store: Store, opts: AuthCacheOptions): Store {
  if (opts.ttlMs <= 0) return store;
  const answers = new AuthAnswers({ ttlMs: opts.ttlMs, maxEntries: opts.maxEntries ?? 10_000, now: opts.now ?? Date.now });
  return withStores(store, {
    keys: new CachedKeys(store.keys, answers),
    accounts: new ForgetfulAccounts(store.accounts, answers),
    // a closed account's keys must stop at once, as a revoked key does
    accountData: { rows: (accountId) => store.accountData.rows(accountId), delete: (accountId) => answers.forgetAfter(store.accountData.delete(accountId)) },
  });
}
