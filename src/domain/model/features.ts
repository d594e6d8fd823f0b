// Turns what is known about one mailing into the named numbers the logistic model weighs.
// Features are indicators against a reference case (an active, corporate, general-VAT business
// at an exactly matched address with no history), so every weight reads as "this much more
// log-odds of a bounce than the reference". Only non-zero features are returned.
import { isCorporate } from '../bizno.ts';
import type { FeatureName } from './feature-text.ts';
import type { AssessmentInput } from './types.ts';

const DAY_MS = 86_400_000;
/**
 * Closure recency buckets. Within a year of closing, the owner (for individual businesses the
 * registered address is often the home) or the landlord usually still takes the mail; after
 * three years the premises have typically been re-let and mail comes back 수취인 불명. Between
 * the two the status weight alone applies. The edges are round numbers, not fitted.
 */
export const CLOSED_RECENT_DAYS = 365;
export const CLOSED_OLD_DAYS = 3 * 365 + 1;
/**
 * The ends of the recency curve, refining the two buckets above: within three months of closing
 * the premises are usually still let and mail is collected; after five years hardly anyone
 * there knows the business.
 */
export const CLOSED_FRESH_DAYS = 90;
export const CLOSED_LONG_AGO_DAYS = 5 * 365 + 1;
/** Beyond three changed components a correction is a different address; more adds no evidence. */
export const ADDRESS_CHANGES_CAP = 3;

export const STATUS_FEATURE: Readonly<Record<AssessmentInput['status'], FeatureName | null>> = {
  active: null,
  suspended: 'status_suspended',
  closed: 'status_closed',
  converted: 'status_converted',
  unregistered: 'status_unregistered',
  unknown: 'status_unknown',
  invalid: 'status_invalid',
};

export const ADDRESS_FEATURE: Readonly<Record<AssessmentInput['addressQuality'], FeatureName | null>> = {
  exact: null,
  corrected: 'address_corrected',
  ambiguous: 'address_ambiguous',
  not_found: 'address_not_found',
  no_address: 'no_address',
};

/** Days from `from` to `to` (both YYYY-MM-DD), or null when either is not a date. */
export function daysBetween(from: string, to: string): number | null {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(a) || !Number.isFinite(b) || !/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return null;
  return Math.round((b - a) / DAY_MS);
}

const count = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/**
 * log((b+1)/(d+1)): 0 without history or with as many deliveries as bounces, growing slowly
 * with more evidence either way, so a logistic weight on it acts like a smoothed log-odds ratio
 * and ten bounces do not count ten times as much as one.
 */
export function historyScore(bounced: number, delivered: number): number {
  return Math.log1p(count(bounced)) - Math.log1p(count(delivered));
}

/**
 * The bins of the closure-recency curve a closed business's closure date falls in, as of the
 * input's day: all that the date means to the model (null: not closed, or no readable date).
 */
export function closureRecency(input: Pick<AssessmentInput, 'status' | 'closedOn' | 'asOf'>): { recent: boolean; fresh: boolean; old: boolean; longAgo: boolean } | null {
  if (input.status !== 'closed' || !input.closedOn) return null;
  const days = daysBetween(input.closedOn, input.asOf);
  // a closure dated after asOf (clock or data skew) is as fresh as a closure gets
  if (days === null) return null;
  return { recent: days <= CLOSED_RECENT_DAYS, fresh: days <= CLOSED_FRESH_DAYS, old: days >= CLOSED_OLD_DAYS, longAgo: days >= CLOSED_LONG_AGO_DAYS };
}

