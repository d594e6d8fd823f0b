// One mailing's assessment from what was gathered for it: its verification, its address as the
// directory checked it, the account's outcomes for it, what its name says, the model. No I/O:
// AssessService (src/verification) gathers the inputs in-process, and an address thread
// (src/addresses/address-thread.ts) runs the same code on a batch chunk's rows beside the main
// thread, so either gives the same result.
import type { AddressCheck } from './address/types.ts';
import type { LabelCounts } from './label.ts';
import { jibunAddressOf, referenceOf } from './address/official-form.ts';
import type { Locale } from './locale.ts';
import { featurize } from './model/features.ts';
import { assess, reasonsOf } from './model/score.ts';
import type { AccountAdjustment, Assessment, AssessmentInput, ModelParams } from './model/types.ts';
import { nameSignals, type NameSignals } from './name-signals.ts';
import { formatReason, ntsDate, statusReason, type AddressReport, type NtsDetail, type Verification } from './verification.ts';
import { toSeoulIso } from './quota-period.ts';

/** What the assessment reads of a verification. */
export type ScoredVerification = Pick<Verification, 'b_no' | 'biz_status' | 'closed_on' | 'entity_type'> & { nts: Pick<NtsDetail, 'end_dt' | 'tax_type_cd'> | null };

export interface AssessedMailing {
  /** the fields of the verification result the assessment fills */
  fields: Pick<Verification, 'bounce_prob' | 'grade' | 'action' | 'fixed_zipcode' | 'fixed_address' | 'reasons' | 'model_version'>;
  address: AddressReport | null;
  /** what a label for this mailing is recorded with */
  features: Record<string, number>;
  addressKey: string | null;
  assessment: Assessment;
}

/** The model a chunk's mailings are scored with, for the account and moment they are scored at. */
export interface ScoringContext {
  model: ModelParams;
  adjustment: AccountAdjustment | null;
  locale: Locale;
  asOf: Date;
}

/** Probabilities are reported to 4 decimals; reasons carry 2, enough to re-add them. */
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Same address however it was spaced or punctuated, for counting outcomes per address. */
export function normaliseAddressKey(raw: string): string {
  return raw.normalize('NFKC').replace(/[\s,.()-]+/g, '').toLowerCase();
}

/** What outcomes are counted by for an address (`raw`, trimmed): its building when matched, else the address as written. */
export function addressKeyOf(raw: string, buildingId: string | null): string | null {
  return raw ? (buildingId ?? normaliseAddressKey(raw)) : null;
}

/** What the model reads of a mailing. */
function modelInputOf(v: ScoredVerification, match: AddressCheck | null, history: LabelCounts, signals: NameSignals, liveNeighbour: string | null, asOf: Date): AssessmentInput {
  return {
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
}

/** The part of an assessment that follows from the model's input alone (and whether the directory answered). */
interface Judgement {
  assessment: Assessment;
  reasons: string[];
  features: Record<string, number>;
}

function judge(modelInput: AssessmentInput, unavailable: boolean, { model, adjustment, locale }: ScoringContext): Judgement {
  const assessment = assess(model, modelInput, { account: adjustment });
  const reasons = reasonsOf(assessment, locale);
  // active is the model's reference (weight 0), so it has no contribution; say it anyway
  if (modelInput.status === 'active') reasons.unshift(statusReason('active', null, locale));
  if (unavailable) {
    reasons.push(formatReason('address_unchecked', 0, locale === 'ko' ? '주소 검색 서비스가 응답하지 않아 주소를 확인하지 못함' : 'the address directory did not answer; address not checked', 'address'));
    // a mailing whose address nobody checked is not one to send blind
    if (assessment.action === 'send' || assessment.action === 'send_fixed_address') assessment.action = 'confirm_address';
  }
  // feature values (not contributions): a refit learns new weights for them
  return { assessment, reasons, features: Object.fromEntries(featurize(modelInput)) };
}

/** The address as the result reports it: the directory's check, or that there was none. */
function addressReportOf(match: AddressCheck | null, unavailable: boolean): AddressReport | null {
  if (match) {
    return {
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
    };
  }
  return unavailable
    ? {
        quality: 'unavailable', changes: [], candidates: 0, missing_building_number: false, missing_unit: false, zip_mismatch: false, outdated_zip: false,
        building_id: null, jibun_address: null, reference: null,
      }
    : null;
}

/** `match`: the directory's check (null without an address, or when the directory did not answer: `unavailable`). */
export function scoreMailing(
  v: ScoredVerification, match: AddressCheck | null, unavailable: boolean, addressKey: string | null, history: LabelCounts, signals: NameSignals, liveNeighbour: string | null,
  ctx: ScoringContext,
): AssessedMailing {
  const { assessment, reasons, features } = judge(modelInputOf(v, match, history, signals, liveNeighbour, ctx.asOf), unavailable, ctx);
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
    address: addressReportOf(match, unavailable),
    features,
    addressKey,
    assessment,
  };
}

/**
 * A batch row's assessment as its chunk keeps it, already JSON: what the assessment puts over the
 * result rebuilt from the number's answer, and what a label records. Text, so that a thread that
 * scored the row hands back a few strings rather than objects to copy, and the chunk's output is
 * written without stringifying them again.
 */
export interface KeptAssessment {
  /** the assessment's fields and address report, as a JSON object */
  over: string;
  grade: string | null;
  /** the features, as a JSON object */
  features: string;
  addressKey: string | null;
  modelVersion: string | null;
}

