// An account's data as JSON Lines, for the account holder or a data-protection request: one
// object per line, {"type": …, …the row}, table by table (account, console login, API keys by
// prefix, usage, jobs, each job's rows with their input cells and results, labels, the watch list
// and its history, webhook endpoint, deliveries and attempts, evidence). Secrets are never
// written: key hashes, the webhook secret, the password hash. Closure removes it all, keys first.
import type { Writable } from 'node:stream';
import { allRows } from '../batch/job-rows.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Row } from '../store/rows.ts';

/** Row values as JSON: dates as ISO text, PostgreSQL's bigints as numbers; the rest as they are. */
function plain(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? Number(v) : v;
  return out;
}

async function line(out: Writable, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await new Promise((r) => out.once('drain', r));
}

/** Writes everything held about the account to `out`; returns how many lines by type. */
export async function exportAccount(store: Store, accountId: string, out: Writable): Promise<Record<string, number>> {
  const account = await store.accounts.get(accountId);
  if (!account) throw new AppError('not_found', `no account ${accountId}`);
  const counts: Record<string, number> = {};
  for await (const { type, row } of store.accountData.rows(accountId)) {
    const value = plain(row);
    await line(out, { type, ...value });
    counts[type] = (counts[type] ?? 0) + 1;
    // a job's rows follow the job, decoded (kept until deleted or expired)
    if (type === 'batch_job' && value.expired_at == null && (value.status === 'done' || value.status === 'failed' || value.status === 'processing' || value.status === 'queued')) {
      for await (const r of allRows(store.batches, { id: String(value.id), accountId, locale: value.locale === 'en' ? 'en' : 'ko' })) {
        await line(out, { type: 'batch_row', job_id: value.id, row_id: r.rowId, input: r.cells, result: r.result });
        counts.batch_row = (counts.batch_row ?? 0) + 1;
      }
    }
  }
  return counts;
}
