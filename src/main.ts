// `npm start`: the API (and, as they land, the worker and scheduler) in one process; with
// BIZCHECK_ROLE (or `bizcheck serve --role api|worker`) only a part of it, so several processes
// can share one PostgreSQL.
import { ConfigError, loadConfig, storeLabel } from './config.ts';
import { startServer } from './start/server.ts';

export async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`bizcheck: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const server = await startServer(config);
  const log = server.app.log;
  log.info({ url: server.url, role: config.role, store: server.store.kind, database: storeLabel(config.store), registry: config.nts.serviceKey ? 'nts' : 'sandbox' }, 'bizcheck listening');
  if (config.webhooks.allowPrivate) log.warn('WEBHOOK_ALLOW_PRIVATE=true: webhooks may be sent to loopback and private addresses (development and tests only)');
  if (config.webhooks.allowHttp) log.warn('WEBHOOK_ALLOW_HTTP=true: webhooks may be sent over plain http (development and tests only)');
  if (config.role === 'worker' && config.batch.workerConcurrency === 0) log.warn('BIZCHECK_ROLE=worker with BATCH_WORKER_CONCURRENCY=0: this process runs only model refits');
  if (!config.nts.serviceKey) log.info('no NTS_SERVICE_KEY: answering from the built-in sandbox registry (synthetic data, see src/registry/SANDBOX.md)');
  if (config.role !== 'worker' && (await server.store.accounts.count()) === 0) {
    process.stdout.write(
      [
        '',
        `No accounts yet in the ${storeLabel(config.store)}. Create one and its API key (shown once) with:`,
        // with the same store as this server, or the key lands in another database
        `  ${config.store.kind === 'postgres' ? 'DATABASE_URL=… ' : process.env.DATA_DIR ? `DATA_DIR=${config.dataDir} ` : ''}npx bizcheck accounts create --email you@example.com --plan business`,
        `then try:  curl -s -X POST ${server.url}/verify -H "X-API-Key: <api_key>" -H "content-type: application/json" -d '{"b_no":"1248100998"}'`,
        `API docs:  ${server.url}/docs`,
        '',
      ].join('\n'),
    );
  }
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1);
    log.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

export function startOrExit(): void {
  main().catch((err: unknown) => {
    process.stderr.write(`bizcheck: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}

// run as `node src/main.ts`; `bizcheck serve` imports it and calls startOrExit itself
if (import.meta.main) startOrExit();
