// The worker-thread side of isolated-rows.ts: reads uploaded files with openRows(), one at a time,
// on bytes the main thread hands over on request, and hands rows back in bounded batches on
// request. Running here, a file that makes a parser build more than this thread's heap allows
// ends this thread (ERR_WORKER_OUT_OF_MEMORY), never the server.
import { Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { FileError } from './errors.ts';
import { openRows, type FileRow, type ReadOptions } from './read-rows.ts';
import { BATCH_MAX_CHARS, BATCH_MAX_ROWS, rowChars, type FromParser, type ToParser } from './parse-protocol.ts';

const port = parentPort!;

/** The file being read now; messages of an earlier one (late pulls, data) are ignored. */
interface Current {
  job: number;
  input: Readable;
  credits: number;
  wake: (() => void) | null;
}
let current: Current | null = null;

function start(job: number, opts: ReadOptions): void {
  const post = (m: FromParser) => port.postMessage({ ...m, job });
  const cur: Current = {
    job,
    // one request for bytes at a time: Readable calls read() again only after a push
    input: new Readable({ highWaterMark: 64 * 1024, read: () => post({ t: 'pull' }) }),
    credits: 0,
    wake: null,
  };
  current = cur;
  const credit = async () => {
    while (cur.credits === 0) await new Promise<void>((resolve) => (cur.wake = resolve));
    cur.wake = null;
    cur.credits--;
  };
  run(cur, opts, post, credit)
    .catch((err: unknown) => post(serialise(err)))
    .finally(() => {
      if (current === cur) current = null;
    });
}

port.on('message', (m: ToParser) => {
  if (m.t === 'start') return start(m.job, m.opts);
  const cur = current;
  if (!cur || cur.job !== m.job) return;
  if (m.t === 'data') cur.input.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
  else if (m.t === 'end') cur.input.push(null);
  else if (m.t === 'next') {
    cur.credits++;
    cur.wake?.();
  }
});

function serialise(err: unknown): FromParser {
  if (err instanceof FileError) return { t: 'error', fileError: { code: err.code, message: err.message, details: err.details } };
  return { t: 'error', message: err instanceof Error ? err.message : String(err) };
}

async function run(cur: Current, opts: ReadOptions, post: (m: FromParser) => void, credit: () => Promise<void>): Promise<void> {
  const opened = await openRows(cur.input, opts);
  const { kind, encoding, delimiter, sheet, sheets, sheetByContent, chosen, columns, numberRecognised } = opened;
  let sentHeaders = opened.headers.length;
  post({ t: 'opened', meta: { kind, encoding, delimiter, sheet, sheets, sheetByContent, chosen, columns, numberRecognised, headers: [...opened.headers] } });
  const newHeaders = () => {
    const added = opened.headers.slice(sentHeaders);
    sentHeaders = opened.headers.length;
    return added;
  };

  let rows: FileRow[] = [];
  let chars = 0;
  const flush = async () => {
    await credit();
    post({ t: 'rows', rows, headers: newHeaders() });
    rows = [];
    chars = 0;
  };
  for await (const batch of opened.batches) {
    for (const row of batch) {
      rows.push(row);
      chars += rowChars(row.cells);
      if (rows.length >= BATCH_MAX_ROWS || chars >= BATCH_MAX_CHARS) await flush();
    }
  }
  if (rows.length > 0) await flush();
  post({ t: 'done', headers: newHeaders(), notes: opened.notes });
}
