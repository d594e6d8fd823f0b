// Requests to customers' webhook URLs. A URL is chosen by the customer, so it must not reach into
// our own network: loopback, private, link-local (cloud metadata lives there), CGNAT, multicast
// and reserved ranges are refused — checked on the address actually connected to (the DNS answer
// is checked inside the connection's own lookup, so a name cannot be re-pointed in between).
// Development and tests switch this off with WEBHOOK_ALLOW_PRIVATE.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseRetryAfter } from '../registry/retry-after.ts';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

// IPv6 ranges that carry an IPv4 address inside: the address is as reachable as that IPv4 is
const EMBEDS_IPV4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

function v4At(parts: number[], from: number): IPv4 {
  return new ipaddr.IPv4([parts[from]! >> 8, parts[from]! & 0xff, parts[from + 1]! >> 8, parts[from + 1]! & 0xff]);
}

/** Every IPv4 address an IPv6 address embeds, by its range; null when it embeds none. */
function embeddedV4(a: IPv6): IPv4[] | null {
  const p = a.parts;
  const range = a.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [v4At(p, 6)];
  // IPv4-compatible (::a.b.c.d, deprecated): ipaddr.js calls it unicast
  if (p.slice(0, 6).every((x) => x === 0)) return [v4At(p, 6)];
  if (range === '6to4') return [v4At(p, 1)];
  // Teredo: the server's address in plain, the client's inverted in the last 32 bits
  if (range === 'teredo') return [v4At(p, 2), v4At(p.map((x) => ~x & 0xffff), 6)];
  if (range === 'rfc6052') {
    // the well-known 64:ff9b::/96 has it in the last 32 bits; the local-use 64:ff9b:1::/48 is a
    // network's own translator, so it is never public, whatever it embeds
    return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? [v4At(p, 6)] : [new ipaddr.IPv4([0, 0, 0, 0])];
  }
  return null;
}

/**
 * Whether a webhook may not connect to this address: anything but a public unicast address, in
 * any spelling — IPv4, IPv6, and IPv4 inside IPv6 (mapped, compatible, translated, NAT64, 6to4,
 * Teredo) — classified by ipaddr.js's table of special ranges.
 */
export function isForbiddenAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const addr = ipaddr.parse(ip.replace(/%.*$/, ''));
  if (ip.includes('%')) return true; // a zone index names a local interface
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const v6 = addr as IPv6;
  const inner = embeddedV4(v6);
  if (inner) return inner.some((v4) => v4.range() !== 'unicast');
  return v6.range() !== 'unicast' && !EMBEDS_IPV4.has(v6.range());
}

export interface OutboundPolicy {
  /** allow loopback and private targets (development and tests only) */
  allowPrivate: boolean;
  /** allow plain http (development and tests only); otherwise https is required */
  allowHttp: boolean;
}

/** Why a URL cannot be a webhook endpoint, or null when it can (before any DNS lookup). */
export function webhookUrlProblem(raw: string, policy: OutboundPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) return 'the URL must use https';
  if (url.username || url.password) return 'the URL must not carry a user name or password';
  if (url.hash) return 'the URL must not have a #fragment';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate) {
    if (isIP(host) && isForbiddenAddress(host)) return 'the URL points at a private, loopback or reserved address';
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) {
      return 'the URL points at a local host name';
    }
  }
  return null;
}

class BlockedAddress extends Error {
  override name = 'BlockedAddress';
}

function guardedLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => isForbiddenAddress(a.address));
      if (bad) return callback(new BlockedAddress(`${hostname} resolves to ${bad.address}, a private or reserved address`), '', 0);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

export interface PostOutcome {
  /** HTTP status, or null when no response came */
  status: number | null;
  error: string | null;
  retryAfterMs: number | undefined;
  durationMs: number;
}

/** Keeps at most this much of a response body (for the attempt log's error text). */
const SNIPPET_BYTES = 512;

/** POSTs `body` once; never follows redirects; any outcome is a value, never a throw. */
export function postJson(rawUrl: string, headers: Record<string, string>, body: string, opts: { timeoutMs: number; policy: OutboundPolicy }): Promise<PostOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(rawUrl, opts.policy);
  if (problem) return Promise.resolve({ status: null, error: `refused: ${problem}`, retryAfterMs: undefined, durationMs: 0 });
  const url = new URL(rawUrl);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'bizcheck-webhooks/1' },
        signal: AbortSignal.timeout(opts.timeoutMs),
        ...(opts.policy.allowPrivate ? {} : { lookup: guardedLookup() }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < SNIPPET_BYTES) chunks.push(c.subarray(0, SNIPPET_BYTES - kept));
          kept += c.length;
        });
        res.on('error', () => undefined);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const retryAfter = res.headers['retry-after'];
          resolve({
            status,
            error: ok ? null : `HTTP ${status}${chunks.length ? `: ${Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim()}` : ''}`.slice(0, 300),
            retryAfterMs: parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : null, Date.now()),
            durationMs: took(),
          });
        });
      },
    );
    req.on('error', (err: Error) => {
      const reason = err.name === 'TimeoutError' || err.name === 'AbortError' ? `timed out after ${opts.timeoutMs} ms` : err instanceof BlockedAddress ? `refused: ${err.message}` : err.message;
      resolve({ status: null, error: reason.slice(0, 300), retryAfterMs: undefined, durationMs: took() });
    });
    req.end(body);
  });
}
