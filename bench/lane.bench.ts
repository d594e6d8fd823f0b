// `npm run bench:lane`: the CPU the HTTP lane's thread (http-lane.ts) spends on one NTS call: full
// calls of 100 numbers against the fake NTS (20 ms a call, in this process), 10 on the wire, in
// rounds of 1,000 after a round of 200 that warms the thread; read from /proc per thread. A named
// list against NTS makes one such call per 100 rows, so a millisecond here is 10 µs a row.
import { readdirSync, readFileSync } from 'node:fs';
import { HttpLane } from '../src/registry/http-lane.ts';
import { startFakeNts } from '../src/registry/fake-nts-server.ts';
import { serialiseStatusRequest, statusUrl } from '../src/registry/nts-wire.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';

const ROUNDS = [200, 1000, 1000, 1000];

/** CPU ms of this process's worker threads so far (the lane's is the only one) */
function workerCpuMs(): number {
  let ms = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (!readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').startsWith('WorkerThread')) continue;
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ms += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return ms;
}

const numbers = (k: number): string[] =>
  Array.from({ length: 100 }, (_, i) => {
    const head = String(100_000_000 + k * 100 + i).slice(0, 9);
    return head + checkDigitOf(head);
  });

const nts = await startFakeNts({ latencyMs: 20 });
const lane = new HttpLane(10, { wireTimeoutMs: 5000 });
try {
  const url = statusUrl(nts.url, 'bench');
  console.log(`bench:lane — full NTS calls (100 numbers) through the HTTP lane, 10 on the wire, fake NTS 20 ms a call; load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  for (const [i, n] of ROUNDS.entries()) {
    const cpu0 = workerCpuMs();
    const t0 = performance.now();
    let chars = 0;
    await Promise.all(
      Array.from({ length: n }, async (_, k) => {
        const res = await lane.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: serialiseStatusRequest(numbers(k)) });
        chars += (await res.text()).length;
      }),
    );
    const ms = workerCpuMs() - cpu0;
    console.log(`${i === 0 ? 'warm-up' : 'round'.padEnd(7)} ${String(n).padStart(5)} calls  lane thread ${(ms / n).toFixed(3)} ms CPU a call  ${((performance.now() - t0) / 1000).toFixed(1)} s  ${(chars / n / 1024).toFixed(1)} KiB an answer`);
  }
} finally {
  await lane.close();
  await nts.close();
}
