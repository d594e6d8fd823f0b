// The thread behind HttpLane (http-lane.ts): sends the requests it is given, at most
// `maxInFlight` at once, the rest in arrival order as each one returns. Its event loop does
// nothing else, so a returning call frees its place, and the next request goes out, at once,
// however busy the main thread is.
//
// JavaScript checked by tsc (JSDoc types), not TypeScript: a thread that loads a .ts file also
// loads Node's type stripper, ~11 MB of resident memory for a thread that otherwise holds ~24.
import http from 'node:http';
import https from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

/** @import { FromLane, LaneRequest, LaneSetup, ToLane } from './http-lane.ts' */

const { maxInFlight, wireTimeoutMs } = /** @type {LaneSetup} */ (workerData);
const USER_AGENT = 'bizcheck';
// connections kept open between calls, one per place on the wire
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: maxInFlight });
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
 * One request, as fetch would answer it: the status, headers and whole body as text, or the error
 * a failed fetch rejects with (a TypeError "fetch failed" whose cause is the socket's error; the
 * signal's reason when it was aborted). node:http rather than fetch: the same call cost this thread
 * twice the CPU through fetch's streams and objects (`npm run bench:lane`). No redirects are
 * followed and no compression is asked for: NTS answers neither way. It is named in a User-Agent,
 * as fetch named itself, for gateways that refuse a request without one.
 * @param {LaneRequest} req
 * @param {AbortSignal} signal
 * @returns {Promise<FromLane>}
 */
function call(req, signal) {
  return new Promise((resolve) => {
    let settled = false;
    /** @param {FromLane} reply */
    const settle = (reply) => {
      if (settled) return;
      settled = true;
      resolve(reply);
    };
    /** @param {unknown} thrown */
    const fail = (thrown) => {
      const error = signal.aborted ? signal.reason : new TypeError('fetch failed', { cause: thrown });
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
      const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
      settle({
        id: req.id, ok: false, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error),
        cause: cause && { message: cause.message, code },
      });
    };
    let url;
    try {
      url = new URL(req.url);
    } catch (thrown) {
      fail(thrown);
      return;
    }
    const secure = url.protocol === 'https:';
    /** @type {Record<string, string>} */
    const headers = { 'user-agent': USER_AGENT, ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const request = (secure ? https : http).request(url, { method: req.method, headers, agent: secure ? httpsAgent : httpAgent, signal }, (res) => {
      /** @type {Buffer[]} */
      const parts = [];
      res.on('data', (/** @type {Buffer} */ b) => parts.push(b));
      res.on('error', fail);
      // a body cut short (the connection closed, or aborted) ends without 'end'
      res.on('close', () => {
        if (!res.complete) fail(Object.assign(new Error('the connection closed before the answer was whole'), { code: 'UND_ERR_SOCKET' }));
      });
      res.on('end', () => {
        /** @type {[string, string][]} */
        const pairs = [];
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) pairs.push([name, Array.isArray(value) ? value.join(', ') : value]);
        settle({ id: req.id, ok: true, status: res.statusCode ?? 0, headers: pairs, text: Buffer.concat(parts).toString('utf8') });
      });
    });
    request.on('error', fail);
    request.end(req.body);
  });
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
