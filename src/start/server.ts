// Wires the service together from a Config: store, registry, HTTP. The only place that knows
// every concrete implementation.
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { accountDataRoutes, buildApp } from '../api/app.ts';
import { consolePlugin } from '../console/console-app.ts';
import { RouteInventory } from '../http/route-inventory.ts';
import { createRegistry, createStatusService } from '../registry/status-service.ts';
import { createValidator } from '../registry/validator.ts';
import { validateRoutes } from '../api/validate.ts';
import { EvidenceService } from '../evidence/evidence-service.ts';
import { Signer } from '../evidence/signer.ts';
import { ValidateService } from '../verification/validate-service.ts';
import type { StatusService } from '../domain/status.ts';
import { withAuthCache } from '../accounts/auth-cache.ts';
import { openStore } from '../store/open.ts';
import { createAddressService, type AddressService } from '../addresses/address-service.ts';
import { AddressThreads } from '../addresses/address-threads.ts';
import type { AddressThreadSetup } from '../addresses/address-thread-protocol.ts';
import type { AddressDirectory } from '../domain/address/types.ts';
import { ModelRefitter } from '../jobs/model-refit.ts';
import { BatchWorker } from '../jobs/batch-worker.ts';
import { BatchService } from '../batch/batch-service.ts';
import { statusWarming } from '../batch/upload-warmer.ts';
import { callsHandedOut } from '../registry/nts-registry.ts';
import { ModelProvider } from '../model/model-provider.ts';
import { AssessService } from '../verification/assess-service.ts';
import { chooseDirectory } from './addresses.ts';
import type { Store } from '../store/store.ts';
import { Quota } from '../accounts/quota.ts';
import { WatchChecker } from '../watch/watch-checker.ts';
import { WatchService } from '../watch/watch-service.ts';
import { WatchScheduler } from '../jobs/watch-scheduler.ts';
import { WebhookDeliverer } from '../jobs/webhook-deliverer.ts';
import { WebhookService } from '../webhooks/webhook-service.ts';
import { buildOpsApp } from '../api/ops-app.ts';
import { Metrics } from '../metrics/metrics.ts';
import { chunkCommits, observedStatus } from '../metrics/instrument.ts';
import { openUpstreamBudget } from './budget.ts';
import { DailyBudget } from '../registry/daily-budget.ts';
import { letThreadsTakeTheirOwnHeapLimits } from './thread-heaps.ts';
import { PollingLoop } from '../jobs/polling-loop.ts';
import { RetentionSweeper } from '../jobs/retention-sweep.ts';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  status: StatusService;
  models: ModelProvider;
  refitter: ModelRefitter;
  worker: BatchWorker;
  scheduler: WatchScheduler;
  /** expires batch jobs past retention (runOnce for tests that move the clock) */
  retention: RetentionSweeper;
  deliverer: WebhookDeliverer;
  directory: AddressDirectory;
  /** the address checks (an AddressThreads when batch chunks are checked in threads) */
  addresses: AddressService & { close(): Promise<void> };
  /** this process's Prometheus registry (others add their metrics to `metrics.registry`); undefined when METRICS_ENABLED=false */
  metrics: Metrics | undefined;
  url: string;
  /** the routes that need an API key or a console session, as registered */
  routes: RouteInventory;
  /** Stops taking requests, lets in-flight ones finish (up to the grace period), then closes everything. */
  stop(): Promise<void>;
}

/**
 * Address checks of single lookups kept in process (CheckMemo): ~1–2 KB each, so at most ~10 MB.
 * A batch chunk's are checked in a thread, which keeps none (its addresses rarely repeat across
 * chunks, and its heap is bounded).
 */
const SINGLE_CHECKS_KEPT = 5_000;

/**
 * The address checks: batch chunks' in worker threads when the directory can be opened there
 * (the local one in a file or PostgreSQL, or the sandbox), else in-process (juso is a remote
 * service: threads would only wait on it).
 */
