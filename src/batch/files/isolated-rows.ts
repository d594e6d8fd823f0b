// openRows() run in worker threads with heaps of their own. The readers are bounded by counting
// what they build, but a parser is the code an attacker feeds: should any shape of file still make
// one build without end, only its thread runs out of memory, the upload gets a 413, and the server
// goes on answering. Same interface as openRows(); rows cross over in bounded batches.
//
// Starting a thread costs ~0.5 s of module loading, so threads are kept and reused: a thread
// goes back to the pool when its file was read to the end or refused cleanly, and is ended when
// it ran out of memory, crashed, or was abandoned mid-file (its state is then unknown).
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { FileError } from './errors.ts';
import type { FromParser, OpenedMeta, ToParser } from './parse-protocol.ts';
import type { FileRow, OpenedRows, ReadOptions } from './read-rows.ts';
import { emptyNotes } from './row-builder.ts';

export interface ParserPoolOptions {
  /** old-generation heap of each parsing thread, in MB */
  heapMb: number;
  /** idle threads kept for the next uploads */
  maxIdle?: number;
  /** a thread is retired after this many files, so nothing one file left behind lasts */
  maxUses?: number;
  /**
   * A thread that read a file larger than this is retired too: its heap grew with the file and V8
   * keeps the pages, ~55 MB resident per idle thread after a 100,000-row list, against ~0.5 s to
   * start a new one, which a file this size takes longer than to read anyway.
   */
  keepAfterBytes?: number;
  /** the thread's module (tests put a misbehaving one here) */
  workerUrl?: URL;
}

const WORKER_URL = new URL('./parse-worker.ts', import.meta.url);
type Message = FromParser & { job: number };

function outOfMemory(heapMb: number): FileError {
  return new FileError(
    'too_large',
    `파일을 읽는 데 필요한 메모리가 한도(${heapMb}MB)를 넘었습니다. 파일이 손상되었거나 비정상적으로 만들어졌을 수 있습니다. 엑셀에서 다시 저장하거나 파일을 나누어 올려 주세요.`,
    { limit_mb: heapMb },
  );
}

/** The worker's messages for one file, taken one at a time; a failure rejects the wait in progress and every later one. */
class Inbox {
  #queue: Message[] = [];
  #waiter: { resolve: (m: Message) => void; reject: (e: unknown) => void } | null = null;
  #failure: { err: unknown } | null = null;

  put(m: Message): void {
    const w = this.#waiter;
    this.#waiter = null;
    if (w) w.resolve(m);
    else this.#queue.push(m);
  }

