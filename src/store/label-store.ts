// Mailing outcomes recorded by customers, per row of their batch jobs, with the features the
// row was scored on (for refits).
import type { LabelCounts, LabelRecord } from '../domain/label.ts';
import { causeKind, type ReturnCause } from '../domain/return-reason.ts';
import { bool, json, num, str } from './rows.ts';
import { OverSql, type Sql } from './sql.ts';

export class LabelStore extends OverSql {
  /** Records one outcome (see putMany). */
  async put(l: LabelRecord): Promise<{ replaced: boolean }> {
    return { replaced: (await this.putMany([l])).replaced > 0 };
  }

  /**
   * Records outcomes of rows of one job, all or none; labelling a row again replaces its label.
   * The account's tallies per number and address move in the same transaction: each old outcome
   * out, each new one in, summed per tally first so a thousand labels make a few statements.
   * `labels` must be of one account and one job, one label per row.
   */
  putMany(labels: readonly LabelRecord[]): Promise<{ replaced: number }> {
    const first = labels[0];
    if (!first) return Promise.resolve({ replaced: 0 });
    return this.sql.tx(async (t) => {
      // Concurrent labels of a row must not both count it as new. One label holds its row and
      // shares the account; many hold the account (a lock per row of thousands would cost more
      // than the writes), so their tallies can be written in any order without a deadlock.
      const account = `labels:${first.accountId}`;
      const exclusive = labels.length > 1;
      if (exclusive) await t.lock(account);
      else {
        await t.lock(account, 'shared');
        await t.lock(`${account}:${first.jobId}:${first.rowId}`);
      }
      const tallies = new Tallies();
      let replaced = 0;
      for (let i = 0; i < labels.length; i += BATCH) {
        const part = labels.slice(i, i + BATCH);
        const rowIds = part.map((l) => l.rowId);
        const old = await t.all(
          `SELECT b_no, address_key, bounced, cause FROM labels WHERE account_id = ? AND job_id = ? AND row_id IN (${rowIds.map(() => '?').join(', ')}) FOR UPDATE`,
          [first.accountId, first.jobId, ...rowIds],
        );
        for (const o of old) tallies.add(String(o.b_no), str(o.address_key), bool(o.bounced), str(o.cause) as ReturnCause | null, -1);
        replaced += old.length;
        await t.run(
          `INSERT INTO labels (account_id, job_id, row_id, b_no, address_key, bounced, reason, cause, features, model_version, created_at, updated_at)
           VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
           ON CONFLICT (account_id, job_id, row_id) DO UPDATE SET bounced = excluded.bounced, reason = excluded.reason, cause = excluded.cause,
             b_no = excluded.b_no, address_key = excluded.address_key, features = excluded.features,
             model_version = excluded.model_version, updated_at = excluded.updated_at`,
          part.flatMap((l) => [l.accountId, l.jobId, l.rowId, l.bno, l.addressKey, l.bounced, l.reason, l.cause, JSON.stringify(l.features), l.modelVersion, l.at, l.at]),
        );
        for (const l of part) tallies.add(l.bno, l.addressKey, l.bounced, l.cause, 1);
      }
      await tallies.write(t, first.accountId, exclusive);
      return { replaced };
    });
  }

  /** The account's recorded outcomes for a business number and for an address: two rows read, whatever the label count. */
  async counts(accountId: string, bno: string, addressKey: string | null): Promise<LabelCounts> {
    return (await this.countsMany(accountId, [{ bno, addressKey }]))[0]!;
  }

  /**
   * counts() of many mailings in one statement (a batch chunk's): the tallies of their distinct
   * numbers and addresses, read by index, whatever the account's label count.
   */
  async countsMany(accountId: string, mailings: readonly { bno: string; addressKey: string | null }[]): Promise<LabelCounts[]> {
    const bnos = [...new Set(mailings.map((m) => m.bno))];
    const keys = [...new Set(mailings.flatMap((m) => (m.addressKey === null ? [] : [m.addressKey])))];
    // a single lookup's (POST /verify) by plain values: on SQLite the lists' json_each costs four
    // times the statement itself (4.2 against 1.1 µs, measured alone)
    const one = bnos.length === 1 && keys.length <= 1;
    const value = one ? 'value = ?' : 'value = ANY(?::text[])';
    const rows = await this.sql.all(
      `SELECT kind, value, bounced, delivered, gone, absent FROM label_tallies WHERE account_id = ? AND kind = 'b_no' AND ${value}
       UNION ALL
       SELECT kind, value, bounced, delivered, gone, absent FROM label_tallies WHERE account_id = ? AND kind = 'address' AND ${value}`,
      one ? [accountId, bnos[0], accountId, keys[0] ?? null] : [accountId, bnos, accountId, keys],
    );
    const byNumber = new Map<string, Record<string, unknown>>();
    const byAddress = new Map<string, Record<string, unknown>>();
    for (const r of rows) (r.kind === 'b_no' ? byNumber : byAddress).set(String(r.value), r);
    return mailings.map((m) => {
      const b = byNumber.get(m.bno);
      const a = m.addressKey === null ? undefined : byAddress.get(m.addressKey);
      return {
        bizBounced: b ? num(b, 'bounced') : 0, bizDelivered: b ? num(b, 'delivered') : 0, bizGone: b ? num(b, 'gone') : 0, bizAbsent: b ? num(b, 'absent') : 0,
        addressBounced: a ? num(a, 'bounced') : 0, addressDelivered: a ? num(a, 'delivered') : 0,
      };
    });
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
  async forFit(limit: number): Promise<{ accountId: string; features: Record<string, number>; bounced: boolean; cause: ReturnCause | null }[]> {
    const rows = await this.sql.all('SELECT account_id, features, bounced, cause FROM labels WHERE model_version IS NOT NULL ORDER BY updated_at DESC LIMIT ?', [limit]);
    return rows.map((r) => ({ accountId: String(r.account_id), features: json<Record<string, number>>(r.features), bounced: bool(r.bounced), cause: str(r.cause) as ReturnCause | null }));
  }
}

/**
 * In the caller's transaction: a deleted job's labels keep what the model was fed (number,
 * outcome, cause, features) and lose their address — taken out of the account's address tallies,
 * a tally left at zero deleted with it — and their free-text reason. Returns how many labels.
 */
export async function forgetJobAddresses(t: Sql, accountId: string, jobId: string): Promise<number> {
  // the account's tallies are written by no one else meanwhile (see putMany)
  await t.lock(`labels:${accountId}`);
  const tallies = new Tallies();
  for (const r of await t.all('SELECT address_key, bounced, cause FROM labels WHERE account_id = ? AND job_id = ? AND address_key IS NOT NULL', [accountId, jobId])) {
    tallies.add(null, String(r.address_key), bool(r.bounced), str(r.cause) as ReturnCause | null, -1);
  }
  await tallies.write(t, accountId, true);
  await t.run("DELETE FROM label_tallies WHERE account_id = ? AND kind = 'address' AND bounced = 0 AND delivered = 0 AND gone = 0 AND absent = 0", [accountId]);
  return t.run('UPDATE labels SET address_key = NULL, reason = NULL WHERE account_id = ? AND job_id = ?', [accountId, jobId]);
}

// rows a statement carries: 12 parameters each stays far below either engine's limit
const BATCH = 500;

interface Delta {
  kind: 'b_no' | 'address';
  value: string;
  bounced: number;
  delivered: number;
  gone: number;
  absent: number;
}

/** Changes to an account's tallies, summed per (kind, value) before they are written. */
class Tallies {
  readonly #d = new Map<string, Delta>();

