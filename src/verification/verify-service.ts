// One lookup, charged exactly when it is answered: check digit first (free), then reserve one
// lookup, ask the status service, and give the lookup back if no fresh answer came.
import { hasValidCheckDigit } from '../domain/bizno.ts';
import type { Locale } from '../domain/locale.ts';
import { buildVerification, type Verification } from '../domain/verification.ts';
import { AppError } from '../errors.ts';
import { unansweredProblem } from '../registry/daily-budget.ts';
import type { StatusService } from '../domain/status.ts';
import type { Account } from '../domain/account.ts';
import type { Quota, QuotaState } from '../accounts/quota.ts';
import type { AssessService } from './assess-service.ts';
import { liveNeighbours } from './live-neighbours.ts';
import type { EvidenceService } from '../evidence/evidence-service.ts';

export interface VerifyInput {
  b_no: string;
  name?: string | undefined;
  address?: string | undefined;
}

export interface VerifyOutcome {
  result: Verification;
  quota: QuotaState;
}

export class VerifyService {
  readonly #status: StatusService;
  readonly #quota: Quota;
  readonly #assess: AssessService;
  readonly #evidence: EvidenceService;
  readonly #now: () => Date;

  constructor(status: StatusService, quota: Quota, assess: AssessService, evidence: EvidenceService, now: () => Date = () => new Date()) {
    this.#status = status;
    this.#quota = quota;
    this.#assess = assess;
    this.#evidence = evidence;
    this.#now = now;
  }

  async verify(account: Account, input: VerifyInput, locale: Locale): Promise<VerifyOutcome> {
    const outcome = await this.#lookup(account, input, locale);
    const name = input.name?.trim();
    if (!name) return outcome;
    // with a name, the mailing-risk assessment fills the rest of the result
    const near = outcome.result.biz_status === 'unregistered' ? await liveNeighbours(this.#status, [input.b_no]) : null;
    const assessed = await this.#assess.assess(account, outcome.result, { name, address: input.address, liveNeighbour: near?.get(input.b_no) ?? null }, locale, this.#now());
    return { ...outcome, result: { ...outcome.result, ...assessed.fields, address: assessed.address } };
  }

  async #lookup(account: Account, input: VerifyInput, locale: Locale): Promise<VerifyOutcome> {
    if (!hasValidCheckDigit(input.b_no)) {
      return { result: buildVerification(input.b_no, null, { invalid: true, locale }), quota: await this.#quota.current(account) };
    }
    const reservation = await this.#quota.reserveOne(account);
    let looked;
    try {
      looked = await this.#status.lookup([input.b_no]);
    } catch (err) {
      await this.#quota.refund(reservation);
      throw err;
    }
    const answer = looked.answers.get(input.b_no);
    if (!answer) {
      await this.#quota.refund(reservation);
      const p = unansweredProblem(looked.unanswered.get(input.b_no), 'this number');
      throw new AppError(p.code, p.detail, { headers: { 'retry-after': String(p.retryAfterS) } });
    }
    // a stale answer stands in during an outage; like offline answers it is not charged
    if (answer.stale) await this.#quota.refund(reservation);
    const [kept] = await this.#evidence.record([{ accountId: account.id, bno: input.b_no, api: 'status', source: answer.source, checkedAt: answer.checkedAt, record: answer.record }]);
    return { result: { ...buildVerification(input.b_no, answer, { invalid: false, locale }), verification_id: kept!.id }, quota: reservation.state };
  }
}
