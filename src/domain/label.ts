// Mailing outcomes customers record, and what a refit keeps per account.
import type { ReturnCause } from './return-reason.ts';

/** A recorded mailing outcome for one row of a batch job, with what the row was scored on. */
export interface LabelRecord {
  accountId: string;
  jobId: string;
  rowId: number;
  bno: string;
  /** building id of the matched address, or the normalised input; null without an address */
  addressKey: string | null;
  bounced: boolean;
  reason: string | null;
  /** what `reason` names (return-reason.ts), null when it names nothing */
  cause: ReturnCause | null;
  features: Record<string, number>;
  modelVersion: string | null;
  at: string;
}

export interface LabelCounts {
  bizBounced: number;
  bizDelivered: number;
  /** of the business's bounces, those whose reason says it is gone, and those that say nobody was in (causeKind) */
  bizGone: number;
  bizAbsent: number;
  addressBounced: number;
  addressDelivered: number;
}

export interface AccountOffset {
  accountId: string;
  modelVersion: string;
  offset: number;
  /** the account's shifts of feature weights (see fitAccountAdjustment) */
  weights: Record<string, number>;
  trainedOn: number;
  createdAt: string;
}

/** One outcome in a bulk request: the row by its id, or every row of the job with the number. */
export interface LabelItem {
  /** 1-based position in the request, or the file's data row, for reporting */
  at: number;
  rowId: number | null;
  /** the row id cell as written, when the file has one that is not a row number (0, -5, 'abc') */
  rowIdWritten?: string;
  /** ten digits, or the cell as written when it is not a business number */
  bno: string | null;
  /** null: take it from the reason (a 반송 사유 is a bounce), or the request's default */
  bounced: boolean | null;
  reason: string | null;
}

export type LabelRejectionCode = 'no_row' | 'no_outcome' | 'not_in_job' | 'not_processed' | 'number_mismatch';

/** A bulk item that was not recorded, and why. */
export interface LabelRejection {
  at: number;
  rowId: number | null;
  bno: string | null;
  code: LabelRejectionCode;
  detail: string;
}
