// The thread behind HttpLane (http-lane.ts): sends the requests it is given, at most `maxInFlight`
// at once, the rest in arrival order as each one returns. Its event loop does nothing else, so a
// returning call frees its place, and the next request goes out, at once, however busy the main
// thread is.
import { parentPort, workerData } from 'node:worker_threads';
import type { FromLane, LaneRequest, LaneSetup, ToLane } from './http-lane.ts';

const { maxInFlight } = workerData as LaneSetup;
const port = parentPort!;
const queue: LaneRequest[] = [];
const running = new Map<number, AbortController>();

function pump(): void {
  while (running.size < maxInFlight && queue.length > 0) send(queue.shift()!);
}

function send(req: LaneRequest): void {
  const controller = new AbortController();
  running.set(req.id, controller);
  const started = performance.now();
  void (async (): Promise<FromLane> => {
    try {
      const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: controller.signal });
      // the body is read here: a call holds its place until its answer is whole
      const text = await res.text();
      return { id: req.id, ok: true, status: res.status, headers: [...res.headers], text, ms: performance.now() - started };
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
      return {
        id: req.id, ok: false, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error),
        cause: cause && { message: cause.message, code: 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined },
      };
    }
  })().then((reply) => {
    running.delete(req.id);
    // the next request leaves before the answer is handed over
    pump();
    if (!controller.signal.aborted) port.postMessage(reply);
  });
}

port.on('message', (m: ToLane) => {
  if (m.type === 'send') {
    queue.push(m.request);
    pump();
    return;
  }
  const at = queue.findIndex((r) => r.id === m.id);
  if (at >= 0) queue.splice(at, 1);
  running.get(m.id)?.abort();
});
