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

export class EvidenceService {
  readonly #store: EvidenceStore;
  readonly #signer: Signer;
  readonly #now: () => Date;

  constructor(store: EvidenceStore, signer: Signer, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#signer = signer;
    this.#now = now;
  }

  /** Records answers as served; returns their evidence (ids to put in results), in order. */
  async record(inputs: readonly EvidenceInput[]): Promise<Evidence[]> {
    const es = inputs.map(evidenceOf);
    if (es.length > 0) await this.#store.record(es, this.#now());
    return es;
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
