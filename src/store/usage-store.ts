// Monthly usage counters: what each account spent and billed beyond its plan. The store locks
// and adds; what may be granted is decided in domain/charges.ts.
import type { Reservation, Usage } from '../domain/account.ts';
import { grantUpTo } from '../domain/charges.ts';
import { OverSql, type Sql } from './sql.ts';

/** Creates the month's counter if missing and locks it for the rest of the transaction. */
export async function lockUsage(t: Sql, accountId: string, month: string): Promise<Usage> {
  await t.run('INSERT INTO usage_months (account_id, month) VALUES (?, ?) ON CONFLICT (account_id, month) DO NOTHING', [accountId, month]);
  const r = await t.get('SELECT used, overage FROM usage_months WHERE account_id = ? AND month = ? FOR UPDATE', [accountId, month]);
  return { used: Number(r?.used ?? 0), overage: Number(r?.overage ?? 0) };
}

/** The month's lookups used so far, read without a lock (a guess that lockUsage then settles). */
export async function usedSoFar(t: Sql, accountId: string, month: string): Promise<number> {
  return Number((await t.get('SELECT used FROM usage_months WHERE account_id = ? AND month = ?', [accountId, month]))?.used ?? 0);
}

/**
 * `day` (Seoul "YYYY-MM-DD"): also counted on the day's counter, which the console draws; the
 * month's stays what the quota is enforced on.
 */
export async function addUsage(t: Sql, accountId: string, month: string, used: number, overage: number, day?: string): Promise<void> {
  if (used === 0 && overage === 0) return;
  await t.run('UPDATE usage_months SET used = used + ?, overage = overage + ? WHERE account_id = ? AND month = ?', [used, overage, accountId, month]);
  await addDay(t, accountId, day, used + overage);
}

/** Gives lookups back; a counter never goes below zero (an operator may have reset it). A refund counts on the day it is given. */
export async function takeBackUsage(t: Sql, accountId: string, month: string, used: number, overage: number, day?: string): Promise<void> {
  if (used === 0 && overage === 0) return;
  await t.run('UPDATE usage_months SET used = greatest(used - ?, 0), overage = greatest(overage - ?, 0) WHERE account_id = ? AND month = ?', [
    used, overage, accountId, month,
  ]);
  if (day) await t.run('UPDATE usage_days SET lookups = greatest(lookups - ?, 0) WHERE account_id = ? AND day = ?', [used + overage, accountId, day]);
}

async function addDay(t: Sql, accountId: string, day: string | undefined, n: number): Promise<void> {
  if (!day || n <= 0) return;
  await t.run(
    `INSERT INTO usage_days (account_id, day, lookups) VALUES (?, ?, ?)
     ON CONFLICT (account_id, day) DO UPDATE SET lookups = usage_days.lookups + excluded.lookups`,
    [accountId, day, n],
  );
}

export class UsageStore extends OverSql {
  /**
   * Atomically adds `n` lookups to the month's counter if that keeps it within `limit`.
   * Exact under concurrency from any number of processes: either all `n` are granted or none.
   */
  async reserve(accountId: string, month: string, n: number, limit: number, day?: string): Promise<Reservation> {
    const used = await this.#addIfWithin(accountId, month, n, limit);
    if (used !== null) {
      await addDay(this.sql, accountId, day, n);
      return { granted: true, used };
    }
    return { granted: n === 0, used: (await this.get(accountId, month)).used };
  }

  /**
   * Adds all `n` if that stays within `limit`, in one statement: the conflicting row is locked and
   * the WHERE re-evaluated on its latest version, so concurrent reservations serialise on it
   * exactly. The month's count after, or null when they did not fit.
   */
  async #addIfWithin(accountId: string, month: string, n: number, limit: number): Promise<number | null> {
    if (n <= 0 || n > limit) return null;
    const r = await this.sql.get(
      `INSERT INTO usage_months (account_id, month, used) VALUES (?, ?, ?)
       ON CONFLICT (account_id, month) DO UPDATE SET used = usage_months.used + excluded.used
        WHERE usage_months.used + excluded.used <= ?
       RETURNING used`,
      [accountId, month, n, limit],
    );
    return r ? Number(r.used) : null;
  }

  /**
   * Atomically adds as many of `n` lookups as fit within `limit` (possibly none) and says how
   * many that was. Lets many concurrent single lookups share one write (see Quota).
   */
  async reserveUpTo(accountId: string, month: string, n: number, limit: number, day?: string): Promise<{ granted: number; used: number }> {
    // far from the limit (nearly always) all of them fit: one statement, no transaction; this is
    // every POST /verify's write, and a transaction's round trips held the row lock for longer
    const whole = await this.#addIfWithin(accountId, month, n, limit);
    if (whole !== null) {
      await addDay(this.sql, accountId, day, n);
      return { granted: n, used: whole };
    }
    // at the limit: lock the counter and grant what fits
    return this.sql.tx(async (t) => {
      const before = await lockUsage(t, accountId, month);
      const granted = grantUpTo(before.used, n, limit);
      await addUsage(t, accountId, month, granted, 0, day);
      return { granted, used: before.used + granted };
    });
  }

  /** Gives back lookups that were reserved but not answered. */
  async refund(accountId: string, month: string, n: number, day?: string): Promise<void> {
    await takeBackUsage(this.sql, accountId, month, n, 0, day);
  }

  /** Lookups per Seoul day from `from` to `to` (inclusive, "YYYY-MM-DD"); days without any are absent. */
  async days(accountId: string, from: string, to: string): Promise<{ day: string; lookups: number }[]> {
    const rows = await this.sql.all('SELECT day, lookups FROM usage_days WHERE account_id = ? AND day >= ? AND day <= ? ORDER BY day', [accountId, from, to]);
    return rows.map((r) => ({ day: String(r.day), lookups: Number(r.lookups) }));
  }

  async get(accountId: string, month: string): Promise<Usage> {
    const r = await this.sql.get('SELECT used, overage FROM usage_months WHERE account_id = ? AND month = ?', [accountId, month]);
    return { used: Number(r?.used ?? 0), overage: Number(r?.overage ?? 0) };
  }
}
