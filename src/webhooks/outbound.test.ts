import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { isForbiddenAddress, postJson, webhookUrlProblem } from './outbound.ts';

const strict = { allowPrivate: false, allowHttp: false };

test('private, loopback, link-local, metadata and reserved addresses are forbidden', () => {
  for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', 'not an ip']) {
    assert.ok(isForbiddenAddress(ip), ip);
  }
  for (const ip of ['8.8.8.8', '211.234.10.10', '172.32.0.1', '2001:4860:4860::8888']) assert.ok(!isForbiddenAddress(ip), ip);
});

// every spelling of a non-public address, IPv4 inside IPv6 included, and public ones of each kind
const BLOCKED = [
  '127.0.0.1', '127.255.255.254', '10.1.2.3', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '0.1.2.3',
  '224.0.0.251', '239.255.255.250', '255.255.255.255', '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '240.0.0.1', '192.0.0.8',
  '::', '::1', 'fe80::1', 'fe80::1%eth0', 'fd00::1', 'fc00::1', 'fec0::1', 'ff02::1', '100::1', '2001:db8::1', '2001:2::1', '2001:20::1',
  // IPv4-mapped, -compatible and -translated forms of loopback, private and metadata addresses
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::ffff:0:7f00:1', '::ffff:0:a00:1',
  // NAT64: the well-known prefix embedding private addresses, and the local-use prefix
  '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::a00:1', '64:ff9b:1::a9fe:a9fe', '64:ff9b:1::808:808',
  // 6to4 and Teredo carrying private addresses
  '2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::', '2001:0:a00:1::1', '2001:0:808:808::80ff:fffe',
  'not an ip', '',
];
const ALLOWED = ['8.8.8.8', '1.1.1.1', '211.234.10.10', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:808:808::f7f7:f7f7'];

test(`${BLOCKED.length} non-public address forms are forbidden and ${ALLOWED.length} public ones allowed, IPv4 inside IPv6 included`, () => {
  assert.ok(BLOCKED.length >= 40);
  for (const ip of BLOCKED) assert.ok(isForbiddenAddress(ip), `should be forbidden: ${ip}`);
  for (const ip of ALLOWED) assert.ok(!isForbiddenAddress(ip), `should be allowed: ${ip}`);
});

test('the literal URLs of the report, and IPv4 spellings URL parsing turns into addresses, are refused before any connection', () => {
  for (const url of ['https://[::127.0.0.1]/', 'https://[::ffff:0:7f00:1]/', 'https://[64:ff9b:1::a9fe:a9fe]/', 'https://[2002:7f00:1::]/', 'https://[fec0::1]/', 'https://2130706433/', 'https://0x7f.1/', 'https://127.1/', 'https://0177.0.0.1/', 'https://[::ffff:a9fe:a9fe]/latest/meta-data']) {
    assert.match(webhookUrlProblem(url, strict) ?? 'allowed', /private/, url);
  }
});

test('webhook URLs must be https to a public host unless development switches allow otherwise', () => {
  assert.equal(webhookUrlProblem('https://hooks.example.com/x', strict), null);
  assert.match(webhookUrlProblem('http://hooks.example.com/x', strict)!, /https/);
  assert.match(webhookUrlProblem('https://127.0.0.1/x', strict)!, /private/);
  assert.match(webhookUrlProblem('https://[::ffff:169.254.169.254]/x', strict)!, /private/);
  assert.match(webhookUrlProblem('https://localhost:8080/x', strict)!, /local/);
  assert.match(webhookUrlProblem('https://u:p@hooks.example.com/x', strict)!, /password/);
  assert.match(webhookUrlProblem('javascript:alert(1)', strict)!, /https/);
  assert.equal(webhookUrlProblem('http://127.0.0.1:9/x', { allowPrivate: true, allowHttp: true }), null);
});

test('a host name that resolves to a private address is refused at connection time', async (t) => {
  const name = hostname();
  const { address } = await lookup(name).catch(() => ({ address: '' }));
  if (!address || !isForbiddenAddress(address)) return t.skip(`${name} does not resolve to a private address here`);
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  try {
    const { port } = server.address() as AddressInfo;
    const out = await postJson(`http://${name}:${port}/x`, {}, '{}', { timeoutMs: 2000, policy: { allowPrivate: false, allowHttp: true } });
    assert.equal(out.status, null);
    assert.match(out.error!, /refused: .*private or reserved/);
    assert.equal(hits, 0, 'nothing reached the server');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('outcomes are values: status and a body snippet, timeouts, refused connections; redirects are not followed', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/slow') return void setTimeout(() => res.end(), 1000);
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
    if (req.url === '/busy') return void res.writeHead(503, { 'retry-after': '120' }).end('try later');
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dev = { timeoutMs: 300, policy: { allowPrivate: true, allowHttp: true } };
  try {
    assert.equal((await postJson(`${base}/ok`, {}, '{}', dev)).status, 204);
    const busy = await postJson(`${base}/busy`, {}, '{}', dev);
    assert.equal(busy.status, 503);
    assert.equal(busy.retryAfterMs, 120_000);
    assert.match(busy.error!, /HTTP 503: try later/);
    assert.equal((await postJson(`${base}/redirect`, {}, '{}', dev)).status, 302);
    const slow = await postJson(`${base}/slow`, {}, '{}', dev);
    assert.equal(slow.status, null);
    assert.match(slow.error!, /timed out/);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  const refused = await postJson(`${base}/ok`, {}, '{}', dev);
  assert.equal(refused.status, null);
  assert.match(refused.error!, /ECONNREFUSED/);
});
