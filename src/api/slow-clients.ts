// Bounds on how long a client may hold a connection without sending: headers within a few
// seconds, a JSON body within seconds, an upload at no less than a minimum throughput, any
// request within an hour, and no more than so many connections from one address at once.
// Without them a body trickled a byte every ten seconds holds a connection (and its memory) for
// as long as the client likes, and a few hundred such connections exhaust the server.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { SlowClientLimits } from '../config.ts';

export function installSlowClientLimits(app: FastifyInstance, limits: SlowClientLimits): void {
  const server = app.server;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;

  if (limits.maxConnectionsPerClient > 0) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const who = socket.remoteAddress ?? '';
      const n = (open.get(who) ?? 0) + 1;
      if (n > limits.maxConnectionsPerClient) {
        socket.destroy();
        return;
      }
      open.set(who, n);
      socket.once('close', () => {
        const left = (open.get(who) ?? 1) - 1;
        if (left <= 0) open.delete(who);
        else open.set(who, left);
      });
    });
  }

  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    if (raw.complete) return;
    const socket = raw.socket;
    const upload = (request.headers['content-type'] ?? '').startsWith('multipart/');
    // the socket's byte count, not a 'data' listener: listening would take the body from its parser
    let last = socket.bytesRead;
    const started = Date.now();
    const cut = () => {
      clearInterval(timer);
      if (!raw.complete) socket.destroy();
    };
    const tick = upload ? limits.uploadWindowMs : limits.bodyTimeoutMs;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      if (!upload) return cut();
      const moved = socket.bytesRead - last;
      last = socket.bytesRead;
      // bytes waiting on our side mean we are the slow one (the parser holds back): not the client's fault
      const ours = socket.readableLength > 0 || raw.readableLength > 0;
      if ((!ours && moved < (limits.uploadMinBytesPerSecond * limits.uploadWindowMs) / 1000) || Date.now() - started > limits.requestTimeoutMs) cut();
    }, tick);
    timer.unref();
    raw.once('end', () => clearInterval(timer));
    raw.once('close', () => clearInterval(timer));
  });
}
