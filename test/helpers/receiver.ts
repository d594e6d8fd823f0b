// A local webhook endpoint for tests: records every request as received and answers from a
// script of responses (then 200), so a test can make it fail, ask for Retry-After, or say 410.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** responses for the next requests, in order; afterwards 200 */
  script(...responses: { status: number; headers?: Record<string, string> }[]): void;
  /** waits (bounded) until at least n requests arrived */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: { status: number; headers?: Record<string, string> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const next = queue.shift() ?? { status: 200 };
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status: next.status });
      res.writeHead(next.status, next.headers).end(next.status >= 400 ? 'nope' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    script: (...r) => queue.push(...r),
    waitFor: async (n, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} webhook requests, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
