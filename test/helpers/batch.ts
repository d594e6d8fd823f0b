// Uploading files and waiting for jobs, as a client of the batch API does.
import iconv from 'iconv-lite';
import { call, type Call } from './server.ts';

export function upload(base: string, key: string, file: { name: string; body: Buffer | string; type?: string }, query = '', headers: Record<string, string> = {}, field = 'file'): Promise<Call> {
  const form = new FormData();
  const bytes = typeof file.body === 'string' ? Buffer.from(file.body, 'utf8') : file.body;
  form.append(field, new Blob([bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  return fetch(`${base}/batch${query}`, { method: 'POST', headers: { 'x-api-key': key, ...headers }, body: form, signal: AbortSignal.timeout(60_000) }).then(async (res) => {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body };
  });
}

/** Polls GET /batch/{id} once a second, as the spec recommends, until done or failed (bounded). */
export async function waitForJob(base: string, key: string, jobId: string, timeoutMs = 30_000, query = ''): Promise<Call> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(base, 'GET', `/batch/${jobId}${query}`, { key });
    if (res.status !== 200 || res.body.status === 'done' || res.body.status === 'failed') return res;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${res.body.status} after ${timeoutMs} ms (${res.body.processed}/${res.body.total})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const cp949 = (text: string): Buffer => iconv.encode(text, 'cp949');