export function keptAssessment(a: AssessedMailing): KeptAssessment {
  return { over: JSON.stringify({ ...a.fields, address: a.address }), grade: a.fields.grade, features: JSON.stringify(a.features), addressKey: a.addressKey, modelVersion: a.fields.model_version };
}

/** One row of a chunk to score: its verification, name, address as written (trimmed), its operating neighbour, its outcomes so far. */
export interface ChunkMailing {
  v: ScoredVerification;
  name: string;
  raw: string;
  liveNeighbour: string | null;
  history: LabelCounts;
}

/**
 * Mailings (a chunk's, or one) scored against their addresses' checks, by the address as written
 * (an Error: the directory did not answer for it). A name seen twice is read once.
 */
export function scoreMailings(rows: readonly ChunkMailing[], checks: ReadonlyMap<string, AddressCheck | Error>, ctx: ScoringContext): AssessedMailing[] {
  const signals = new Map<string, NameSignals>();
  return rows.map((m) => {
    const { match, unavailable, name } = readRow(m, checks, signals);
    return scoreMailing(m.v, match, unavailable, addressKeyOf(m.raw, match?.entry?.buildingId ?? null), m.history, name, m.liveNeighbour, ctx);
  });
}

/**
 * A chunk row's address check (an Error: the directory did not answer for it) and what its name
 * says; `signals` keeps the names read so far in the chunk, so a name seen twice is read once.
 */
function readRow(m: ChunkMailing, checks: ReadonlyMap<string, AddressCheck | Error>, signals: Map<string, NameSignals>): { match: AddressCheck | null; unavailable: boolean; name: NameSignals } {
  const check = m.raw ? (checks.get(m.raw) ?? new Error('the address was not checked')) : null;
  const key = `${m.v.entity_type}\u0000${m.name}`;
  let name = signals.get(key);
  if (!name) signals.set(key, (name = nameSignals(m.name, m.v.entity_type)));
  return { match: check instanceof Error ? null : check, unavailable: check instanceof Error, name };
}

/** A judgement as a chunk keeps it: the text around the row's own parts of its result. */
interface KeptJudgement {
  /** `{"bounce_prob":…,"grade":…,"action":…` */
  head: string;
  /** `,"reasons":[…],"model_version":…` */
  tail: string;
  features: string;
  grade: string | null;
  modelVersion: string | null;
}

/**
 * Judgements already made, for the chunks scored after: rows of a list share most of what the
 * model reads (status, how the address matched, the trade …), so about half the rows of a chunk,
 * and more across a job's chunks, repeat a model input seen before. Kept per scoring context
 * (the model and the account's adjustment, compared by value), a few contexts and a bounded
 * number of inputs each.
 */
export class ScoreMemo {
  readonly #byContext = new Map<string, Map<string, KeptJudgement>>();
  readonly #contexts: number;
  readonly #inputs: number;

  constructor(opts: { contexts?: number; inputs?: number } = {}) {
    this.#contexts = opts.contexts ?? 2;
    this.#inputs = opts.inputs ?? 8_000;
  }

  /** The judgements made in this context (a chunk's, whose model and adjustment arrive as copies). */
  of(ctx: ScoringContext): Map<string, KeptJudgement> {
    const key = JSON.stringify([ctx.model, ctx.adjustment, ctx.locale]);
    let memo = this.#byContext.get(key);
    if (memo) {
      // the most recently used context last: the first is dropped when there are too many
      this.#byContext.delete(key);
    } else {
      memo = new Map();
      if (this.#byContext.size >= this.#contexts) this.#byContext.delete(this.#byContext.keys().next().value!);
    }
    if (memo.size >= this.#inputs) memo.clear();
    this.#byContext.set(key, memo);
    return memo;
  }
}

/**
 * A chunk's mailings scored (scoreMailings) as the chunk keeps them, each the same text
 * keptAssessment makes. A row whose model input `memo` has judged before takes that judgement's
 * text, and only its own parts (corrected address, address report) are written.
 */
export function scoreChunk(rows: readonly ChunkMailing[], checks: ReadonlyMap<string, AddressCheck | Error>, ctx: ScoringContext, memo: ScoreMemo): KeptAssessment[] {
  const judged = memo.of(ctx);
  const signals = new Map<string, NameSignals>();
  return rows.map((m) => {
    const { match, unavailable, name } = readRow(m, checks, signals);
    const input = modelInputOf(m.v, match, m.history, name, m.liveNeighbour, ctx.asOf);
    const key = `${unavailable ? 1 : 0}${JSON.stringify(input)}`;
    let j = judged.get(key);
    if (!j) {
      const { assessment, reasons, features } = judge(input, unavailable, ctx);
      j = {
        head: `{"bounce_prob":${JSON.stringify(round4(assessment.bounceProb))},"grade":${JSON.stringify(assessment.grade)},"action":${JSON.stringify(assessment.action)}`,
        tail: `,"reasons":${JSON.stringify(reasons)},"model_version":${JSON.stringify(assessment.modelVersion)}`,
        features: JSON.stringify(features),
        grade: assessment.grade,
        modelVersion: assessment.modelVersion,
      };
      judged.set(key, j);
    }
    const over = `${j.head},"fixed_zipcode":${JSON.stringify(match?.fixedZipcode ?? null)},"fixed_address":${JSON.stringify(match?.fixedAddress ?? null)}${j.tail},"address":${JSON.stringify(addressReportOf(match, unavailable))}}`;
    return { over, grade: j.grade, features: j.features, addressKey: addressKeyOf(m.raw, match?.entry?.buildingId ?? null), modelVersion: j.modelVersion };
  });
}
