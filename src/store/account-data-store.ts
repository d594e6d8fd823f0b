// Everything held about one account, for its export and its closure. The export reads each table
// that holds the account's data, a page at a time, leaving out what must never leave the service
// (key hashes, the webhook signing secret, the console password hash, session ids); a job's rows
// are exported decoded, by batch/ (its chunks are an encoding). JSON columns come out as values. Closure deletes the keys first,
// so nothing can act for the account while the rest goes, then the account, which every table
// that holds its data references with ON DELETE CASCADE.
import { json, type Row } from './rows.ts';
import { OverSql } from './sql.ts';

/** What is exported of each table: how to select the account's rows, in a stable order, and what to leave out. */
const TABLES: readonly { type: string; from: string; where: string; order: string; omit: readonly string[]; json?: readonly string[] }[] = [
  { type: 'account', from: 'accounts t', where: 't.id = ?', order: 't.id', omit: [] },
  { type: 'console_login', from: 'console_logins t', where: 't.account_id = ?', order: 't.account_id', omit: ['password_hash'] },
  { type: 'api_key', from: 'api_keys t', where: 't.account_id = ?', order: 't.id', omit: ['hash'] },
  { type: 'usage', from: 'usage_months t', where: 't.account_id = ?', order: 't.month', omit: [] },
  { type: 'usage_day', from: 'usage_days t', where: 't.account_id = ?', order: 't.day', omit: [] },
  { type: 'batch_job', from: 'batch_jobs t', where: "t.account_id = ? AND t.status <> 'uploading'", order: 't.created_at, t.id', omit: ['upload_lease_until'], json: ['columns', 'chosen', 'file_report'] },
  { type: 'label', from: 'labels t', where: 't.account_id = ?', order: 't.job_id, t.row_id', omit: [], json: ['features'] },
  { type: 'watch', from: 'watches t', where: 't.account_id = ?', order: 't.created_at, t.id', omit: ['lease_holder', 'lease_expires_at'], json: ['state'] },
  { type: 'watch_history', from: 'watch_history t JOIN watches w ON w.id = t.watch_id', where: 'w.account_id = ?', order: 't.id', omit: [], json: ['state', 'previous'] },
  { type: 'webhook_endpoint', from: 'webhook_endpoints t', where: 't.account_id = ?', order: 't.account_id', omit: ['secret'], json: ['enabled_events'] },
  { type: 'webhook_delivery', from: 'webhook_deliveries t', where: 't.account_id = ?', order: 't.created_at, t.id', omit: ['lease_holder', 'lease_expires_at'] },
  { type: 'webhook_attempt', from: 'webhook_attempts t JOIN webhook_deliveries d ON d.id = t.delivery_id', where: 'd.account_id = ?', order: 't.id', omit: [] },
  { type: 'evidence', from: 'evidence t', where: 't.account_id = ?', order: 't.created_at, t.id', omit: [], json: ['record'] },
];

const PAGE = 1000;

/** What is held about one account, read for its export and deleted on its closure. */
export interface AccountData {
  rows(accountId: string): AsyncGenerator<{ type: string; row: Row }>;
  delete(accountId: string): Promise<boolean>;
}

export class AccountDataStore extends OverSql implements AccountData {
  /** Every exported row of the account, table by table: { type, row } without the omitted columns. */
  async *rows(accountId: string): AsyncGenerator<{ type: string; row: Row }> {
    for (const t of TABLES) {
      for (let offset = 0; ; offset += PAGE) {
        const page = await this.sql.all(`SELECT t.* FROM ${t.from} WHERE ${t.where} ORDER BY ${t.order} LIMIT ? OFFSET ?`, [accountId, PAGE, offset]);
        for (const r of page) {
          const row: Row = { ...r };
          for (const c of t.omit) delete row[c];
          // JSON columns as values on either engine (SQLite hands them back as text); text stays text
          for (const c of t.json ?? []) if (row[c] != null) row[c] = json(row[c]);
          yield { type: t.type, row };
        }
        if (page.length < PAGE) break;
      }
    }
  }

  /**
   * Closes the account in one transaction: its keys first, its console sign-in attempts (they are
   * kept by email), then the account and, by cascade, everything else held about it. False when
   * there is no such account.
   */
  delete(accountId: string): Promise<boolean> {
    return this.sql.tx(async (t) => {
      const account = await t.get('SELECT email FROM accounts WHERE id = ? FOR UPDATE', [accountId]);
      if (!account) return false;
      await t.run('DELETE FROM api_keys WHERE account_id = ?', [accountId]);
      await t.run('DELETE FROM console_sessions WHERE account_id = ?', [accountId]);
      await t.run("DELETE FROM console_attempts WHERE kind = 'signin-email' AND subject IN (?, ?)", [String(account.email), String(account.email).toLowerCase()]);
      await t.run('DELETE FROM accounts WHERE id = ?', [accountId]);
      return true;
    });
  }
}
