// The bounce-risk assessment of a mailing (or of a batch chunk's mailings at once): the address
// checked against the directory, the account's own recorded outcomes, what the name says, and the
// current model. The scoring itself is mailing-score.ts (pure); this module gathers its inputs.
import type { AddressCheck, AddressService } from '../addresses/address-service.ts';
import type { KeptChecks } from '../addresses/address-threads.ts';
import type { Locale } from '../domain/locale.ts';
import type { Verification } from '../domain/verification.ts';
import type { ModelProvider } from '../model/model-provider.ts';
import type { Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';
import {
  addressKeyOf, type AssessedMailing, deliveryPointOf, type ChunkMailing, JudgementMemo, type KeptChunk, keptChunk, scoreMailings, type ScoredVerification, type ScoringContext,
} from '../domain/mailing-score.ts';

export type { AssessedMailing } from '../domain/mailing-score.ts';

/** Checks addresses; an address thread (AddressThreads) can also keep a chunk's checks and score its rows. */
export type AddressChecker = Pick<AddressService, 'checkMany'> & { keepChecks?(raws: readonly string[]): KeptChecks | null };

/** One mailing to assess: its verification, and the name and address the customer wrote. */
export interface Mailing {
  /** a whole result, or what the assessment reads of one */
  v: ScoredVerification;
  name: string;
  address?: string | null | undefined;
  /** an unregistered number's operating neighbour (live-neighbours.ts), when looked up */
  liveNeighbour?: string | null | undefined;
}

export interface AssessServiceDeps {
  addresses: AddressChecker;
  models: ModelProvider;
  store: { labels: Pick<Store['labels'], 'countsMany'> };
  log?: { warn(obj: object, msg: string): void };
}

/**
 * Address checks begun before the assessment (AssessService.checkAddresses): in-process, by the
 * address as written (trimmed), or kept in an address thread, which then scores the rows too.
 */
export type PendingChecks = { here: Promise<ReadonlyMap<string, AddressCheck | Error>> } | { thread: KeptChecks };

const distinctAddresses = (trimmed: readonly string[]): string[] => [...new Set(trimmed.filter((r) => r !== ''))];

export class AssessService {
  readonly #d: AssessServiceDeps;
  /** judgements of single mailings, for the next mailing with the same model input */
  readonly #judged = new JudgementMemo();
  constructor(deps: AssessServiceDeps) {
    this.#d = deps;
  }

  async assess(account: Account, v: Verification, input: { name: string; address?: string | undefined; liveNeighbour?: string | null }, locale: Locale, asOf: Date): Promise<AssessedMailing> {
    return (await this.assessMany(account, [{ v, ...input }], locale, asOf))[0]!;
  }

  /**
   * The directory's checks of these addresses, begun now: a batch chunk starts them before it asks
   * NTS, so that the address threads work while NTS answers (an address does not depend on the
   * business's status); with address threads, the thread keeps them to score the chunk's rows.
   * Hand them to assessChunk (or assessMany). Never rejects: a directory that fails is an error
   * per address, as the assessment reports it.
   */
  checkAddresses(addresses: readonly (string | null | undefined)[]): PendingChecks {
    const wanted = distinctAddresses(addresses.map((a) => a?.trim() ?? ''));
    if (wanted.length === 0) return { here: Promise.resolve(new Map()) };
    const kept = this.#d.addresses.keepChecks?.(wanted);
    if (kept) return { thread: kept };
    return {
      here: this.#d.addresses.checkMany(wanted).catch((err: unknown) => {
        const failure = err instanceof Error ? err : new Error(String(err));
        return new Map(wanted.map((a) => [a, failure]));
      }),
    };
  }

  /**
   * assess() of many mailings of one account (a batch chunk's), with the same result for each:
   * each distinct address checked once and the directory asked for them together, the
   * account's outcomes read in one statement, the model looked up once. `pending`: their
   * addresses' checks begun earlier in-process (checkAddresses); any address it lacks is checked now.
   */
  async assessMany(account: Account, mailings: readonly Mailing[], locale: Locale, asOf: Date, pending?: PendingChecks): Promise<AssessedMailing[]> {
    const raws = mailings.map((m) => m.address?.trim() ?? '');
    const begun = pending && 'here' in pending ? await pending.here : new Map<string, AddressCheck | Error>();
    const wanted = distinctAddresses(raws).filter((r) => !begun.has(r));
    const checks = wanted.length === 0 ? begun : new Map([...begun, ...(await this.#d.addresses.checkMany(wanted))]);
    this.#warnUnavailable(raws.map((raw) => (raw ? (checks.get(raw) ?? new Error('the address was not checked')) : null)).filter((c) => c instanceof Error));
    const keys = raws.map((raw) => {
      const c = checks.get(raw);
      return addressKeyOf(raw, c === undefined || c instanceof Error ? null : deliveryPointOf(c));
    });
    const history = await this.#d.store.labels.countsMany(account.id, mailings.map((m, i) => ({ bno: m.v.b_no, addressKey: keys[i]! })));
    const rows = mailings.map((m, i): ChunkMailing => ({ v: m.v, name: m.name, raw: raws[i]!, liveNeighbour: m.liveNeighbour ?? null, history: history[i]! }));
    return scoreMailings(rows, checks, await this.#context(account, locale, asOf), this.#judged);
  }

  /**
   * A batch chunk's mailings assessed as assessMany would, as the chunk keeps them (JSON text).
   * With their checks kept in an address thread, the thread scores them too: the main thread only
   * reads the account's outcomes for them. Should the thread fail, they are assessed in-process.
   */
  async assessChunk(account: Account, mailings: readonly Mailing[], locale: Locale, asOf: Date, pending?: PendingChecks): Promise<KeptChunk> {
    if (pending && 'thread' in pending) {
      const scored = await this.#inThread(account, mailings, locale, asOf, pending.thread);
      if (scored) return scored;
    }
    return keptChunk(await this.assessMany(account, mailings, locale, asOf, pending && 'here' in pending ? pending : undefined));
  }

  async #inThread(account: Account, mailings: readonly Mailing[], locale: Locale, asOf: Date, kept: KeptChecks): Promise<KeptChunk | null> {
    const points = await kept.points;
    const raws = mailings.map((m) => m.address?.trim() ?? '');
    if (!points || raws.some((raw) => raw && !points.has(raw))) return null;
    this.#warnUnavailable([...points.values()].filter((b) => b instanceof Error));
    const keys = raws.map((raw) => {
      const b = points.get(raw);
      return addressKeyOf(raw, b === undefined || b instanceof Error ? null : b);
    });
    const history = await this.#d.store.labels.countsMany(account.id, mailings.map((m, i) => ({ bno: m.v.b_no, addressKey: keys[i]! })));
    const ctx = await this.#context(account, locale, asOf);
    const rows = mailings.map((m, i): ChunkMailing => ({ v: m.v, name: m.name, raw: raws[i]!, liveNeighbour: m.liveNeighbour ?? null, history: history[i]! }));
    try {
      return await kept.score(rows, ctx);
    } catch (err) {
      this.#d.log?.warn({ err }, 'an address thread did not score a chunk; scoring it in-process');
      return null;
    }
  }

  async #context(account: Account, locale: Locale, asOf: Date): Promise<ScoringContext> {
    const model = await this.#d.models.current();
    return { model, adjustment: await this.#d.models.accountAdjustment(account.id, model), locale, asOf };
  }

  /** the address directory being down must not fail the lookup: the mailing is scored without the address */
  #warnUnavailable(errors: readonly Error[]): void {
    for (const message of new Set(errors.map((e) => e.message))) this.#d.log?.warn({ err: errors.find((e) => e.message === message) }, 'address directory unavailable; assessing without the address');
  }
}
