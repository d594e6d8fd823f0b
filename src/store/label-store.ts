// Mailing outcomes recorded by customers, per row of their batch jobs, with the features the
// row was scored on (for refits).
import type { LabelCounts, LabelRecord } from '../domain/label.ts';
import { bool, json, num } from './rows.ts';
import { OverSql } from './sql.ts';

export class LabelStore extends OverSql {
  /** Records an outcome; labelling the same row again replaces it. */
  put(l: LabelRecord): Promise<{ replaced: boolean }> {
    return this.sql.tx(async (t) => {
      const existed = (await t.get('SELECT 1 AS x FROM labels WHERE account_id = ? AND job_id = ? AND row_id = ? FOR UPDATE', [l.accountId, l.jobId, l.rowId])) !== undefined;
      await t.run(
        `INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, features, model_version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, job_id, row_id) DO UPDATE SET bounced = excluded.bounced, reason = excluded.reason,
           b_no = excluded.b_no, address_key = excluded.address_key, features = excluded.features,
           model_version = excluded.model_version, updated_at = excluded.updated_at`,
        [l.accountId, l.jobId, l.rowId, l.bno, l.addressKey, l.bounced, l.reason, JSON.stringify(l.features), l.modelVersion, l.at, l.at],
      );
      return { replaced: existed };
    });
  }

  /** The account's recorded outcomes for a business number and for an address. */
  async counts(accountId: string, bno: string, addressKey: string | null): Promise<LabelCounts> {
    const r = await this.sql.get(
      `SELECT count(*) FILTER (WHERE b_no = ? AND bounced) AS bb,
              count(*) FILTER (WHERE b_no = ? AND NOT bounced) AS bd,
              count(*) FILTER (WHERE address_key = ? AND bounced) AS ab,
              count(*) FILTER (WHERE address_key = ? AND NOT bounced) AS ad
         FROM labels WHERE account_id = ? AND (b_no = ? OR address_key = ?)`,
      [bno, bno, addressKey, addressKey, accountId, bno, addressKey],
    );
    return { bizBounced: num(r, 'bb'), bizDelivered: num(r, 'bd'), addressBounced: num(r, 'ab'), addressDelivered: num(r, 'ad') };
  }

  /** Labels recorded or changed after `since` (ISO), or all of them. */
  async count(since?: string): Promise<number> {
    if (since) return num(await this.sql.get('SELECT count(*) AS n FROM labels WHERE updated_at > ?', [since]));
    return num(await this.sql.get('SELECT count(*) AS n FROM labels'));
  }

  /**
   * The most recently recorded labels, at most `limit`, for refitting. Labels of rows that were
   * never scored (no name, so no features) say nothing about the model and are left out.
   */
  async forFit(limit: number): Promise<{ accountId: string; features: Record<string, number>; bounced: boolean }[]> {
    const rows = await this.sql.all("SELECT account_id, features, bounced FROM labels WHERE features <> '{}'::jsonb ORDER BY updated_at DESC LIMIT ?", [limit]);
    return rows.map((r) => ({ accountId: String(r.account_id), features: json<Record<string, number>>(r.features), bounced: bool(r.bounced) }));
  }
}
