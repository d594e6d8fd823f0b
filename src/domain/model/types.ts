// The bounce-risk model's inputs and outputs. Everything here is data; the model is pure.
import type { EntityKind } from '../bizno.ts';
import type { BuildingKind, MatchQuality, NotFoundWhy } from '../address/types.ts';
import type { NameSignals } from '../name-signals.ts';
import type { BizStatus } from '../verification.ts';

/** Everything known about one mailing, gathered before scoring. */
export interface AssessmentInput {
  status: BizStatus;
  /** YYYY-MM-DD when closed, else null */
  closedOn: string | null;
  /** NTS tax_type_cd: 01 일반, 02 간이, 03 과세특례, 04 면세, 05/06/07 …, '' unknown */
  taxTypeCode: string;
  entityKind: EntityKind;
  /** 'no_address' when no address was sent */
  addressQuality: MatchQuality | 'no_address';
  /** number of components the matcher changed */
  addressChanges: number;
  missingBuildingNumber: boolean;
  missingUnit: boolean;
  zipMismatch: boolean;
  outdatedZip: boolean;
  /** the address names the building's road as it was before a renaming (address/types.ts) */
  formerRoad: boolean;
  /** an unregistered number's operating neighbour, two swapped digits away (bizno.ts), or null */
  liveNeighbour: string | null;
  /** how the address was written: 지번 (lot) form marks a record not updated since 2014 */
  addressForm: 'road' | 'jibun' | 'unknown' | null;
  /** not_found only: why (address/types.ts) */
  notFound: NotFoundWhy | null;
  /** the building's kind from its names (address/types.ts) */
  buildingKind: BuildingKind;
  /** the matched building is in a 읍 or 면 (address/types.ts) */
  rural: boolean;
  /** what the name says (name-signals.ts): legal form vs the number, closure words, trade, branch */
  name: NameSignals;
  /** the account's own recorded outcomes for this business number and for this address */
  history: { bizBounced: number; bizDelivered: number; bizGone: number; bizAbsent: number; addressBounced: number; addressDelivered: number };
  /** date of the assessment, YYYY-MM-DD (for closure recency) */
  asOf: string;
}

/** A fitted logistic model: versioned, serialisable, applied by score(). */
export interface ModelParams {
  version: string;
  /** 'prior' for the built-in model, 'global' after refits, 'account' for an account's adjusted copy */
  kind: 'prior' | 'global' | 'account';
  intercept: number;
  /** weight per feature name; features absent here weigh 0 */
  weights: Record<string, number>;
  /** pairs of features learned to weigh together (pairs.ts); each pair's weight is under its pairName */
  pairs?: [string, string][];
  /** labels the fit used (0 for the prior) */
  trainedOn: number;
  createdAt: string;
}

/** An account's own adjustment of a model (fit.ts's fitAccountAdjustment): a shift of its intercept and of feature weights. */
export interface AccountAdjustment {
  offset: number;
  /** added to the model's weights for this account's mailings only; absent features 0 */
  weights: Record<string, number>;
}

export interface Contribution {
  /** short label used in reasons, e.g. closed, address_corrected */
  label: string;
  /** signed contribution to the log-odds */
  weight: number;
  text: { ko: string; en: string };
  source: 'nts' | 'address' | 'labels' | 'model' | 'input';
}

export interface Assessment {
  bounceProb: number;
  grade: 'A' | 'B' | 'C' | 'D' | 'E';
  action: 'send' | 'send_fixed_address' | 'confirm_address' | 'hold' | 'do_not_send';
  /** includes the model's baseline, so the weights add up to logit(bounceProb) */
  contributions: Contribution[];
  modelVersion: string;
}
