import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { HttpLane } from './http-lane.ts';
import { NtsHttpClient } from './nts-client.ts';
import { startFakeNts } from './fake-nts-server.ts';
import { createRegistry } from './status-service.ts';
import { describeFetchError } from './fetch-error.ts';
import { UpstreamError } from '../domain/status.ts';
import { checkDigitOf } from '../domain/bizno.ts';

const T = { timeout: 20_000 };

/** A server that holds every request until told to answer it, and counts those it holds. */
async function holdingServer(): Promise<{ url: string; held: ServerResponse[]; seen: string[]; server: Server }> {
  const held: ServerResponse[] = [];
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${String(req.headers['x-test'] ?? '')} ${body}`);
      held.push(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, held, seen, server };
}

const until = async (ok: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), `timed out waiting for ${what}`);
};

describe('HttpLane: requests sent from a thread', () => {
  let srv: Awaited<ReturnType<typeof holdingServer>>;
  before(async () => { srv = await holdingServer(); });
  after(async () => {
    srv.server.closeAllConnections();
    await new Promise((r) => srv.server.close(r));
  });

  test('at most maxInFlight on the wire; each answer lets the next waiting request out, in order', T, async () => {
    const lane = new HttpLane(2);
    try {
      srv.held.length = 0;
      srv.seen.length = 0;
      const answers = [1, 2, 3, 4].map((i) => lane.fetch(`${srv.url}/r${i}`, { method: 'POST', headers: { 'x-test': `h${i}` }, body: `b${i}` }));
      await until(() => srv.held.length === 2, 'two requests');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(srv.held.length, 2, 'the third waits for a place');
      srv.held[0]!.writeHead(201, { 'content-type': 'text/plain', 'retry-after': '7' }).end('first');
      await until(() => srv.held.length === 3, 'the third request');
      const first = await answers[0]!;
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('retry-after'), '7');
      assert.equal(await first.text(), 'first');
      for (const res of srv.held.slice(1)) res.writeHead(200).end('ok');
      await until(() => srv.held.length === 4, 'the fourth request');
      srv.held[3]!.writeHead(204).end();
      const rest = await Promise.all(answers.slice(1));
      assert.deepEqual(rest.map((r) => r.status), [200, 200, 204]);
      assert.deepEqual(srv.seen, ['POST /r1 h1 b1', 'POST /r2 h2 b2', 'POST /r3 h3 b3', 'POST /r4 h4 b4']);
    } finally {
      await lane.close();
    }
  });

  test('an aborted request fails at once with the signal\'s reason; a waiting one never goes out', T, async () => {
    const lane = new HttpLane(1);
    try {
      srv.held.length = 0;
      srv.seen.length = 0;
      const first = new AbortController();
      const second = new AbortController();
      const a = lane.fetch(`${srv.url}/a`, { method: 'POST', body: 'a', signal: first.signal });
      const b = lane.fetch(`${srv.url}/b`, { method: 'POST', body: 'b', signal: second.signal });
      const c = lane.fetch(`${srv.url}/c`, { method: 'POST', body: 'c' });
      await until(() => srv.held.length === 1, 'the first request');
      second.abort(new Error('no longer wanted'));
      await assert.rejects(b, /no longer wanted/);
      first.abort();
      await assert.rejects(a, (e: unknown) => e instanceof Error && e.name === 'AbortError');
      // the aborted first request's place goes to the third: the second never went out
      await until(() => srv.held.length === 2, 'the third request');
      srv.held[1]!.end('c');
      assert.equal(await (await c).text(), 'c');
      assert.deepEqual(srv.seen.map((s) => s.split(' ')[1]), ['/a', '/c']);
      await assert.rejects(lane.fetch(`${srv.url}/d`, { signal: AbortSignal.abort() }), (e: unknown) => e instanceof Error && e.name === 'AbortError');
    } finally {
      await lane.close();
    }
  });

  test('a request is timed from when it goes on the wire, not from when it was handed over', T, async () => {
    const lane = new HttpLane(1, { wireTimeoutMs: 300 });
    try {
      srv.held.length = 0;
      srv.seen.length = 0;
      const a = lane.fetch(`${srv.url}/a`, { method: 'POST', body: 'a' });
      const b = lane.fetch(`${srv.url}/b`, { method: 'POST', body: 'b' });
      await until(() => srv.held.length === 1, 'the first request');
      await new Promise((r) => setTimeout(r, 200));
      srv.held[0]!.end('a');
      await until(() => srv.held.length === 2, 'the second request');
      await new Promise((r) => setTimeout(r, 200));
      srv.held[1]!.end('b');
      // b was handed over ~400 ms before its answer, 200 of them on the wire
      assert.equal(await (await a).text(), 'a');
      assert.equal(await (await b).text(), 'b');
      // one never answered fails after its time on the wire, as fetch does on AbortSignal.timeout
      const c = await lane.fetch(`${srv.url}/c`, { method: 'POST', body: 'c' }).then(() => null, (e: unknown) => e);
      assert.ok(c instanceof Error && c.name === 'TimeoutError', `a TimeoutError, not ${String(c)}`);
      // …which the client reads as an NTS timeout
      const client = new NtsHttpClient({ serviceKey: 'key', baseUrl: srv.url, fetch: lane.fetch });
      const d = await client.callOnce([numberAt(1)], new AbortController().signal).then(() => null, (e: unknown) => e);
      assert.ok(d instanceof UpstreamError && d.fault === 'timeout' && d.retryable, `an UpstreamError timeout, not ${String(d)}`);
    } finally {
      await lane.close();
    }
  });

  test('a refused connection fails as fetch does, its cause\'s code kept; after close() nothing is sent', T, async () => {
    const lane = new HttpLane(2);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const error = await lane.fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof TypeError);
    assert.match(describeFetchError(error), /ECONNREFUSED/);
    const pending = lane.fetch(`${srv.url}/held`, { method: 'POST', body: 'x' });
    const failed = assert.rejects(pending, TypeError);
    await lane.close();
    await failed;
    await assert.rejects(lane.fetch(`${srv.url}/late`), /fetch failed/);
  });

  test('an answer comes back as fetch gives it: status, repeated headers joined, a body in parts, UTF-8 split across them', T, async () => {
    const lane = new HttpLane(2);
    try {
      srv.held.length = 0;
      const pending = lane.fetch(`${srv.url}/whole`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"b_no":["가"]}' });
      await until(() => srv.held.length === 1, 'the request');
      const res = srv.held[0]!;
      res.writeHead(429, [['Retry-After', '7'], ['X-Seen', 'a'], ['X-Seen', 'b']]);
      const text = Buffer.from('{"msg":"한도 초과"}');
      // the first byte of 한 in one part, the rest in the next
      res.write(text.subarray(0, 9));
      await new Promise((r) => setTimeout(r, 20));
      res.end(text.subarray(9));
      const got = await pending;
      assert.equal(got.status, 429);
      assert.equal(got.headers.get('retry-after'), '7');
      assert.equal(got.headers.get('x-seen'), 'a, b');
      assert.equal(await got.text(), '{"msg":"한도 초과"}');
      assert.match(srv.seen.at(-1)!, /\{"b_no":\["가"\]\}$/);
    } finally {
      await lane.close();
    }
  });

  test('a body cut short fails as a network error; one that stalls is cut by the time on the wire', T, async () => {
    const lane = new HttpLane(2, { wireTimeoutMs: 300 });
    try {
      srv.held.length = 0;
      const cut = lane.fetch(`${srv.url}/cut`, { method: 'POST', body: 'x' }).then(() => null, (e: unknown) => e);
      await until(() => srv.held.length === 1, 'the request');
      srv.held[0]!.writeHead(200, { 'content-length': '100' });
      srv.held[0]!.write('{"data":[');
      await new Promise((r) => setTimeout(r, 20));
      srv.held[0]!.socket!.destroy();
      const error = await cut;
      assert.ok(error instanceof TypeError && /fetch failed/.test(error.message), `a network error, not ${String(error)}`);
      const client = new NtsHttpClient({ serviceKey: 'key', baseUrl: srv.url, fetch: lane.fetch });
      const stalled = client.callOnce([numberAt(2)], new AbortController().signal).then(() => null, (e: unknown) => e);
      await until(() => srv.held.length === 2, 'the second request');
      srv.held[1]!.writeHead(200, { 'content-type': 'application/json' });
      srv.held[1]!.write('{"data":[');
      const timedOut = await stalled;
      assert.ok(timedOut instanceof UpstreamError && timedOut.fault === 'timeout', `an NTS timeout, not ${String(timedOut)}`);
    } finally {
      await lane.close();
    }
  });
});

test('a thread that dies fails what it held, as a network error would; the next request starts a new one', T, async () => {
  // a stand-in for the thread: it dies when asked for /die and answers anything else
  const thread = new URL(`data:text/javascript,${encodeURIComponent(`
    import { parentPort } from 'node:worker_threads';
    parentPort.on('message', (m) => {
      if (m.type !== 'send') return;
      if (m.request.url.endsWith('/die')) process.exit(3);
      parentPort.postMessage({ id: m.request.id, ok: true, status: 200, headers: [], text: 'fine' });
    });`)}`);
  const lane = new HttpLane(2, { threadUrl: thread });
  try {
    const held = lane.fetch('http://127.0.0.1:9/slow-but-held');
    const error = await lane.fetch('http://127.0.0.1:9/die').then(() => null, (e: unknown) => e);
    assert.ok(error instanceof TypeError && /exited \(3\)/.test(describeFetchError(error)), `a network error, not ${String(error)}`);
    // the one it held before dying is answered by it or failed with it, never left waiting
    await held.then((r) => r.text(), (e: unknown) => assert.ok(e instanceof TypeError));
    assert.equal(await (await lane.fetch('http://127.0.0.1:9/after')).text(), 'fine');
  } finally {
    await lane.close();
  }
});

describe('NTS calls through the lane while the main thread is blocked', () => {
  test('a call that returns lets the next waiting one out without the main thread', T, async () => {
    // the fake NTS in a thread of its own: blocking this one must not stop it answering
    const fake = await fakeInThread();
    // two on the wire, four handed to the thread: six calls of 100 numbers
    const registry = createRegistry({ serviceKey: 'key', baseUrl: fake.url, concurrency: 2 });
    try {
      const bnos = Array.from({ length: 600 }, (_, i) => numberAt(i));
      const lookup = registry.lookup(bnos);
      for (let i = 0; i < 400 && (await fake.arrivals()).length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      const blockedAt = Date.now();
      // the main thread busy for 1 s, as a batch's commits keep it
      while (Date.now() - blockedAt < 1_000) { /* busy */ }
      const blockEnded = Date.now();
      const arrivals = (await fake.arrivals()).slice(2, 4);
      assert.equal(arrivals.length, 2, 'the third and fourth calls reached NTS while the main thread was busy');
      // an order, not a duration: without the thread they could only leave once the block ended
      assert.ok(arrivals.every((t) => t < blockEnded), `calls 3–4 reached NTS ${arrivals.map((t) => t - blockedAt).join(', ')} ms into a block of ${blockEnded - blockedAt} ms`);
      const records = await lookup;
      assert.equal(records.size, 600);
      assert.equal((await fake.arrivals()).length, 6);
    } finally {
      await registry.close();
      await fake.close();
    }
  });

  test('a slow NTS: an attempt\'s wait for a place in the lane does not count toward its timeout', T, async () => {
    // one call on the wire at a time, 500 ms each, an 800 ms timeout: the second call waits
    // ~500 ms for its place and is answered ~1 s after it was handed over
    const fake = await startFakeNts({ latencyMs: 500, serviceKey: 'key' });
    const faults: string[] = [];
    const registry = createRegistry({
      serviceKey: 'key', baseUrl: fake.url, concurrency: 1, timeoutMs: 800,
      observer: { attempt: (outcome) => faults.push(outcome), budgetWait: () => {}, breaker: () => {} },
    });
    try {
      const records = await registry.lookup(Array.from({ length: 300 }, (_, i) => numberAt(i)));
      assert.equal(records.size, 300);
      assert.deepEqual(faults, ['ok', 'ok', 'ok'], 'no attempt timed out');
      assert.equal(fake.calls, 3, 'nothing was asked again');
    } finally {
      await registry.close();
      await fake.close();
    }
  });

  test('the client\'s answers through the lane are the ones it reads directly', T, async () => {
    const fake = await startFakeNts({ serviceKey: 'key' });
    const lane = new HttpLane(1);
    try {
      const bnos = [numberAt(1), numberAt(2), '1234567891'];
      const direct = await new NtsHttpClient({ serviceKey: 'key', baseUrl: fake.url }).callOnce(bnos, AbortSignal.timeout(5_000));
      const laned = await new NtsHttpClient({ serviceKey: 'key', baseUrl: fake.url, fetch: lane.fetch }).callOnce(bnos, AbortSignal.timeout(5_000));
      assert.deepEqual(laned, direct);
      const refused = await new NtsHttpClient({ serviceKey: 'wrong', baseUrl: fake.url, fetch: lane.fetch }).callOnce(bnos, AbortSignal.timeout(5_000)).then(() => null, (e: unknown) => e);
      assert.ok(refused instanceof UpstreamError && !refused.retryable);
    } finally {
      await lane.close();
      await fake.close();
    }
  });
});

/** A valid number: nine digits and their check digit. */
function numberAt(i: number): string {
  const nine = String(100_000_000 + i * 7919);
  return `${nine}${checkDigitOf(nine)}`;
}

/** The fake NTS (100 ms a call) started in a worker thread; `arrivals` asks it when each call came. */
async function fakeInThread(): Promise<{ url: string; arrivals(): Promise<number[]>; close(): Promise<void> }> {
  const fakeUrl = new URL('./fake-nts-server.ts', import.meta.url).href;
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(fakeUrl)}).then(async ({ startFakeNts }) => {
      const fake = await startFakeNts({ latencyMs: 100, serviceKey: 'key' });
      parentPort.on('message', async (m) => {
        if (m === 'arrivals') parentPort.postMessage({ arrivals: fake.arrivals });
        else { await fake.close(); parentPort.postMessage({ closed: true }); }
      });
      parentPort.postMessage({ url: fake.url });
    });`, { eval: true });
  const [ready] = (await once(worker, 'message')) as [{ url: string }];
  const ask = async (m: string, key: string): Promise<Record<string, unknown>> => {
    worker.postMessage(m);
    for (;;) {
      const [reply] = (await once(worker, 'message')) as [Record<string, unknown>];
      if (key in reply) return reply;
    }
  };
  return {
    url: ready.url,
    arrivals: async () => (await ask('arrivals', 'arrivals')).arrivals as number[],
    close: async () => { await ask('close', 'closed'); await worker.terminate(); },
  };
}