  /** One outcome in (`by` = 1) or out (`by` = −1) of its number's and its address's tallies. */
  add(bno: string | null, addressKey: string | null, bounced: boolean, cause: ReturnCause | null, by: 1 | -1): void {
    const kind = bounced ? causeKind(cause) : null;
    for (const [of, value] of [['b_no', bno], ['address', addressKey]] as const) {
      if (value === null) continue;
      const key = `${of}\u0000${value}`;
      let d = this.#d.get(key);
      if (!d) this.#d.set(key, (d = { kind: of, value, bounced: 0, delivered: 0, gone: 0, absent: 0 }));
      if (bounced) d.bounced += by;
      else d.delivered += by;
      if (kind) d[kind] += by;
    }
  }

  /**
   * Writes the changes. `exclusive`: no other transaction changes the account's tallies meanwhile, so
   * the changes go in a few statements; otherwise they go one key at a time in key order, so that
   * two transactions changing the same tallies take their row locks in the same order.
   */
  async write(t: Sql, accountId: string, exclusive: boolean): Promise<void> {
    const grow: Delta[] = [];
    const shrink: Delta[] = [];
    for (const key of [...this.#d.keys()].toSorted()) {
      const d = this.#d.get(key)!;
      if (d.bounced === 0 && d.delivered === 0 && d.gone === 0 && d.absent === 0) continue;
      // a taking-back updates the row its outcome was added to (an insert of −1 would fail its CHECK before the conflict is seen)
      const list = d.bounced >= 0 && d.delivered >= 0 && d.gone >= 0 && d.absent >= 0 ? grow : shrink;
      list.push(d);
      if (!exclusive) await (list === grow ? insert : update)(t, accountId, list.splice(0));
    }
    for (let i = 0; i < shrink.length; i += BATCH) await update(t, accountId, shrink.slice(i, i + BATCH));
    for (let i = 0; i < grow.length; i += BATCH) await insert(t, accountId, grow.slice(i, i + BATCH));
  }
}

/** Adds non-negative changes to tallies, creating them where missing. */
async function insert(t: Sql, accountId: string, ds: readonly Delta[]): Promise<void> {
  await t.run(
    `INSERT INTO label_tallies (account_id, kind, value, bounced, delivered, gone, absent) VALUES ${ds.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
     ON CONFLICT (account_id, kind, value) DO UPDATE SET bounced = label_tallies.bounced + excluded.bounced, delivered = label_tallies.delivered + excluded.delivered,
       gone = label_tallies.gone + excluded.gone, absent = label_tallies.absent + excluded.absent`,
    ds.flatMap((d) => [accountId, d.kind, d.value, d.bounced, d.delivered, d.gone, d.absent]),
  );
}

/** Adds changes to tallies that exist (every taking-back is of an outcome added before). */
async function update(t: Sql, accountId: string, ds: readonly Delta[]): Promise<void> {
  await t.run(
    `UPDATE label_tallies SET bounced = label_tallies.bounced + v.column3, delivered = label_tallies.delivered + v.column4,
         gone = label_tallies.gone + v.column5, absent = label_tallies.absent + v.column6
       FROM (VALUES ${ds.map(() => '(?, ?, CAST(? AS integer), CAST(? AS integer), CAST(? AS integer), CAST(? AS integer))').join(', ')}) AS v
      WHERE label_tallies.account_id = ? AND label_tallies.kind = v.column1 AND label_tallies.value = v.column2`,
    [...ds.flatMap((d) => [d.kind, d.value, d.bounced, d.delivered, d.gone, d.absent]), accountId],
  );
}
