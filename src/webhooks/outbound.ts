// Requests to customers' webhook URLs. A URL is chosen by the customer, so it must not reach into
// our own network: loopback, private, link-local (cloud metadata lives there), CGNAT, multicast
// and reserved ranges are refused — checked on the address actually connected to (the DNS answer
// is checked inside the connection's own lookup, so a name cannot be re-pointed in between).
// Development and tests switch this off with WEBHOOK_ALLOW_PRIVATE.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { parseRetryAfter } from '../registry/retry-after.ts';

const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) FORBIDDEN.addSubnet(net, bits, 'ipv4');
// IPv4-mapped addresses (::ffff:a.b.c.d) are matched against the IPv4 rules by BlockList itself
for (const [net, bits] of [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32]] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  return FORBIDDEN.check(ip, family === 4 ? 'ipv4' : 'ipv6');
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
