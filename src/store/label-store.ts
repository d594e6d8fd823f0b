// Mailing outcomes recorded by customers, per row of their batch jobs, with the features the
// row was scored on (for refits).
import type { LabelCounts, LabelRecord } from '../domain/label.ts';
import { bool, json, num, str } from './rows.ts';
import { OverSql, type Sql } from './sql.ts';

export class LabelStore extends OverSql {
  /**
   * Records an outcome; labelling the same row again replaces it. The account's tallies per
   * number and address move with it in the same transaction: the old outcome out, the new in.
   */
  put(l: LabelRecord): Promise<{ replaced: boolean }> {
    return this.sql.tx(async (t) => {
      // concurrent first labels of one row must not both count as new
      await t.lock(`label:${l.accountId}:${l.jobId}:${l.rowId}`);
      const old = await t.get('SELECT b_no, address_key, bounced FROM labels WHERE account_id = ? AND job_id = ? AND row_id = ? FOR UPDATE', [l.accountId, l.jobId, l.rowId]);
      await t.run(
        `INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, features, model_version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, job_id, row_id) DO UPDATE SET bounced = excluded.bounced, reason = excluded.reason,
           b_no = excluded.b_no, address_key = excluded.address_key, features = excluded.features,
           model_version = excluded.model_version, updated_at = excluded.updated_at`,
        [l.accountId, l.jobId, l.rowId, l.bno, l.addressKey, l.bounced, l.reason, JSON.stringify(l.features), l.modelVersion, l.at, l.at],
      );
      if (old) await tally(t, l.accountId, String(old.b_no), str(old.address_key), bool(old.bounced), -1);
      await tally(t, l.accountId, l.bno, l.addressKey, l.bounced, 1);
      return { replaced: old !== undefined };
    });
  }

  /** The account's recorded outcomes for a business number and for an address: two rows read, whatever the label count. */
  async counts(accountId: string, bno: string, addressKey: string | null): Promise<LabelCounts> {
    const rows = await this.sql.all(
      `SELECT kind, bounced, delivered FROM label_tallies WHERE account_id = ? AND kind = 'b_no' AND value = ?
       UNION ALL
       SELECT kind, bounced, delivered FROM label_tallies WHERE account_id = ? AND kind = 'address' AND value = ?`,
      [accountId, bno, accountId, addressKey],
    );
    const out: LabelCounts = { bizBounced: 0, bizDelivered: 0, addressBounced: 0, addressDelivered: 0 };
    for (const r of rows) {
      if (r.kind === 'b_no') [out.bizBounced, out.bizDelivered] = [num(r, 'bounced'), num(r, 'delivered')];
      else [out.addressBounced, out.addressDelivered] = [num(r, 'bounced'), num(r, 'delivered')];
    }
    return out;
  }

  /** Labels recorded or changed after `since` (ISO), or all of them. */
  async count(since?: string): Promise<number> {
    if (since) return num(await this.sql.get('SELECT count(*) AS n FROM labels WHERE updated_at > ?', [since]));
    return num(await this.sql.get('SELECT count(*) AS n FROM labels'));
  }

  /**
   * The most recently recorded labels, at most `limit`, for refitting: every label of a row the
   * model scored (a row scored as the reference case has no features, and counts all the same);
   * rows never scored (no name) have no model version and say nothing about the model.
   */
  async forFit(limit: number): Promise<{ accountId: string; features: Record<string, number>; bounced: boolean }[]> {
    const rows = await this.sql.all('SELECT account_id, features, bounced FROM labels WHERE model_version IS NOT NULL ORDER BY updated_at DESC LIMIT ?', [limit]);
    return rows.map((r) => ({ accountId: String(r.account_id), features: json<Record<string, number>>(r.features), bounced: bool(r.bounced) }));
  }
}

/** Adds one outcome (`by` = 1) to, or takes one (`by` = −1) from, the account's tallies for its number and address. */
async function tally(t: Sql, accountId: string, bno: string, addressKey: string | null, bounced: boolean, by: 1 | -1): Promise<void> {
  const column = bounced ? 'bounced' : 'delivered';
  for (const [kind, value] of [['b_no', bno], ['address', addressKey]] as const) {
    if (value === null) continue;
    // a taking-back updates the row its outcome was added to (an insert of −1 would fail its CHECK before the conflict is seen)
    if (by < 0) await t.run(`UPDATE label_tallies SET ${column} = ${column} - 1 WHERE account_id = ? AND kind = ? AND value = ?`, [accountId, kind, value]);
    else {
      await t.run(
        `INSERT INTO label_tallies (account_id, kind, value, bounced, delivered) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account_id, kind, value) DO UPDATE SET ${column} = label_tallies.${column} + 1`,
        [accountId, kind, value, bounced ? 1 : 0, bounced ? 0 : 1],
      );
    }
  }
}
