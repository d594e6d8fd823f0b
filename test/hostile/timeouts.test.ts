// Slow clients: a JSON body or an upload trickled a byte at a time is cut, not held open for as
// long as the client likes, and one address cannot hold more than its share of connections.
// Limits are set small here so each case settles in seconds; every loop is bounded.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { call, startTestServer, type TestServer } from '../helpers/server.ts';

const T = { timeout: 30_000 };

/** Sends `head`, then `byte` every `everyMs` up to `max` times; resolves with how long the socket stayed open. */
function trickle(url: string, head: string, opts: { everyMs: number; max: number; byte?: string }): Promise<{ closedAfterMs: number; response: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    let response = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, response });
    });
    socket.write(head);
    timer = setInterval(() => {
      if (sent++ >= opts.max) {
        clearInterval(timer);
        socket.destroy();
        return;
      }
      if (!socket.destroyed) socket.write(opts.byte ?? 'a');
    }, opts.everyMs);
  });
}

describe('slow clients', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer('sqlite', { HTTP_BODY_TIMEOUT_SECONDS: '1', UPLOAD_WINDOW_SECONDS: '1', UPLOAD_MIN_BYTES_PER_SECOND: '1024', MAX_CONNECTIONS_PER_CLIENT: '8' });
  });
  after(async () => srv.close());

  test('an unauthenticated JSON body trickled a byte at a time is cut within the body timeout', T, async () => {
    const head = `POST /console/api/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\nOrigin: ${srv.url}\r\n\r\n{`;
    const { closedAfterMs } = await trickle(srv.url, head, { everyMs: 200, max: 100 });
    // the trickle alone would take 20 s
    assert.ok(closedAfterMs < 5000, `closed after ${closedAfterMs} ms`);
  });

  test('an upload slower than the minimum throughput is cut; the server goes on answering', T, async () => {
    const { apiKey } = await srv.account('business');
    const boundary = 'slowboundary';
    const head = `POST /batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nb_no\n`;
    const { closedAfterMs } = await trickle(srv.url, head, { everyMs: 100, max: 200, byte: '1248100998\n' });
    assert.ok(closedAfterMs < 8000, `closed after ${closedAfterMs} ms`);
    assert.equal((await call(srv.url, 'GET', '/healthz')).status, 200);
    assert.equal((await call(srv.url, 'GET', '/batch', { key: apiKey })).body.jobs.length, 0, 'no job left behind');
  });

  test('connections beyond the cap for one address are closed at once; the rest are served', T, async () => {
    const { port } = new URL(srv.url);
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const s = net.connect(Number(port), '127.0.0.1');
        s.on('error', () => undefined);
        await new Promise((r) => s.once('connect', r));
        held.push(s);
      }
      const extra = net.connect(Number(port), '127.0.0.1');
      extra.on('error', () => undefined);
      const closed = await new Promise<boolean>((resolve) => {
        extra.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 3000).unref();
      });
      assert.ok(closed, 'the ninth connection is closed');
      extra.destroy();
    } finally {
      for (const s of held) s.destroy();
    }
    // once they are gone, requests are served again, and closed connections are not counted on:
    // many more fresh connections than the cap, one after another, are all served
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = await call(srv.url, 'GET', '/healthz').then((r) => r.status, () => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200);
    for (let i = 0; i < 40; i++) {
      const { response } = await trickle(srv.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { everyMs: 1000, max: 5, byte: '' });
      assert.match(response, /^HTTP\/1\.1 200/, `fresh connection ${i}`);
    }
  });
});
