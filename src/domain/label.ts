// Mailing outcomes customers record, and what a refit keeps per account.

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
  features: Record<string, number>;
  modelVersion: string | null;
  at: string;
}

export interface LabelCounts {
  bizBounced: number;
  bizDelivered: number;
  addressBounced: number;
  addressDelivered: number;
}

export interface AccountOffset {
  accountId: string;
  modelVersion: string;
  offset: number;
  trainedOn: number;
  createdAt: string;
}