export function featurize(input: AssessmentInput): Map<string, number> {
  const f = new Map<string, number>();
  const set = (name: FeatureName, value: number | boolean): void => {
    const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    if (v !== 0 && Number.isFinite(v)) f.set(name, v);
  };

  const status = STATUS_FEATURE[input.status];
  if (status) set(status, 1);
  const recency = closureRecency(input);
  if (recency) {
    set('closed_recent', recency.recent);
    set('closed_fresh', recency.fresh);
    set('closed_old', recency.old);
    set('closed_long_ago', recency.longAgo);
  }
  // an individual's registered address is often the owner's home: after closing, someone still
  // lives there and takes the mail, where a closed company's office is let to someone else
  // a mistyped number of an operating business: the address is still the business's
  set('unregistered_near_live', input.status === 'unregistered' && input.liveNeighbour !== null);
  set('closed_individual', input.status === 'closed' && !isCorporate(input.entityKind) && input.entityKind !== 'other');

  // 03 과세특례 was the pre-2000 predecessor of 간이과세, and 07 is a 간이과세자 that issues tax
  // invoices (turnover 48M–104M KRW since 2021): the same small-business population
  set('tax_simplified', input.taxTypeCode === '02' || input.taxTypeCode === '03' || input.taxTypeCode === '07');
  set('tax_exempt', input.taxTypeCode === '04');
  // 05 non-profit bodies without profit-making business and public agencies, 06 other 고유번호
  // holders: organisations, not VAT businesses at all
  set('tax_nonprofit', input.taxTypeCode === '05' || input.taxTypeCode === '06');
  // 'other' (80: apartment management offices and similar) is neither; it stays at the reference
  set('entity_individual', !isCorporate(input.entityKind) && input.entityKind !== 'other');

  const quality = ADDRESS_FEATURE[input.addressQuality];
  if (quality) set(quality, 1);
  const matched = input.addressQuality === 'exact' || input.addressQuality === 'corrected';
  if (matched) set('address_changes', Math.min(count(input.addressChanges), ADDRESS_CHANGES_CAP));
  if (input.addressQuality !== 'no_address') {
    set('missing_building_number', input.missingBuildingNumber);
    set('missing_unit', input.missingUnit);
    // without 동/호 an apartment or officetel letter has hundreds of boxes to choose from
    set('missing_unit_apartment', input.missingUnit && (input.buildingKind === 'apartment' || input.buildingKind === 'officetel'));
    set('jibun_form', input.addressForm === 'jibun');
    set('zip_mismatch', input.zipMismatch);
    set('outdated_zip', input.outdatedZip);
    set('former_road_name', input.formerRoad);
  }

  // Together these often mean the site itself is gone (redevelopment, demolition), which the
  // two separate weights may over- or under-state; labels decide, the prior says nothing.
  set('closed_address_not_found', input.status === 'closed' && input.addressQuality === 'not_found');
  // a road the directory does not know is often a typo or a renamed road the carrier still knows
  set('not_found_unknown_road', input.addressQuality === 'not_found' && input.notFound === 'unknown_road');

  // buildings let in small units to many small tenants that come and go: the business a list
  // names has more often left, and the next tenant or the management returns its letter
  set('building_officetel', input.buildingKind === 'officetel');
  set('building_knowledge_center', input.buildingKind === 'knowledge_center');
  // a business closed at a home (an apartment or a 다세대/연립: the directory's 공동주택 or its
  // name): the household is still there and takes the mail
  set('closed_residential', input.status === 'closed' && (input.buildingKind === 'apartment' || input.buildingKind === 'villa'));
  // a 읍 or 면: the carrier of a rural round knows the people on it by name and finds them
  // whatever the address says, and businesses there move less
  set('area_rural', input.rural);

  set('name_entity_mismatch', input.name.entityMismatch);
  set('name_closure_hint', input.name.closureHint);
  if (input.name.trade) set(`trade_${input.name.trade}`, 1);
  set('name_branch', input.name.branch);

  const h = input.history;
  set('biz_history', historyScore(h.bizBounced, h.bizDelivered));
  // what the returned letters said: the business left (이사불명, 수취인불명, 폐업) or nobody was in (폐문부재)
  set('biz_history_gone', Math.log1p(count(h.bizGone)));
  set('biz_history_absent', Math.log1p(count(h.bizAbsent)));
  set('address_history', historyScore(h.addressBounced, h.addressDelivered));
  return f;
}