function addressService(directory: AddressDirectory, config: Config, onError: (err: unknown) => void): AddressService & { close(): Promise<void> } {
  const local = createAddressService(directory, { memo: SINGLE_CHECKS_KEPT });
  const store = config.store;
  const setup: AddressThreadSetup | null =
    directory.source === 'sandbox' ? { directory: 'sandbox' } : directory.source === 'local' && !(store.kind === 'sqlite' && store.file === ':memory:') ? { directory: 'local', store, mmapBytes: config.addresses.mmapMb * 1024 ** 2 } : null;
  if (!setup || config.addresses.threads === 0) return { ...local, close: async () => {} };
  return new AddressThreads(local, setup, config.addresses.threads, { onError });
}

export async function startServer(config: Config, opts: { now?: () => Date } = {}): Promise<RunningServer> {
  const now = opts.now ?? (() => new Date());
  // before any thread starts: its own resourceLimits bound it, not the main thread's heap flags
  letThreadsTakeTheirOwnHeapLimits();
  const log = pino({ level: config.logLevel });
  const store = withAuthCache(await openStore(config.store), { ttlMs: config.authCacheTtlMs });
  const metrics = config.metrics.enabled ? new Metrics({ role: config.role }) : undefined;
  const budget = openUpstreamBudget(config);
  // the sandbox asks nobody, and 0 means no daily limit
  const daily = config.nts.serviceKey && config.upstream.maxNumbersPerDay > 0 ? new DailyBudget(store.upstreamDaily, config.upstream.maxNumbersPerDay, now) : undefined;
  const registry = createRegistry({
    serviceKey: config.nts.serviceKey,
    baseUrl: config.nts.baseUrl,
    timeoutMs: config.nts.timeoutMs,
    concurrency: config.nts.concurrency,
    halfOpenAfterMs: config.upstream.breakerHalfOpenMs,
    budget,
    ...(daily ? { daily } : {}),
    observer: metrics?.upstreamObserver(),
  });
  const plainStatus = createStatusService({ registry, cache: store.statusCache, ttlSeconds: config.nts.cacheTtlSeconds, now });
  const status = metrics ? observedStatus(plainStatus, metrics) : plainStatus;
  const validator = createValidator({ registry, cache: store.statusCache, ttlSeconds: config.nts.cacheTtlSeconds, now });
  const evidence = new EvidenceService(store.evidence, await Signer.load(store.evidence, now()), now);
  const directory = await chooseDirectory(config.addresses, store);
  const models = new ModelProvider(store, { onError: (err) => log.warn({ err }, 'could not load the newest bounce model') });
  const addresses = addressService(directory, config, (err) => log.warn({ err }, 'an address thread failed; the chunk was checked in-process'));
  const assess = new AssessService({ addresses, models, store, log });
  const worker = new BatchWorker({ store, ...(metrics ? { onCommit: chunkCommits(metrics) } : {}), status, assess, validator, evidence, now, concurrency: Math.max(1, config.batch.workerConcurrency), leaseMs: config.batch.leaseMs, upstreamWaitMs: config.batch.upstreamWaitMs, upstreamRetryMs: config.batch.upstreamRetryMs, log });
  const batch = new BatchService(store, { maxRows: config.batch.maxRows, maxFileBytes: config.batch.maxFileBytes, chunkSize: config.batch.chunkRows, chunkChars: config.batch.chunkChars, parseHeapMb: config.batch.parseHeapMb, uploadLeaseMs: config.batch.uploadLeaseMs, upstreamWaitMs: config.batch.upstreamWaitMs }, { now, onQueued: () => worker.notify(), registrySource: status.source, ...(status.source === 'nts' ? { warm: statusWarming(status, callsHandedOut(config.nts.concurrency), config.role === 'api') } : {}) });
  // uploads a crashed process left half-written are invisible; clear them out now and whenever
  // a lease runs out, so a dead upload's chunks do not wait for the next restart
  await batch.sweepDeadUploads();
  const uploadSweep = new PollingLoop('upload sweep', async () => (await batch.sweepDeadUploads(), false), { pollMs: config.batch.uploadLeaseMs, log });
  uploadSweep.start();
  const retention = new RetentionSweeper({ store, now, defaultDays: config.batch.retentionDays, evidenceDays: config.batch.evidenceRetentionDays, statusCacheDays: config.batch.statusCacheRetentionDays, webhookLogDays: config.batch.webhookLogRetentionDays, pollMs: config.batch.retentionSweepMs, log });
  const checker = new WatchChecker({ status, assess, evidence, now, onError: (err) => log.warn({ err }, 'assessing a watched business failed; its check is postponed') });
  const deliverer = new WebhookDeliverer({
    store,
    now,
    pollMs: config.webhooks.pollMs,
    concurrency: Math.max(1, config.webhooks.concurrency),
    timeoutMs: config.webhooks.timeoutMs,
    policy: config.webhooks,
    onAttempt: (res, delivered) => metrics?.webhookAttempts.inc({ outcome: delivered ? 'delivered' : res.status === null ? 'no_response' : 'http_error' }),
    log,
  });
  const scheduler = new WatchScheduler({
    store,
    checker,
    now,
    pollMs: config.watch.pollMs,
    claimSize: config.watch.claimSize,
    leaseMs: config.watch.leaseMs,
    onEvents: () => deliverer.notify(),
    onRound: (r) => {
      metrics?.watchChecks.inc({ outcome: 'checked' }, r.checked);
      metrics?.watchChecks.inc({ outcome: 'changed' }, r.changed);
      metrics?.watchChecks.inc({ outcome: 'postponed' }, r.postponed);
    },
    log,
  });
  const watch = new WatchService({ store, checker, quota: new Quota(store, now), now, recheck: (accountId, watchId) => scheduler.checkOne(accountId, watchId) });
  const webhooks = new WebhookService({ store, policy: config.webhooks, now, onQueued: () => deliverer.notify() });
  const routes = new RouteInventory();
  // a worker serves only probes and metrics; api and all serve the API
  const app = config.role === 'worker'
    ? await buildOpsApp({ store, status, log, role: config.role, metrics })
    : await buildApp({
      store, status, validator, assess, batch, watch, webhooks, evidence, maxFileBytes: config.batch.maxFileBytes, bodyLimitBytes: config.bodyLimitBytes, slowClients: config.slowClients, log, now,
      metrics, role: config.role, trustProxy: config.trustProxy, routes,
      console: consolePlugin({
        store, quota: new Quota(store, now), config: config.console, now, routes,
        apiRoutes: [
          ...accountDataRoutes({ batch, watch, webhooks, evidence, maxFileBytes: config.batch.maxFileBytes }),
          validateRoutes(new ValidateService(validator, new Quota(store, now), evidence)),
        ],
      }),
    });
  metrics?.watch({ upstream: () => status.health().upstream, workQueue: () => store.workQueue() });
  const refitter = new ModelRefitter({
    store,
    provider: models,
    minNewLabels: config.model.refitMinLabels,
    checkEveryMs: config.model.refitCheckMs,
    now,
    log,
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await uploadSweep.stop();
    await Promise.allSettled([app.close(), status.close(), addresses.close(), directory.close(), store.close(), budget?.close(), batch.close()]);
    throw err;
  }
  // background work belongs to workers: an api process only queues jobs for them
  const background = config.role !== 'api';
  if (background) refitter.start();
  if (background && config.batch.workerConcurrency > 0) worker.start();
  if (background && config.watch.scheduler) scheduler.start();
  if (background && config.webhooks.concurrency > 0) deliverer.start();
  if (background) retention.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceMs).unref());
      await Promise.race([app.close(), grace]);
      await Promise.all([uploadSweep.stop(), refitter.stop(), worker.stop(), scheduler.stop(), deliverer.stop(), retention.stop()]);
      await Promise.allSettled([status.close(), addresses.close(), directory.close(), budget?.close(), batch.close()]);
      await store.close();
    })());
  return { app, store, status, models, refitter, directory, addresses, worker, scheduler, retention, deliverer, metrics, routes, url: `http://${host}:${port}`, stop };
}
