// A stand-in for parse-worker.ts that answers 'start' by building objects without end: what a
// parser fed a file shaped to exhaust memory would do. Used to test that such a parse ends only
// its own thread (src/batch/files/isolated-rows.ts).
import { parentPort } from 'node:worker_threads';

const held: unknown[] = [];
parentPort!.on('message', (m: { t: string }) => {
  if (m.t !== 'start') return;
  for (let i = 0; ; i++) held.push({ i, text: `row ${i}` });
});
