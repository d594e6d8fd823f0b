// A real server on 127.0.0.1 with a random port, on a fresh store, for tests that go over HTTP.
import { createAccount } from '../../src/accounts/accounts.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { PlanName } from '../../src/domain/plans.ts';
import { startServer, type RunningServer } from '../../src/start/server.ts';
import { freshStoreConfig, type StoreKind } from './stores.ts';

export interface TestServer extends RunningServer {
  config: Config;
  account(plan?: PlanName, email?: string): Promise<{ accountId: string; apiKey: string }>;
  close(): Promise<void>;
}

/**
 * `opts.shareWith`: use that server's database instead of a fresh one, as a second process on one
 * PostgreSQL would (PostgreSQL only: two embedded connections in one process break SQLite locking).
 */
export async function startTestServer(
  kind: StoreKind,
  env: Record<string, string> = {},
  opts: { now?: () => Date; shareWith?: TestServer } = {},
): Promise<TestServer> {
  const fresh = opts.shareWith
    ? { config: opts.shareWith.config.store, dataDir: opts.shareWith.config.dataDir, cleanup: async () => {} }
    : freshStoreConfig(kind);
  const config: Config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: fresh.dataDir, ...env }), store: fresh.config };
  const server = await startServer(config, opts);
  let n = 0;
  return {
    ...server,
    config,
    account: async (plan = 'business', email) => {
      const { account, apiKey } = await createAccount(server.store, email ?? `user${++n}-${Date.now()}@example.com`, plan);
      return { accountId: account.id, apiKey };
    },
    close: async () => {
      await server.stop();
      await fresh.cleanup();
    },
  };
}

export interface Call {
  status: number;
  headers: Headers;
  body: any;
}

/** fetch with JSON in and out; `body` is sent as JSON unless it is already a string. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Call> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