  fail(err: unknown): void {
    this.#failure ??= { err };
    const w = this.#waiter;
    this.#waiter = null;
    w?.reject(this.#failure.err);
  }

  take(): Promise<Message> {
    const m = this.#queue.shift();
    if (m) return Promise.resolve(m);
    if (this.#failure) return Promise.reject(this.#failure.err);
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }
}

/** A parsing thread and the file it is reading now, if any. */
class Parser {
  readonly worker: Worker;
  uses = 0;
  dead = false;
  /** where the messages of the file being read go */
  inbox: Inbox | null = null;
  onPull: (() => void) | null = null;

  constructor(url: URL, heapMb: number) {
    this.worker = new Worker(url, {
      // the young generation is part of the bound too: semi-spaces are allocated up front
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
      stdout: false,
      stderr: false,
    });
    this.worker.on('message', (m: Message) => {
      if (m.job !== this.uses) return;
      if (m.t === 'pull') this.onPull?.();
      else this.inbox?.put(m);
    });
    this.worker.on('error', (err: Error & { code?: string }) => {
      this.dead = true;
      this.inbox?.fail(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory(heapMb) : err);
    });
    this.worker.on('exit', (code) => {
      this.dead = true;
      this.inbox?.fail(new Error(`the file parser stopped with exit code ${code}`));
    });
  }

  post(m: ToParser, transfer?: ArrayBuffer[]): void {
    if (!this.dead) this.worker.postMessage(m, transfer);
  }
}

export class ParserPool {
  readonly #o: Required<ParserPoolOptions>;
  readonly #idle: Parser[] = [];
  #closed = false;

  constructor(o: ParserPoolOptions) {
    this.#o = { maxIdle: 2, maxUses: 100, keepAfterBytes: 4 * 1024 * 1024, workerUrl: WORKER_URL, ...o };
  }

  #acquire(): Parser {
    for (let p = this.#idle.pop(); p; p = this.#idle.pop()) {
      if (!p.dead) {
        p.worker.ref();
        return p;
      }
    }
    return new Parser(this.#o.workerUrl, this.#o.heapMb);
  }

  #giveBack(p: Parser, bytes: number): void {
    p.inbox = null;
    p.onPull = null;
    if (p.dead || this.#closed || p.uses >= this.#o.maxUses || bytes > this.#o.keepAfterBytes || this.#idle.length >= this.#o.maxIdle) {
      void p.worker.terminate();
      return;
    }
    // an idle thread must not keep the process alive
    p.worker.unref();
    this.#idle.push(p);
  }

  /** Ends the idle threads; files being read go on, and their threads end with them. */
  /** threads waiting for a file */
  get idle(): number {
    return this.#idle.length;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((p) => p.worker.terminate()));
  }

  async open(input: Readable, opts: ReadOptions): Promise<OpenedRows> {
    const { signal, ...workerOpts } = opts;
    signal?.throwIfAborted();
    const parser = this.#acquire();
    const job = ++parser.uses;
    const inbox = new Inbox();
    parser.inbox = inbox;
    const post = (m: ToParser, transfer?: ArrayBuffer[]) => parser.post(m, transfer);
    let released = false;
    let bytes = 0;
    /** `reusable`: the thread finished this file (read to the end, or refused it) and can take another */
    const release = async (reusable: boolean) => {
      if (released) return;
      released = true;
      signal?.removeEventListener('abort', onAbort);
      input.destroy();
      if (reusable) this.#giveBack(parser, bytes);
      else {
        parser.dead = true;
        await parser.worker.terminate();
      }
    };
    const onAbort = () => {
      inbox.fail(signal?.reason);
      void release(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const broken = (err: unknown) => {
      inbox.fail(signal?.aborted ? signal.reason : err);
      void release(false);
    };
    // the iterator listens only once read from: a failure before that is caught here
    input.once('error', broken);
    // bytes go over only when the thread asks, a chunk at a time, so a slow parse slows the upload
    const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    parser.onPull = () => {
      chunks.next().then((r) => {
        if (released) return;
        if (r.done) return post({ t: 'end', job });
        bytes += r.value.length;
        // a copy: the upload's buffers may be views into a larger pool that must not be detached
        const copy = new Uint8Array(r.value);
        post({ t: 'data', job, chunk: copy }, [copy.buffer]);
      }, broken);
    };
    post({ t: 'start', job, opts: workerOpts });

    /** The thread's refusal of the file, after which it is free for another. */
    const refused = async (m: Message & { t: 'error' }) => {
      await release(true);
      return m.fileError ? new FileError(m.fileError.code, m.fileError.message, m.fileError.details) : new FileError('unreadable', m.message);
    };

    let meta: OpenedMeta;
    try {
      const first = await inbox.take();
      if (first.t === 'error') throw await refused(first);
      if (first.t !== 'opened') throw new Error(`the file parser sent ${first.t} before the columns`);
      meta = first.meta;
    } catch (err) {
      await release(false);
      throw err;
    }
    const headers = meta.headers;
    const notes = emptyNotes();

    async function* batches(): AsyncGenerator<FileRow[]> {
      let done = false;
      try {
        // two batches in flight: the thread parses the next while this side stores the last
        post({ t: 'next', job });
        post({ t: 'next', job });
        for (;;) {
          const m = await inbox.take();
          if (m.t === 'error') {
            done = true;
            throw await refused(m);
          }
          if (m.t === 'rows' || m.t === 'done') headers.push(...m.headers);
          if (m.t === 'done') {
            Object.assign(notes, m.notes);
            done = true;
            return;
          }
          if (m.t !== 'rows') continue;
          post({ t: 'next', job });
          yield m.rows;
        }
      } finally {
        await release(done);
      }
    }

    async function* rows(): AsyncGenerator<FileRow> {
      for await (const batch of batches()) yield* batch;
    }

    return { ...meta, headers, notes, rows: rows(), batches: batches(), close: () => release(false) };
  }
}
