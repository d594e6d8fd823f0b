// One check of watched businesses: their statuses in one lookup (the registry coalesces them into
// upstream calls of 100), then the assessment for entries with a name. Answers that are not fresh
// (upstream down, only a stale cache entry) are reported as missing, so a check never records a
// change it did not observe.
import { buildVerification, ntsDate, statusFromNts } from '../domain/verification.ts';
import type { WatchState } from '../domain/watch.ts';
import type { StatusService } from '../domain/status.ts';
import type { Account } from '../domain/account.ts';
import type { AssessService } from '../verification/assess-service.ts';
import { liveNeighbours } from '../verification/live-neighbours.ts';
import type { EvidenceService } from '../evidence/evidence-service.ts';
import { type EvidenceInput, evidenceOf } from '../domain/evidence.ts';

export interface WatchTarget {
  account: Account;
  bno: string;
  name: string | null;
  address: string | null;
}

/** What a check observed, and the evidence of the NTS answer it rests on. */
export interface Observation {
  state: WatchState;
  evidence: EvidenceInput;
}

/**
 * The observed state naming the evidence of its answer, for a check that keeps it (named only
 * then: most re-checks keep none, and the id is two hashes an entry).
 */
export function evidenced(o: Observation): WatchState {
  return { ...o.state, verification_id: evidenceOf(o.evidence).id, verified_at: o.evidence.checkedAt };
}

export class WatchChecker {
  readonly #status: StatusService;
  readonly #assess: AssessService;
  readonly #evidence: EvidenceService | undefined;
  readonly #now: () => Date;
  readonly #onError: (err: unknown) => void;

  constructor(deps: { status: StatusService; assess: AssessService; evidence?: EvidenceService; now: () => Date; onError: (err: unknown) => void }) {
    this.#status = deps.status;
    this.#assess = deps.assess;
    this.#evidence = deps.evidence;
    this.#now = deps.now;
    this.#onError = deps.onError;
  }

  /**
   * The state of every target, in order, or null where no fresh answer came. `maxAgeMs` bounds
   * how old a cached answer may be (a re-check must observe, not repeat, the last answer).
   */
  async check(targets: readonly WatchTarget[], opts: { maxAgeMs?: number } = {}): Promise<(Observation | null)[]> {
    if (targets.length === 0) return [];
    const { answers } = await this.#status.lookup(targets.map((t) => t.bno), { ...opts, bulk: true });
    // as POST /verify assesses them: an unregistered number's operating neighbour (a mistyped number)
    const unregistered = targets.filter((t) => {
      const answer = answers.get(t.bno);
      return t.name?.trim() && answer && !answer.stale && statusFromNts(answer.record) === 'unregistered';
    });
    const near = unregistered.length > 0 ? await liveNeighbours(this.#status, unregistered.map((t) => t.bno), { bulk: true }) : new Map<string, string>();
    const asOf = this.#now();
    return Promise.all(
      targets.map(async (t): Promise<Observation | null> => {
        const answer = answers.get(t.bno);
        if (!answer || answer.stale) return null;
        const v = buildVerification(t.bno, answer, { invalid: false, locale: 'ko' });
        const evidence = { accountId: t.account.id, bno: t.bno, api: 'status' as const, source: answer.source, checkedAt: answer.checkedAt, record: answer.record };
        const tax = {
          tax_type_cd: v.tax_type === null ? null : answer.record.tax_type_cd || null, tax_type: v.tax_type, tax_type_change_dt: ntsDate(answer.record.tax_type_change_dt),
        };
        const name = t.name?.trim();
        if (!name) return { state: { biz_status: v.biz_status, grade: null, bounce_prob: null, action: null, closed_on: v.closed_on, ...tax }, evidence };
        let fields;
        try {
          ({ fields } = await this.#assess.assess(t.account, v, { name, address: t.address ?? undefined, liveNeighbour: near.get(t.bno) ?? null }, 'ko', asOf));
        } catch (err) {
          // one entry's failed assessment postpones that entry, not the whole round
          this.#onError(err);
          return null;
        }
        return { state: { biz_status: v.biz_status, grade: fields.grade, bounce_prob: fields.bounce_prob, action: fields.action, closed_on: v.closed_on, ...tax }, evidence };
      }),
    );
  }

  /**
   * Keeps the evidence of the observations a check records (the first, and those that changed
   * something: an unchanged re-check every hour would keep an answer a day per entry for years).
   */
  async keep(observations: readonly (Observation | null)[]): Promise<void> {
    const es = observations.flatMap((o) => (o ? [o.evidence] : []));
    if (this.#evidence && es.length > 0) await this.#evidence.record(es);
  }
}
