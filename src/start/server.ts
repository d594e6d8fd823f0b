// Wires the service together from a Config: store, registry, HTTP. The only place that knows
// every concrete implementation.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { buildApp } from '../api/app.ts';
import { createRegistry, createStatusService } from '../registry/status-service.ts';
import type { StatusService } from '../registry/types.ts';
import { withAuthCache } from '../store/auth-cache.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/store.ts';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  status: StatusService;
  url: string;
  /** Stops taking requests, lets in-flight ones finish (up to the grace period), then closes everything. */
  stop(): Promise<void>;
}

export async function startServer(config: Config, opts: { now?: () => Date } = {}): Promise<RunningServer> {
  const now = opts.now ?? (() => new Date());
  const store = withAuthCache(await openStore(config.store), { ttlMs: config.authCacheTtlMs });
  const registry = createRegistry({
    serviceKey: config.nts.serviceKey,
    baseUrl: config.nts.baseUrl,
    timeoutMs: config.nts.timeoutMs,
    concurrency: config.nts.concurrency,
  });
  const status = createStatusService({ registry, cache: store, ttlSeconds: config.nts.cacheTtlSeconds, now });
  const app = await buildApp({ store, status, bodyLimitBytes: config.bodyLimitBytes, logLevel: config.logLevel, now });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await Promise.allSettled([app.close(), status.close(), store.close()]);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceMs).unref());
      await Promise.race([app.close(), grace]);
      await status.close();
      await store.close();
    })());
  return { app, store, status, url: `http://${host}:${port}`, stop };
}
