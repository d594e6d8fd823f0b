// `bizcheck batch FILE`: uploads a file to a running server, shows progress while polling once a
// second (the spec's advice), and downloads the results when the job is done.
import { createWriteStream, openAsBlob, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface BatchCommandOptions {
  file: string;
  url: string;
  key: string;
  offline: boolean;
  paid: boolean;
  out: string | undefined;
  /** XLSX worksheet by name or 1-based position; default the first that holds a number column */
  sheet?: string | undefined;
  /** columns by header text or 1-based position, where the file's headers are not recognised */
  bnoColumn?: string | undefined;
  nameColumn?: string | undefined;
  addressColumn?: string | undefined;
  /** how often to poll; the spec recommends one second */
  pollMs?: number;
  /** give up after this long (a million rows take a few minutes) */
  timeoutMs?: number;
  stderr?: NodeJS.WritableStream;
}

class CliHttpError extends Error {}

async function problem(res: Response): Promise<never> {
  const text = await res.text();
  let detail = text;
  try {
    const body = JSON.parse(text) as { detail?: string; code?: string };
    detail = `${body.code ?? res.status}: ${body.detail ?? text}`;
  } catch {
    /* not problem+json */
  }
  throw new CliHttpError(`server answered ${res.status} — ${detail}`);
}

function bar(done: number, total: number, width = 30): string {
  const f = total === 0 ? 1 : done / total;
  const filled = Math.round(f * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(f * 100).toFixed(1).padStart(5)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`;
}

export async function runBatchCommand(o: BatchCommandOptions): Promise<Record<string, unknown>> {
  const err = o.stderr ?? process.stderr;
  const base = o.url.replace(/\/+$/, '');
  const headers = { 'x-api-key': o.key };
  const size = statSync(o.file).size;
  const form = new FormData();
  // a file-backed Blob: streamed from disk as it is sent, never read whole into memory
  form.append('file', await openAsBlob(o.file), path.basename(o.file));
  const query = new URLSearchParams({ offline: String(o.offline), paid: String(o.paid) });
  for (const [name, value] of [['sheet', o.sheet], ['bno_column', o.bnoColumn], ['name_column', o.nameColumn], ['address_column', o.addressColumn]] as const) {
    if (value !== undefined) query.set(name, value);
  }
  err.write(`uploading ${path.basename(o.file)} (${(size / 1024 ** 2).toFixed(1)} MB)…\n`);
  const up = await fetch(`${base}/batch?${query.toString()}`, { method: 'POST', headers, body: form });
  if (up.status !== 202) await problem(up);
  const created = (await up.json()) as { job_id: string; total: number; distinct_numbers: number; charged: number; overage: number; file: { sheet: string | null; number_column: string; name_column: string | null; address_column: string | null; notices: { message: string }[] } };
  err.write(`job ${created.job_id}: ${created.total} rows, ${created.distinct_numbers} distinct numbers, ${created.charged} lookups charged${created.overage ? `, ${created.overage} as overage` : ''}\n`);
  const f = created.file;
  err.write(`columns: number "${f.number_column}", name ${f.name_column ? `"${f.name_column}"` : '—'}, address ${f.address_column ? `"${f.address_column}"` : '—'}${f.sheet ? ` (sheet "${f.sheet}")` : ''}\n`);
  for (const n of f.notices) err.write(`note: ${n.message}\n`);

  const deadline = Date.now() + (o.timeoutMs ?? 6 * 3600_000);
  let status: { status: string; processed: number; total: number; failure_reason: string | null; counts: unknown };
  for (;;) {
    const res = await fetch(`${base}/batch/${created.job_id}?preview=0`, { headers });
    if (res.status !== 200) await problem(res);
    status = (await res.json()) as typeof status;
    err.write(`\r${bar(status.processed, status.total)} ${status.status}   `);
    if (status.status === 'done' || status.status === 'failed') break;
    if (Date.now() > deadline) throw new CliHttpError(`job ${created.job_id} is still ${status.status}; check it later with GET /batch/${created.job_id}`);
    await new Promise((r) => setTimeout(r, o.pollMs ?? 1000));
  }
  err.write('\n');
  if (status.status === 'failed') throw new CliHttpError(`job ${created.job_id} failed: ${status.failure_reason ?? 'no reason given'}`);
  const out = o.out ?? `${o.file.replace(/\.[^./\\]+$/, '')}.results.csv`;
  const format = /\.xlsx$/i.test(out) ? 'xlsx' : /\.json$/i.test(out) ? 'json' : 'csv';
  const dl = await fetch(`${base}/batch/${created.job_id}/results?format=${format}`, { headers });
  if (dl.status !== 200 || !dl.body) await problem(dl);
  await pipeline(Readable.fromWeb(dl.body as WebReadableStream), createWriteStream(out));
  err.write(`results written to ${out}\n`);
  return { job_id: created.job_id, status: status.status, total: status.total, counts: status.counts, results: out };
}

export { CliHttpError };
