// One mailing's assessment from what was gathered for it: its verification, its address as the
// directory checked it, the account's outcomes for it, what its name says, the model. No I/O:
// AssessService (src/verification) gathers the inputs in-process, and an address thread
// (src/addresses/address-thread.ts) runs the same code on a batch chunk's rows beside the main
// thread, so either gives the same result.
import type { AddressCheck } from './address/types.ts';
import type { LabelCounts } from './label.ts';
import { jibunAddressOf, referenceOf } from './address/official-form.ts';
import type { Locale } from './locale.ts';
import { closureRecency, featurize } from './model/features.ts';
import { formatWithHyphens } from './bizno.ts';
import { assess, reasonsOf } from './model/score.ts';
import type { AccountAdjustment, Assessment, AssessmentInput, ModelParams } from './model/types.ts';
import { nameSignals, type NameSignals } from './name-signals.ts';
import { formatReason, ntsDate, statusReason, type AddressReport, type ScoredVerification, type Verification } from './verification.ts';
import { toSeoulIso } from './quota-period.ts';

export type { ScoredVerification };

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

/**
 * Where a matched address's letter is put: its building, and the unit the address names (its 동,
 * then its 호, or its 층 when no 호 is written). A tower's tenants are each their own: that the
 * letters to the others on a list arrived says nothing of whether this one is still there (counted
 * by the building, rows with such history bounced more than predicted after 10,000 labels in 26 of
 * the eval worlds' 30 accounts, 0.181 against 0.160; bench/RESULTS.md, session 35). A house, or an
 * address that names no unit, is its building.
 */
export function deliveryPointOf(check: AddressCheck | null | undefined): string | null {
  const id = check?.entry?.buildingId;
  if (!id) return null;
  const u = check.parsed.unit;
  const unit = u ? [u.dong, u.ho ?? u.floor].filter((p) => p !== null && p !== '').join(' ') : '';
  return unit === '' ? id : `${id} ${unit}`;
}

/** What outcomes are counted by for an address (`raw`, trimmed): its delivery point when matched (deliveryPointOf), else the address as written. */
export function addressKeyOf(raw: string, deliveryPoint: string | null): string | null {
  return raw ? (deliveryPoint ?? normaliseAddressKey(raw)) : null;
}

/** The Seoul calendar day of a moment (closure recency is counted in Seoul calendar days). */
const seoulDay = (at: Date): string => toSeoulIso(at).slice(0, 10);

/** What the model reads of a mailing. `asOf`: the Seoul day of the assessment (seoulDay). */
function modelInputOf(v: ScoredVerification, match: AddressCheck | null, history: LabelCounts, signals: NameSignals, liveNeighbour: string | null, asOf: string): AssessmentInput {
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
    rural: match?.rural ?? false,
    name: signals,
    history,
    asOf,
  };
}

/** The part of an assessment that follows from the model's input alone (and whether the directory answered). */
interface Judgement {
  assessment: Assessment;
  reasons: string[];
  features: Record<string, number>;
}

