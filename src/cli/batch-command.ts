// `bizcheck batch FILE`: uploads a file to a running server, shows progress while polling once a
// second (the spec's advice), and downloads the results when the job is done.
import { createWriteStream, openAsBlob, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Bizcheck, BizcheckError } from '../../sdk/src/index.ts';

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

function bar(done: number, total: number, width = 30): string {
  const f = total === 0 ? 1 : done / total;
  const filled = Math.round(f * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(f * 100).toFixed(1).padStart(5)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`;
}

/** The API's refusals as the operator should read them: status, code and what to fix. */
function asCliError(err: unknown): unknown {
  if (err instanceof BizcheckError) return new CliHttpError(err.status === 0 ? err.message : `server answered ${err.status} — ${err.problem ? `${err.problem.code}: ${err.problem.detail}` : err.message}`);
  return err;
}

export async function runBatchCommand(o: BatchCommandOptions): Promise<Record<string, unknown>> {
  const err = o.stderr ?? process.stderr;
  // the SDK customers use (sdk/), so the CLI exercises it too
  const api = new Bizcheck({ apiKey: o.key, baseUrl: o.url });
  const size = statSync(o.file).size;
  err.write(`uploading ${path.basename(o.file)} (${(size / 1024 ** 2).toFixed(1)} MB)…\n`);
  try {
    // a file-backed Blob: streamed from disk as it is sent, never read whole into memory
    const job = await api.batch.upload(await openAsBlob(o.file), {
      filename: path.basename(o.file), offline: o.offline, paid: o.paid,
      sheet: o.sheet, bnoColumn: o.bnoColumn, nameColumn: o.nameColumn, addressColumn: o.addressColumn,
    });
    const created = job.accepted!;
    err.write(`job ${job.id}: ${created.total} rows, ${created.distinct_numbers} distinct numbers, ${created.charged} lookups charged${created.overage ? `, ${created.overage} as overage` : ''}\n`);
    const f = created.file;
    err.write(`columns: number "${f.number_column}", name ${f.name_column ? `"${f.name_column}"` : '—'}, address ${f.address_column ? `"${f.address_column}"` : '—'}${f.sheet ? ` (sheet "${f.sheet}")` : ''}\n`);
    for (const n of f.notices) err.write(`note: ${n.message}\n`);

    let status;
    try {
      status = await job.done({
        pollMs: o.pollMs ?? 1000,
        timeoutMs: o.timeoutMs ?? 6 * 3600_000,
        onProgress: (s) => err.write(`\r${bar(s.processed, s.total)} ${s.status}   `),
      });
    } finally {
      err.write('\n');
    }
    const out = o.out ?? `${o.file.replace(/\.[^./\\]+$/, '')}.results.csv`;
    const format = /\.xlsx$/i.test(out) ? 'xlsx' : /\.json$/i.test(out) ? 'json' : 'csv';
    await pipeline(Readable.fromWeb((await job.download(format)) as WebReadableStream), createWriteStream(out));
    err.write(`results written to ${out}\n`);
    return { job_id: job.id, status: status.status, total: status.total, counts: status.counts, results: out };
  } catch (e) {
    throw asCliError(e);
  }
}

export { CliHttpError };
