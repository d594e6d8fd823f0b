// Evidence as the API offers it: the answers that lookups, validations, jobs and watch checks
// were given are recorded as they are served, and an account reads back its own, signed.
import { type Evidence, type EvidenceInput, evidenceOf, receiptPayload } from '../domain/evidence.ts';
import type { Account } from '../domain/account.ts';
import { AppError } from '../errors.ts';
import type { EvidenceStore } from '../store/evidence-store.ts';
import type { Signature, Signer } from './signer.ts';

export interface Receipt {
  evidence: Evidence & { createdAt: string };
  /** the canonical JSON text that was signed */
  payload: string;
  signature: Signature;
}

/** ids recorded lately, and how long one is trusted to be in the store without asking */
const RECENT_MAX = 50_000;
const RECENT_MS = 3600_000;
/** records at once that a call writes without waiting for company (and derives without the memo: a batch chunk's, each record once) */
const BULK = 100;
const DERIVED_PER_RECORD = 64;

export class EvidenceService {
  readonly #store: EvidenceStore;
  readonly #signer: Signer;
  readonly #now: () => Date;
  /** ids this process recorded lately → when: the same answer served again needs no write */
  readonly #recent = new Map<string, number>();
  /**
   * Evidence derived lately for single lookups, by the answer's record object and what else the
   * id is made of: a hot cached answer is served as the same record object again and again, and
   * canonicalising and hashing it was ~5 % of a cached POST /verify (bench/RESULTS.md).
   */
  readonly #derived = new WeakMap<object, Map<string, Evidence>>();
  /** records waiting for the write this event-loop turn makes for all of them */
  #pending: { es: Evidence[]; done: Promise<void> } | null = null;

  constructor(store: EvidenceStore, signer: Signer, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#signer = signer;
    this.#now = now;
  }

  /**
   * Records answers as served; returns their evidence (ids to put in results), in order, once
   * they are stored. Concurrent lookups in one event-loop turn share one write (group commit: a
   * write per lookup was a commit per request, a third of /verify's rate on PostgreSQL), and an
   * answer this process recorded lately is not written again.
   */
  async record(inputs: readonly EvidenceInput[]): Promise<Evidence[]> {
    const es = inputs.length < BULK ? inputs.map((e) => this.#evidenceOf(e)) : inputs.map(evidenceOf);
    const nowMs = Date.now();
    const fresh = es.filter((e) => {
      const at = this.#recent.get(e.id);
      return at === undefined || nowMs - at > RECENT_MS;
    });
    if (fresh.length === 0) return es;
    if (fresh.length >= BULK) await this.#write(fresh);
    else await this.#enqueue(fresh);
    return es;
  }

  /** evidenceOf(e), derived once per record object (records are never changed once had) */
  #evidenceOf(e: EvidenceInput): Evidence {
    const record = e.record;
    if (record === null || typeof record !== 'object') return evidenceOf(e);
    let derived = this.#derived.get(record);
    if (!derived) this.#derived.set(record, (derived = new Map()));
    const key = `${e.accountId}\u0000${e.api}\u0000${e.source}\u0000${e.bno}\u0000${e.checkedAt}`;
    let out = derived.get(key);
    if (!out) {
      // a record served to many accounts: bounded, begun again when full
      if (derived.size >= DERIVED_PER_RECORD) derived.clear();
      derived.set(key, (out = evidenceOf(e)));
    }
    return out;
  }

  #enqueue(es: Evidence[]): Promise<void> {
    if (this.#pending) {
      this.#pending.es.push(...es);
      return this.#pending.done;
    }
    const batch: { es: Evidence[]; done: Promise<void> } = { es: [...es], done: Promise.resolve() };
    batch.done = new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.#pending = null;
        this.#write(batch.es).then(resolve, reject);
      });
    });
    this.#pending = batch;
    return batch.done;
  }

  async #write(es: readonly Evidence[]): Promise<void> {
    await this.#store.record(es, this.#now());
    const at = Date.now();
    for (const e of es) {
      this.#recent.delete(e.id);
      this.#recent.set(e.id, at);
    }
    // oldest first out
    for (const id of this.#recent.keys()) {
      if (this.#recent.size <= RECENT_MAX) break;
      this.#recent.delete(id);
    }
  }

  /** The account's record, signed; 404 for another account's or an unknown id. */
  async receipt(account: Account, id: string): Promise<Receipt> {
    const evidence = await this.#store.get(account.id, id);
    if (!evidence) throw new AppError('not_found', `no verification ${id}`);
    const payload = receiptPayload(evidence);
    return { evidence, payload, signature: this.#signer.sign(payload) };
  }

  keys() {
    return this.#signer.keys();
  }
}
