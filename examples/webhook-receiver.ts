// A webhook receiver for bizcheck events, using nothing but Node's standard library: copy it into
// your service. Run: WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.ts (Node ≥ 22.6).
//
// How to verify a delivery (Standard Webhooks, https://www.standardwebhooks.com):
//   1. Read the raw body as bytes/text — before any JSON parsing, which would change it.
//   2. signed content = `${webhook-id}.${webhook-timestamp}.${raw body}`
//   3. key = base64-decode(secret without its "whsec_" prefix)
//   4. expected = base64(HMAC-SHA256(key, signed content))
//   5. webhook-signature holds space-separated "v1,<base64>" entries; accept if any equals the
//      expected value (compare in constant time), and reject timestamps more than 5 minutes away
//      from your clock (replays).
//   6. Answer 2xx quickly; deduplicate on webhook-id (a retried event keeps its id).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

export function verifySignature(secret: string, id: string, timestamp: string, body: string, signatureHeader: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatureHeader.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ReceivedEvent {
  id: string;
  type: string;
  data: unknown;
}

async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A server that accepts correctly signed events once each and answers 401 to anything else.
 * `secret` may be a function, to pick up a rotated secret without a restart.
 */
export function createReceiver(secret: string | (() => string), onEvent: (e: ReceivedEvent) => void, clock: () => number = () => Math.floor(Date.now() / 1000)): Server {
  const seen = new Set<string>();
  return createServer((req, res) => {
    void (async () => {
      const body = await rawBody(req);
      const header = (name: string) => String(req.headers[name] ?? '');
      const current = typeof secret === 'function' ? secret() : secret;
      if (!verifySignature(current, header('webhook-id'), header('webhook-timestamp'), body, header('webhook-signature'), clock())) {
        res.writeHead(401).end('bad signature');
        return;
      }
      const id = header('webhook-id');
      if (!seen.has(id)) {
        seen.add(id);
        const event = JSON.parse(body) as { type: string; data: unknown };
        onEvent({ id, type: event.type, data: event.data });
      }
      res.writeHead(204).end();
    })();
  });
}

if (import.meta.main) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the secret PUT /webhook returned');
  const port = Number(process.env.PORT ?? 9000);
  createReceiver(secret, (e) => console.log(JSON.stringify(e))).listen(port, () => console.log(`listening on :${port}`));
}
