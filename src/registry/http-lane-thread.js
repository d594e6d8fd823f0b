// The thread behind HttpLane (http-lane.ts): sends the requests it is given, at most
// `maxInFlight` at once, the rest in arrival order as each one returns. Its event loop does
// nothing else, so a returning call frees its place, and the next request goes out, at once,
// however busy the main thread is.
//
// JavaScript checked by tsc (JSDoc types), not TypeScript: a thread that loads a .ts file also
// loads Node's type stripper, ~11 MB of resident memory for a thread that otherwise holds ~24.
import { parentPort, workerData } from 'node:worker_threads';

/** @import { FromLane, LaneRequest, LaneSetup, ToLane } from './http-lane.ts' */

const { maxInFlight, wireTimeoutMs } = /** @type {LaneSetup} */ (workerData);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
/** @type {LaneRequest[]} */
const queue = [];
/** @type {Map<number, AbortController>} */
const running = new Map();

function pump() {
  while (running.size < maxInFlight && queue.length > 0) send(/** @type {LaneRequest} */ (queue.shift()));
}

/** @param {LaneRequest} req */
function send(req) {
  const controller = new AbortController();
  running.set(req.id, controller);
  // the attempt's time counts from here, on the wire, not from when it was handed over: a wait
  // in the queue above is the lane's, and must not make a call to a slow NTS a timeout
  const timer = wireTimeoutMs === undefined ? undefined : setTimeout(() => controller.abort(new DOMException(`NTS call timed out after ${wireTimeoutMs} ms`, 'TimeoutError')), wireTimeoutMs);
  void call(req, controller.signal).then((reply) => {
    clearTimeout(timer);
    running.delete(req.id);
    // the next request leaves before this answer is handed over
    pump();
    // aborted by the main thread: nobody waits for it; timed out here: the reply says so
    if (!controller.signal.aborted || isTimeout(controller.signal.reason)) port.postMessage(reply);
  });
}

/**
 * @param {LaneRequest} req
 * @param {AbortSignal} signal
 * @returns {Promise<FromLane>}
 */
async function call(req, signal) {
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal });
    // the body is read here: a call holds its place until its answer is whole
    const text = await res.text();
    return { id: req.id, ok: true, status: res.status, headers: [...res.headers], text };
  } catch (thrown) {
    // fetch rejects with its signal's reason, the timeout above included
    const error = signal.aborted ? signal.reason : thrown;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
    const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
    return {
      id: req.id, ok: false, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error),
      cause: cause && { message: cause.message, code },
    };
  }
}

/** @param {unknown} reason */
function isTimeout(reason) {
  return reason instanceof Error && reason.name === 'TimeoutError';
}

port.on('message', (/** @type {ToLane} */ m) => {
  if (m.type === 'send') {
    queue.push(m.request);
    pump();
    return;
  }
  const at = queue.findIndex((r) => r.id === m.id);
  if (at >= 0) queue.splice(at, 1);
  running.get(m.id)?.abort();
});
