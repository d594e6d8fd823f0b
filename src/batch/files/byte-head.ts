// Detection needs the first bytes before deciding how to read the rest, and an upload can only be
// read once: take the head, then hand on a stream that replays it followed by everything after.

import { Readable } from 'node:stream';

export interface HeadAndBody {
  head: Buffer;
  /** the whole input again, head included; read it at most once */
  body: Readable;
}

function asBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('upload stream must yield bytes');
}

export async function readHead(input: Readable, size: number): Promise<HeadAndBody> {
  const it = input[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < size) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    const buf = asBuffer(next.value);
    chunks.push(buf);
    length += buf.length;
  }
  const all = Buffer.concat(chunks);
  async function* replay(): AsyncGenerator<Buffer> {
    if (all.length > 0) yield all;
    if (done) return;
    let finished = false;
    try {
      for (;;) {
        const next = await it.next();
        if (next.done) {
          finished = true;
          return;
        }
        yield asBuffer(next.value);
      }
    } finally {
      // closing the input's iterator destroys the input, so an abandoned upload is not left open
      if (!finished) await it.return?.();
    }
  }
  // objectMode false with Buffers keeps byte semantics; highWaterMark small so replay does not read ahead much
  const body = Readable.from(replay(), { objectMode: false, highWaterMark: 64 * 1024 });
  return { head: all.subarray(0, Math.min(all.length, size)), body };
}
