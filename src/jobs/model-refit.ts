// Refits the bounce model from recorded labels: checked every minute, fitted when enough new
// labels arrived (or a day passed with any new ones), by one process at a time (a lease), on a
// worker thread. Requests keep scoring with the previous model until the new one is saved.
import { randomBytes } from 'node:crypto';
import { PRIOR_MODEL } from '../domain/model/prior.ts';
import type { ModelProvider } from '../model/model-provider.ts';
import type { Store } from '../store/store.ts';
import { fitInWorker, runFit, type FitRequest, type FitResult } from './refit-worker.ts';
import { PollingLoop } from './polling-loop.ts';

export interface RefitOptions {
  store: Store;
  provider: ModelProvider;
  /** how often to look at the label count */
  checkEveryMs?: number;
  /** new labels that trigger a refit */
  minNewLabels?: number;
  /** refit anyway after this long if any label arrived */
  maxAgeMs?: number;
  /** most recent labels used by a fit: bounds memory and time */
  maxLabels?: number;
  /** run the fit on this thread (tests); default a worker thread */
  inline?: boolean;
  now?: () => Date;
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type RefitOutcome = { fitted: false; why: string } | { fitted: true; version: string; labels: number };

const LEASE = 'model-refit';
// a fit of 200k labels takes seconds; 10 minutes means a crashed holder blocks refits only briefly
const LEASE_TTL_MS = 10 * 60_000;

export class ModelRefitter {
  readonly #o: Required<Omit<RefitOptions, 'log'>> & Pick<RefitOptions, 'log'>;
  readonly #holder = `refit_${randomBytes(6).toString('hex')}`;
  #running: Promise<RefitOutcome> | undefined;
  readonly #loop: PollingLoop;

  constructor(opts: RefitOptions) {
    this.#o = {
      checkEveryMs: 60_000,
      minNewLabels: 200,
      maxAgeMs: 24 * 3600_000,
      maxLabels: 200_000,
      inline: false,
      now: () => new Date(),
      ...opts,
    };
    // a check, then the next one after checkEveryMs: a fit is never followed by another at once
    this.#loop = new PollingLoop('model refit', async () => (await this.runOnce(), false), {
      pollMs: this.#o.checkEveryMs,
      ...(opts.log ? { log: opts.log } : {}),
    });
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
    await this.#running?.catch(() => undefined);
  }

  /** One check, and a fit when due. Never runs two fits at once in this process. */
  runOnce(force = false): Promise<RefitOutcome> {
    this.#running ??= this.#check(force).finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #check(force: boolean): Promise<RefitOutcome> {
    const { store } = this.#o;
    const now = this.#o.now();
    const latest = await store.models.latest();
    // relabelled rows count as new: they change what the model should learn
    const fresh = await store.labels.count(latest?.createdAt);
    // the threshold holds for the first fit too: with no model yet there is no age to wait out,
    // and a handful of labels from one account must not replace the prior for everyone
    const aged = latest !== null && now.getTime() - Date.parse(latest.createdAt) >= this.#o.maxAgeMs;
    if (!force && (fresh === 0 || (fresh < this.#o.minNewLabels && !aged))) {
      return { fitted: false, why: `${fresh} new labels since the last fit` };
    }
    if (!(await store.leases.take(LEASE, this.#holder, LEASE_TTL_MS, now))) return { fitted: false, why: 'another process is fitting' };
    try {
      const examples = await store.labels.forFit(this.#o.maxLabels);
      const req: FitRequest = { base: PRIOR_MODEL, examples, now: now.toISOString() };
      const result: FitResult = this.#o.inline ? runFit(req) : await fitInWorker(req);
      const model = result.model;
      await store.models.save(model);
      await store.models.saveOffsets(
        result.offsets.map((o) => ({ accountId: o.accountId, modelVersion: model.version, offset: o.offset, weights: o.weights, trainedOn: o.trainedOn, createdAt: model.createdAt })),
      );
      this.#o.provider.adopt(model);
      this.#o.log?.info({ version: model.version, labels: examples.length }, 'bounce model refitted');
      return { fitted: true, version: model.version, labels: examples.length };
    } finally {
      await store.leases.release(LEASE, this.#holder);
    }
  }
}
