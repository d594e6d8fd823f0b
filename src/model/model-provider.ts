// The model every assessment uses: the newest fitted global model in the store (any process may
// have fitted it), else the built-in prior; plus each account's adjustment. Both are read
// from the store at most once a minute per process, so scoring never waits on a query for them.
import type { AccountAdjustment, ModelParams } from '../domain/model/types.ts';
import { PRIOR_MODEL } from '../domain/model/prior.ts';
import type { Store } from '../store/store.ts';

/** how stale a process's view of the newest model may get: a refit reaches everyone within it */
const REFRESH_MS = 60_000;
const OFFSETS_MAX = 10_000;

export class ModelProvider {
  readonly #store: Store;
  readonly #now: () => number;
  #current: ModelParams = PRIOR_MODEL;
  #loadedAt = -Infinity;
  #loading: Promise<ModelParams> | undefined;
  readonly #offsets = new Map<string, { modelVersion: string | null; adjustment: AccountAdjustment; until: number }>();

  readonly #onError: (err: unknown) => void;

  constructor(store: Store, opts: { now?: () => number; onError?: (err: unknown) => void } = {}) {
    this.#store = store;
    this.#now = opts.now ?? Date.now;
    this.#onError = opts.onError ?? (() => {});
  }

  async current(): Promise<ModelParams> {
    if (this.#now() - this.#loadedAt < REFRESH_MS) return this.#current;
    // one load in flight at a time; once a model is known, callers keep scoring with it meanwhile
    this.#loading ??= this.#load();
    return this.#loadedAt === -Infinity ? this.#loading : this.#current;
  }

  async #load(): Promise<ModelParams> {
    try {
      this.#current = (await this.#store.models.latest()) ?? PRIOR_MODEL;
    } catch (err) {
      // keep scoring with the model we have; the next refresh tries again
      this.#onError(err);
    } finally {
      this.#loadedAt = this.#now();
      this.#loading = undefined;
    }
    return this.#current;
  }

  /** The account's adjustment of `model`, null when it has none or it was fitted on another version. */
  async accountAdjustment(accountId: string, model: ModelParams): Promise<AccountAdjustment | null> {
    const now = this.#now();
    let hit = this.#offsets.get(accountId);
    if (!hit || hit.until <= now) {
      const o = await this.#store.models.offset(accountId);
      if (this.#offsets.size >= OFFSETS_MAX) this.#offsets.clear();
      hit = { modelVersion: o?.modelVersion ?? null, adjustment: { offset: o?.offset ?? 0, weights: o?.weights ?? {} }, until: now + REFRESH_MS };
      this.#offsets.set(accountId, hit);
    }
    return hit.modelVersion === model.version ? hit.adjustment : null;
  }

  /** After a refit in this process: use it at once instead of waiting for the next refresh. */
  adopt(model: ModelParams): void {
    this.#current = model;
    this.#loadedAt = this.#now();
    this.#offsets.clear();
  }
}
