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
