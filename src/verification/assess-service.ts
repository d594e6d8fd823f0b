// The bounce-risk assessment of a mailing (or of a batch chunk's mailings at once): the address checked against the directory, the
// account's own recorded outcomes, what the name says, and the current model. Pure parts live in
// src/domain; this module only gathers their inputs.
import type { AddressCheck, AddressService } from '../addresses/address-service.ts';
import type { LabelCounts } from '../domain/label.ts';
import { jibunAddressOf, referenceOf } from '../domain/address/official-form.ts';
import type { Locale } from '../domain/locale.ts';
import { featurize } from '../domain/model/features.ts';
import { assess, reasonsOf } from '../domain/model/score.ts';
import type { AccountAdjustment, Assessment, AssessmentInput, ModelParams } from '../domain/model/types.ts';
import { nameSignals } from '../domain/name-signals.ts';
import { formatReason, ntsDate, statusReason, type AddressReport, type Verification } from '../domain/verification.ts';
import { toSeoulIso } from '../domain/quota-period.ts';
import type { ModelProvider } from '../model/model-provider.ts';
import type { Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';

export type AddressChecker = Pick<AddressService, 'checkMany'>;

/** One mailing to assess: its verification, and the name and address the customer wrote. */
export interface Mailing {
  v: Verification;
  name: string;
  address?: string | null | undefined;
  /** an unregistered number's operating neighbour (live-neighbours.ts), when looked up */
  liveNeighbour?: string | null | undefined;
}

export interface AssessedMailing {
  /** the fields of the verification result the assessment fills */
  fields: Pick<Verification, 'bounce_prob' | 'grade' | 'action' | 'fixed_zipcode' | 'fixed_address' | 'reasons' | 'model_version'>;
  address: AddressReport | null;
  /** what a label for this mailing is recorded with */
  features: Record<string, number>;
  addressKey: string | null;
  assessment: Assessment;
}

export interface AssessServiceDeps {
  addresses: AddressChecker;
  models: ModelProvider;
  store: { labels: Pick<Store['labels'], 'countsMany'> };
  log?: { warn(obj: object, msg: string): void };
}

/** Address checks begun before the assessment (AssessService.checkAddresses), by the address as written (trimmed). */
export type PendingChecks = Promise<ReadonlyMap<string, AddressCheck | Error>>;

const distinctAddresses = (trimmed: readonly string[]): string[] => [...new Set(trimmed.filter((r) => r !== ''))];

/** Probabilities are reported to 4 decimals; reasons carry 2, enough to re-add them. */
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export class AssessService {
  readonly #d: AssessServiceDeps;
  constructor(deps: AssessServiceDeps) {
    this.#d = deps;
  }

  async assess(account: Account, v: Verification, input: { name: string; address?: string | undefined; liveNeighbour?: string | null }, locale: Locale, asOf: Date): Promise<AssessedMailing> {
    return (await this.assessMany(account, [{ v, ...input }], locale, asOf))[0]!;
  }

  /**
   * The directory's checks of these addresses, begun now: a batch chunk starts them before it asks
   * NTS, so that the address threads work while NTS answers (an address does not depend on the
   * business's status). Hand them to assessMany. Never rejects: a directory that fails is an
   * error per address, as assessMany reports it.
   */
  checkAddresses(addresses: readonly (string | null | undefined)[]): PendingChecks {
    const wanted = distinctAddresses(addresses.map((a) => a?.trim() ?? ''));
    if (wanted.length === 0) return Promise.resolve(new Map());
    return this.#d.addresses.checkMany(wanted).catch((err: unknown) => {
      const failure = err instanceof Error ? err : new Error(String(err));
      return new Map(wanted.map((a) => [a, failure]));
    });
  }

  /**
   * assess() of many mailings of one account (a batch chunk's), with the same result for each:
   * each distinct address checked once and the directory asked for them together, the
   * account's outcomes read in one statement, the model looked up once. `pending`: their
   * addresses' checks begun earlier (checkAddresses); any address it lacks is checked now.
   */
  async assessMany(account: Account, mailings: readonly Mailing[], locale: Locale, asOf: Date, pending?: PendingChecks): Promise<AssessedMailing[]> {
    const raws = mailings.map((m) => m.address?.trim() ?? '');
    const begun = pending ? await pending : new Map<string, AddressCheck | Error>();
    const wanted = distinctAddresses(raws).filter((r) => !begun.has(r));
    const checks = wanted.length === 0 ? begun : new Map([...begun, ...(await this.#d.addresses.checkMany(wanted))]);
    const matches = raws.map((raw): AddressCheck | Error | null => (raw ? (checks.get(raw) ?? new Error('the address was not checked')) : null));
    for (const m of new Set(matches)) {
      // the address directory being down must not fail the lookup: score without the address
      if (m instanceof Error) this.#d.log?.warn({ err: m }, 'address directory unavailable; assessing without the address');
    }
    const keys = matches.map((m, i) => (m instanceof Error || m === null ? (raws[i] ? normaliseAddressKey(raws[i]) : null) : (m.entry?.buildingId ?? normaliseAddressKey(raws[i]!))));
    const history = await this.#d.store.labels.countsMany(account.id, mailings.map((m, i) => ({ bno: m.v.b_no, addressKey: keys[i]! })));
    const model = await this.#d.models.current();
    const adjustment = await this.#d.models.accountAdjustment(account.id, model);
    const signals = new Map<string, ReturnType<typeof nameSignals>>();
    return mailings.map((m, i) => {
      const match = matches[i]!;
      const signalKey = `${m.v.entity_type}\u0000${m.name}`;
      let name = signals.get(signalKey);
      if (!name) signals.set(signalKey, (name = nameSignals(m.name, m.v.entity_type)));
      return this.#scored(m.v, match instanceof Error ? null : match, match instanceof Error, keys[i]!, history[i]!, name, m.liveNeighbour ?? null, { model, adjustment, locale, asOf });
    });
  }

  #scored(
    v: Verification, match: AddressCheck | null, unavailable: boolean, addressKey: string | null, history: LabelCounts, signals: ReturnType<typeof nameSignals>, liveNeighbour: string | null,
    { model, adjustment, locale, asOf }: { model: ModelParams; adjustment: AccountAdjustment | null; locale: Locale; asOf: Date },
  ): AssessedMailing {
    const modelInput: AssessmentInput = {
      status: v.biz_status,
      // a conversion's date is when the branch number closed: the status text shows it
      closedOn: v.closed_on ?? (v.biz_status === 'converted' && v.nts ? ntsDate(v.nts.end_dt) : null),
      taxTypeCode: v.nts?.tax_type_cd ?? '',
      entityKind: v.entity_type,
      addressQuality: match ? match.quality : 'no_address',
      addressChanges: match?.changes.length ?? 0,
      missingBuildingNumber: match?.missingBuildingNumber ?? false,
      missingUnit: match?.missingUnit ?? false,
      zipMismatch: match?.zipMismatch ?? false,
      outdatedZip: match?.outdatedZip ?? false,
      formerRoad: match?.formerRoad ?? false,
      liveNeighbour: liveNeighbour ?? null,
      addressForm: match ? match.parsed.form : null,
      notFound: match?.notFound ?? null,
      buildingKind: match?.buildingKind ?? 'unknown',
      name: signals,
      history,
      // closure recency is counted in Seoul calendar days
      asOf: toSeoulIso(asOf).slice(0, 10),
    };
    const assessment = assess(model, modelInput, { account: adjustment });
    const reasons = reasonsOf(assessment, locale);
    // active is the model's reference (weight 0), so it has no contribution; say it anyway
    if (v.biz_status === 'active') reasons.unshift(statusReason('active', null, locale));
    if (unavailable) {
      reasons.push(formatReason('address_unchecked', 0, locale === 'ko' ? '주소 검색 서비스가 응답하지 않아 주소를 확인하지 못함' : 'the address directory did not answer; address not checked', 'address'));
      // a mailing whose address nobody checked is not one to send blind
      if (assessment.action === 'send' || assessment.action === 'send_fixed_address') assessment.action = 'confirm_address';
    }
    // feature values (not contributions): a refit learns new weights for them
    const features = Object.fromEntries(featurize(modelInput));
    return {
      fields: {
        bounce_prob: round4(assessment.bounceProb),
        grade: assessment.grade,
        action: assessment.action,
        fixed_zipcode: match?.fixedZipcode ?? null,
        fixed_address: match?.fixedAddress ?? null,
        reasons,
        model_version: assessment.modelVersion,
      },
      address: match
        ? {
            quality: match.quality,
            changes: match.changes,
            candidates: match.candidates,
            missing_building_number: match.missingBuildingNumber,
            missing_unit: match.missingUnit,
            zip_mismatch: match.zipMismatch,
            outdated_zip: match.outdatedZip,
            building_id: match.entry?.buildingId ?? null,
            jibun_address: match.entry ? jibunAddressOf(match.entry) : null,
            reference: match.entry ? referenceOf(match.entry) : null,
          }
        : unavailable
          ? {
              quality: 'unavailable', changes: [], candidates: 0, missing_building_number: false, missing_unit: false, zip_mismatch: false, outdated_zip: false,
              building_id: null, jibun_address: null, reference: null,
            }
          : null,
      features,
      addressKey,
      assessment,
    };
  }
}

/** Same address however it was spaced or punctuated, for counting outcomes per address. */
export function normaliseAddressKey(raw: string): string {
  return raw.normalize('NFKC').replace(/[\s,.()-]+/g, '').toLowerCase();
}
