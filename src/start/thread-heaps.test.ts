import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCommand } from '../../bench/lib.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { nodeArgs } = startCommand(path.join(root, 'package.json'));

/**
 * Runs, under `npm start`'s node flags, a thread bounded at 32 MB that keeps allocating: what it
 * reports, and the main thread's heap limit.
 */
function boundedThreadUnderStartFlags(release: boolean): { thread: string; mainLimitMb: number } {
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { letThreadsTakeTheirOwnHeapLimits } from ${JSON.stringify(path.join(root, 'src/start/thread-heaps.ts'))};
    if (${release}) letThreadsTakeTheirOwnHeapLimits();
    const grow = "const { parentPort } = await import('node:worker_threads'); const keep = []; for (let i = 0; i < 120; i++) keep.push(Array.from({ length: 1e5 }, (_, j) => ({ j }))); parentPort.postMessage('survived');";
    const w = new Worker(grow, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
    const done = (thread) => { console.log(JSON.stringify({ thread, mainLimitMb: v8.getHeapStatistics().heap_size_limit / 2 ** 20 })); process.exit(0); };
    w.on('message', done);
    w.on('error', (err) => done(err.code));
  `;
  const out = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as { thread: string; mainLimitMb: number };
}

test("npm start's heap flags hold the main thread only: a thread's resourceLimits bound it", () => {
  assert.ok(nodeArgs.some((a) => a.startsWith('--max-old-space-size')), 'npm start gives a heap flag (else this test shows nothing)');
  // what V8 does with the flags alone: the thread outgrows its 32 MB
  assert.equal(boundedThreadUnderStartFlags(false).thread, 'survived');
  const released = boundedThreadUnderStartFlags(true);
  assert.equal(released.thread, 'ERR_WORKER_OUT_OF_MEMORY');
  assert.ok(released.mainLimitMb >= 1024, `the main thread keeps its limit (${released.mainLimitMb} MB)`);
});
