// Runs the fake NTS status server from the command line, e.g.
//   node scripts/fake-nts.ts --port 9999 --latency-ms 100 --error-rate 0.1 --service-key test
// then point the service at it with the printed URL as the NTS base URL.

import { parseArgs } from 'node:util';
import { startFakeNts } from '../src/registry/fake-nts-server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '9999' },
    host: { type: 'string', default: '127.0.0.1' },
    'latency-ms': { type: 'string', default: '0' },
    'error-rate': { type: 'string', default: '0' },
    'malformed-rate': { type: 'string', default: '0' },
    'timeout-rate': { type: 'string', default: '0' },
    'service-key': { type: 'string' },
    'max-per-call': { type: 'string', default: '100' },
    'daily-limit': { type: 'string' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`usage: node scripts/fake-nts.ts [--port 9999] [--host 127.0.0.1] [--latency-ms 0]
  [--error-rate 0..1] [--malformed-rate 0..1] [--timeout-rate 0..1] [--service-key KEY]
  [--max-per-call 100] [--daily-limit N] [--seed 1]
While it runs, PUT /_admin/status/{b_no} {"status": "active|suspended|closed|unregistered", "end_dt": "YYYYMMDD"}
changes what it answers for a number (DELETE restores it; GET /_admin/status lists changes).`);
  process.exit(0);
}

function num(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number in ${min}..${max}, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}

const server = await startFakeNts({
  port: num('port', values.port, 0, 65535),
  host: values.host,
  latencyMs: num('latency-ms', values['latency-ms'], 0, 600_000),
  errorRate: num('error-rate', values['error-rate'], 0, 1),
  malformedRate: num('malformed-rate', values['malformed-rate'], 0, 1),
  timeoutRate: num('timeout-rate', values['timeout-rate'], 0, 1),
  serviceKey: values['service-key'],
  maxPerCall: num('max-per-call', values['max-per-call'], 1, 10_000),
  seed: num('seed', values.seed, 0, 2 ** 32 - 1),
  ...(values['daily-limit'] === undefined ? {} : { dailyLimit: num('daily-limit', values['daily-limit'], 0, 1e12) }),
});
console.log(`fake NTS listening on ${server.url} (POST ${server.url}/api/nts-businessman/v1/status and /validate)`);
console.log(`change a number's status while running: curl -X PUT ${server.url}/_admin/status/1248100998${values['service-key'] ? '?serviceKey=…' : ''} -d '{"status":"closed"}'`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  console.log(`fake NTS stopped (${signal}) after ${server.calls} calls`);
  process.exit(0);
}
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