/** `shown`: the input the reasons are written from, when not `modelInput` (see assess) */
function judge(modelInput: AssessmentInput, unavailable: boolean, { model, adjustment, locale }: ScoringContext, shown?: AssessmentInput): Judgement {
  const assessment = assess(model, modelInput, { account: adjustment, ...(shown ? { shown } : {}) });
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

/**
 * Judgements of single mailings (POST /verify, watch checks) already made, by model input: the
 * input holds the status, how the address matched, the trade, the history counts, never the
 * business itself, so lookups of different businesses share most of them (an operating company
 * at a matched address without its floor is one judgement). Kept per model and account
 * adjustment object (the model provider hands the same objects for as long as they stand, and a
 * new model is a new object) and per locale, at most `inputs` per model. A judgement is shared by
 * the results it answers, which nothing changes after it is made.
 */
export class JudgementMemo {
  readonly #byModel = new WeakMap<ModelParams, Map<string, Judgement>>();
  /** a number for each adjustment object seen (0: none), to key its judgements by */
  readonly #adjustments = new WeakMap<AccountAdjustment, number>();
  #nextAdjustment = 1;
  readonly #inputs: number;

  /** `inputs`: judgements kept per model, whatever the accounts (~1–2 KB each) */
  constructor(opts: { inputs?: number } = {}) {
    this.#inputs = opts.inputs ?? 5_000;
  }

  judge(input: AssessmentInput, unavailable: boolean, ctx: ScoringContext): Judgement {
    let memo = this.#byModel.get(ctx.model);
    if (!memo) this.#byModel.set(ctx.model, (memo = new Map()));
    let adjustment = 0;
    if (ctx.adjustment) {
      adjustment = this.#adjustments.get(ctx.adjustment) ?? 0;
      if (adjustment === 0) this.#adjustments.set(ctx.adjustment, (adjustment = this.#nextAdjustment++));
    }
    const key = inputKey(input, unavailable, `${adjustment}|${ctx.locale}`);
    let j = memo.get(key);
    if (!j) {
      if (memo.size >= this.#inputs) memo.clear();
      memo.set(key, (j = judge(input, unavailable, ctx)));
    }
    return j;
  }
}

/** `match`: the directory's check (null without an address, or when the directory did not answer: `unavailable`). */
export function scoreMailing(
  v: ScoredVerification, match: AddressCheck | null, unavailable: boolean, addressKey: string | null, history: LabelCounts, signals: NameSignals, liveNeighbour: string | null,
  ctx: ScoringContext, memo?: JudgementMemo,
): AssessedMailing {
  const input = modelInputOf(v, match, history, signals, liveNeighbour, seoulDay(ctx.asOf));
  const { assessment, reasons, features } = memo ? memo.judge(input, unavailable, ctx) : judge(input, unavailable, ctx);
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
 * A chunk's rows as their chunk keeps their assessments, already JSON: what rows share (a
 * judgement: probability, grade, action, reasons and model version follow from the model's input
 * alone, and most of a list's rows repeat an input) once per chunk, and each row's own part
 * (corrected address and address report) beside the index of its judgement. Text, so that a
 * thread that scored the rows hands back a few strings rather than objects to copy, and the
 * chunk's output is written without stringifying them again; compact, because a named list's
 * results are most of what a job stores (about half the bytes of the whole result per row).
 */
export interface KeptChunk {
  judgements: KeptJudgementText[];
  rows: KeptRowText[];
}

/** A judgement rows of a chunk share. */
export interface KeptJudgementText {
  /** [bounce_prob, grade, action, reasons, model_version] as JSON */
  judged: string;
  /** the features, as a JSON object */
  features: string;
  grade: string | null;
  modelVersion: string | null;
}

/** A row's own part of its assessment. */
export interface KeptRowText {
  /** its judgement's index in the chunk's list */
  judgement: number;
  /** [fixed_zipcode, fixed_address, the address report (addressReportRow) or null] as JSON */
  own: string;
  addressKey: string | null;
}

/** An address report's fields in the order a kept row lists them (addressReportRow). */
const REPORT_FIELDS = ['quality', 'changes', 'candidates', 'missing_building_number', 'missing_unit', 'zip_mismatch', 'outdated_zip', 'building_id', 'jibun_address', 'reference'] as const satisfies readonly (keyof AddressReport)[];

/** An address report as a kept row lists it: its values without their names. */
const addressReportRow = (r: AddressReport | null): unknown[] | null => (r ? REPORT_FIELDS.map((f) => r[f]) : null);

/**
 * What a kept row puts over the result its number's answer gives: the object keptChunk and
 * scoreChunk wrote as text, in the order of its fields as /verify gives them. `own` may carry a
 * fourth value (the row's 진위확인, added by its chunk).
 */
export function overOfKept(judged: readonly unknown[], own: readonly unknown[]): Record<string, unknown> {
  const report = own[2] as unknown[] | null;
  const over: Record<string, unknown> = {
    bounce_prob: judged[0], grade: judged[1], action: judged[2], fixed_zipcode: own[0], fixed_address: own[1],
    reasons: (judged[3] as string[]).slice(), model_version: judged[4],
    address: report ? Object.fromEntries(REPORT_FIELDS.map((f, i) => [f, report[i]])) : null,
  };
  if (own.length > 3) over.validation = own[3];
  return over;
}

/** The text of a judgement as a kept chunk lists it. */
const judgedText = (prob: number | null, grade: string | null, action: string | null, reasons: readonly string[], modelVersion: string | null): string =>
  JSON.stringify([prob, grade, action, reasons, modelVersion]);

/** The text of a row's own part as a kept chunk lists it. */
const ownText = (fixedZipcode: string | null, fixedAddress: string | null, report: AddressReport | null): string =>
  JSON.stringify([fixedZipcode, fixedAddress, addressReportRow(report)]);

/**
 * Judgements listed once per chunk, in the order rows first name them, by a key of each (its
 * text, or the object itself where equal judgements are one object).
 */
class JudgementList<K> {
  readonly list: KeptJudgementText[] = [];
  readonly #byKey = new Map<K, number>();

  indexOf(key: K, j: KeptJudgementText): number {
    let i = this.#byKey.get(key);
    if (i === undefined) this.#byKey.set(key, (i = this.list.push(j) - 1));
    return i;
  }
}

/** Assessed mailings (scoreMailings') as their chunk keeps them. */
export function keptChunk(assessed: readonly AssessedMailing[]): KeptChunk {
  const judgements = new JudgementList<string>();
  const rows = assessed.map((a): KeptRowText => {
    const { fields } = a;
    const j = { judged: judgedText(fields.bounce_prob, fields.grade, fields.action, fields.reasons, fields.model_version), features: JSON.stringify(a.features), grade: fields.grade, modelVersion: fields.model_version };
    return { judgement: judgements.indexOf(`${j.judged}\u0000${j.features}`, j), own: ownText(fields.fixed_zipcode, fields.fixed_address, a.address), addressKey: a.addressKey };
  });
  return { judgements: judgements.list, rows };
}

/**
 * What a model input is remembered by (ScoreMemo, JudgementMemo): each of its fields in a fixed
 * place (modelInputOf always makes the same fields), `|` between them, `~` for none, flags as T/F,
 * and whether the directory answered. As exact as its JSON and shorter; written field by field,
 * it costs a third of reading the input's values in turn (Object.values and entries, a type check
 * each: ~2.3 against ~0.9 µs a key with the memo's lookup, a named row's every time). An input
 * with a text that could be mistaken for a mark (none is: statuses, kinds, dates, digits) is keyed
 * by its JSON instead. A field added to AssessmentInput must be added here: the test changes each
 * field of an input in turn and expects a key of its own for each.
 */
export function inputKey(input: AssessmentInput, unavailable: boolean, prefix = ''): string {
  const unchecked = unavailable ? '1' : '0';
  const { name: n, history: h } = input;
  const plain = markless(input.status) && markless(input.closedOn) && markless(input.taxTypeCode) && markless(input.entityKind) && markless(input.addressQuality)
    && markless(input.liveNeighbour) && markless(input.addressForm) && markless(input.notFound) && markless(input.buildingKind) && markless(n.trade) && markless(input.asOf)
    && typeof input.addressChanges === 'number' && counts(h)
    && flags(input.missingBuildingNumber, input.missingUnit, input.zipMismatch, input.outdatedZip, input.formerRoad) && flags(n.entityMismatch, n.closureHint, n.branch, input.rural, false);
  if (!plain) return `${prefix}J${unchecked}${JSON.stringify(input)}`;
  // one array joined, so the key is one flat string: built with template literals or `+` it is a
  // rope of ~40 strings, which a Map keeps as it is (~690 against ~160 bytes a kept key), and the
  // memos' 8,000 keys were ~250,000 live objects for every full collection to mark
  return [
    prefix, unchecked, '|', input.status, '|', none(input.closedOn), '|', input.taxTypeCode, '|', input.entityKind, '|', input.addressQuality, '|', String(input.addressChanges), '|',
    flag(input.missingBuildingNumber), flag(input.missingUnit), flag(input.zipMismatch), flag(input.outdatedZip), flag(input.formerRoad), '|',
    none(input.liveNeighbour), '|', none(input.addressForm), '|', none(input.notFound), '|', input.buildingKind, '|',
    flag(n.entityMismatch), flag(n.closureHint), flag(n.branch), flag(input.rural), '|', none(n.trade), '|',
    String(h.bizBounced), '|', String(h.bizDelivered), '|', String(h.bizGone), '|', String(h.bizAbsent), '|', String(h.addressBounced), '|', String(h.addressDelivered), '|', input.asOf,
  ].join('');
}

/** A text of a model input that holds none of inputKey's marks (null: none, which is marked). */
const markless = (t: string | null): boolean => t === null || (typeof t === 'string' && !t.includes('|') && !t.includes('~'));
const none = (t: string | null): string => t ?? '~';
const flag = (b: boolean): string => (b ? 'T' : 'F');
const flags = (a: boolean, b: boolean, c: boolean, d: boolean, e: boolean): boolean =>
  typeof a === 'boolean' && typeof b === 'boolean' && typeof c === 'boolean' && typeof d === 'boolean' && typeof e === 'boolean';
const counts = (h: AssessmentInput['history']): boolean =>
  typeof h.bizBounced === 'number' && typeof h.bizDelivered === 'number' && typeof h.bizGone === 'number' && typeof h.bizAbsent === 'number'
  && typeof h.addressBounced === 'number' && typeof h.addressDelivered === 'number';

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
export function scoreMailings(rows: readonly ChunkMailing[], checks: ReadonlyMap<string, AddressCheck | Error>, ctx: ScoringContext, memo?: JudgementMemo): AssessedMailing[] {
  const signals = new Map<string, NameSignals>();
  return rows.map((m) => {
    const { match, unavailable, name } = readRow(m, checks, signals);
    return scoreMailing(m.v, match, unavailable, addressKeyOf(m.raw, deliveryPointOf(match)), m.history, name, m.liveNeighbour, ctx, memo);
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
 * A chunk's mailings scored (scoreMailings) as the chunk keeps them: what keptChunk makes of
 * them. A row whose model input `memo` has judged before takes that judgement, and only its own
 * parts (corrected address, address report) are written.
 */
export function scoreChunk(rows: readonly ChunkMailing[], checks: ReadonlyMap<string, AddressCheck | Error>, ctx: ScoringContext, memo: ScoreMemo): KeptChunk {
  const judged = memo.of(ctx);
  const signals = new Map<string, NameSignals>();
  // a judgement the memo gave twice is one object: listed by it (two equal ones made apart are listed twice)
  const judgements = new JudgementList<KeptJudgementText>();
  // judgements filled in from a kept one, by the date and neighbour filled in: the chunk's rows of one closure date share one
  const filledIn = new Map<KeptJudgementText, Map<string, KeptJudgementText>>();
  const day = seoulDay(ctx.asOf);
  const kept = rows.map((m): KeptRowText => {
    const { match, unavailable, name } = readRow(m, checks, signals);
    const input = modelInputOf(m.v, match, m.history, name, m.liveNeighbour, day);
    const j = judgementOf(input, unavailable, ctx, judged, filledIn);
    return { judgement: judgements.indexOf(j, j), own: ownText(match?.fixedZipcode ?? null, match?.fixedAddress ?? null, addressReportOf(match, unavailable)), addressKey: addressKeyOf(m.raw, deliveryPointOf(match)) };
  });
  return { judgements: judgements.list, rows: kept };
}

const keptJudgement = ({ assessment, reasons, features }: Judgement): KeptJudgementText => ({
  judged: judgedText(round4(assessment.bounceProb), assessment.grade, assessment.action, reasons, assessment.modelVersion),
  features: JSON.stringify(features),
  grade: assessment.grade,
  modelVersion: assessment.modelVersion,
});

/** A chunk row's judgement: kept from an earlier row with the same model input (or the same but for what shownApart sets apart), or made now and kept. */
function judgementOf(input: AssessmentInput, unavailable: boolean, ctx: ScoringContext, judged: Map<string, KeptJudgement>, filledIn: Map<KeptJudgementText, Map<string, KeptJudgementText>>): KeptJudgementText {
  const apart = shownApart(input);
  if (!apart) {
    const key = inputKey(input, unavailable);
    const had = judged.get(key);
    if (had && had !== EXACT) return had;
    const j = keptJudgement(judge(input, unavailable, ctx));
    judged.set(key, j);
    return j;
  }
  const key = inputKey(apart.keyed, unavailable);
  const template = judged.get(key);
  if (template === EXACT) return keptJudgement(judge(input, unavailable, ctx));
  if (!template) {
    // the template is kept only when it fills in to exactly what judging this row gives
    const j = keptJudgement(judge(input, unavailable, ctx));
    const made = keptJudgement(judge(input, unavailable, ctx, apart.shown));
    judged.set(key, fillIn(made.judged, input) === j.judged && made.features === j.features ? made : EXACT);
    return j;
  }
  let filled = filledIn.get(template);
  if (!filled) filledIn.set(template, (filled = new Map()));
  const at = `${input.closedOn ?? ''}\u0000${input.liveNeighbour ?? ''}`;
  let j = filled.get(at);
  if (!j) filled.set(at, (j = { ...template, judged: fillIn(template.judged, input) }));
  return j;
}

/** A closure date's place in the text of a judgement kept for rows alike but for it (shownApart): private-use characters, as many as a date has. */
const SHOWN_DATE = '\uE000'.repeat(10);
/** A live neighbour's number's place, likewise. */
const SHOWN_NEIGHBOUR = '\uE001'.repeat(10);
/** Kept for inputs whose judgement a template does not give (their texts do more than show the date or number): each judged as it comes. */
const EXACT = 'exact';
type KeptJudgement = KeptJudgementText | typeof EXACT;

/**
 * Inputs that differ only in a closure date or a live neighbour's number share one judgement:
 * the model reads the date only as the bins of the recency curve it falls in and the number only
 * as there being one, and the reasons show each as it is (a list's closed rows have as many
 * dates as rows, and each was judged afresh: ~8 % of a list, most of its judging). `keyed` is the
 * input such a judgement is kept by, `shown` the one its texts are written from, with placeholders
 * that fillIn replaces. Null for an input with neither.
 */
function shownApart(input: AssessmentInput): { keyed: AssessmentInput; shown: AssessmentInput } | null {
  const { closedOn, liveNeighbour } = input;
  if (!closedOn && !liveNeighbour) return null;
  const keyed = { ...input };
  const shown = { ...input };
  if (closedOn) {
    const r = closureRecency(input);
    keyed.closedOn = r ? `D${flag(r.recent)}${flag(r.fresh)}${flag(r.old)}${flag(r.longAgo)}` : 'D';
    shown.closedOn = SHOWN_DATE;
  }
  if (liveNeighbour) {
    keyed.liveNeighbour = 'N';
    shown.liveNeighbour = SHOWN_NEIGHBOUR;
  }
  return { keyed, shown };
}

/** A judgement's text (JSON) written from shownApart's `shown`, with the input's closure date and neighbour in their places. */
function fillIn(text: string, input: AssessmentInput): string {
  let out = text;
  const { closedOn, liveNeighbour } = input;
  if (closedOn) out = out.replaceAll(SHOWN_DATE, () => JSON.stringify(closedOn).slice(1, -1));
  if (liveNeighbour) out = out.replaceAll(formatWithHyphens(SHOWN_NEIGHBOUR), () => JSON.stringify(formatWithHyphens(liveNeighbour)).slice(1, -1));
  return out;
}
