// The whole environment, read once and validated at start-up. A bad value stops the process
// with a message naming the variable, instead of surfacing later as a confusing failure.
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import path from 'node:path';
import { availableParallelism } from 'node:os';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const Flag = (description: string) => Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false', description });

const Int = (min: number, max: number, dflt: number, description: string) =>
  Type.Integer({ minimum: min, maximum: max, default: dflt, description });

export const EnvSchema = Type.Object({
  PORT: Int(0, 65535, 8080, 'TCP port to listen on'),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'interface to bind; 0.0.0.0 in containers' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data', description: 'folder of the embedded database' }),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: '^postgres(ql)?://', description: 'a postgres:// URL switches the store to PostgreSQL' }),
  ),
  DATABASE_SCHEMA: Type.Optional(Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'PostgreSQL schema to use (created if missing); default the search_path' })),
  DATABASE_NAMED_STATEMENTS: Int(0, 10_000, 256, 'PostgreSQL: statements run again and again are named, so each connection parses them once; at most this many texts. 0 for a pooler in transaction mode (PgBouncer before 1.21, or without max_prepared_statements)'),
  NTS_SERVICE_KEY: Type.Optional(Type.String({ description: 'data.go.kr service key; without it the sandbox registry answers' })),
  NTS_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://api.odcloud.kr', description: 'NTS status API base URL' }),
  NTS_TIMEOUT_MS: Int(100, 60_000, 5000, 'per-attempt timeout of an NTS call, from when it goes on the wire'),
  NTS_CONCURRENCY: Int(1, 100, 10, 'NTS calls in flight at once, per process'),
  NTS_CACHE_TTL_SECONDS: Int(0, 30 * 86400, 12 * 3600, 'how long an NTS answer counts as fresh'),
  ADDRESS_DIRECTORY: Type.Union(['auto', 'sandbox', 'local', 'juso'].map((l) => Type.Literal(l)), {
    default: 'auto',
    description: 'auto: juso with JUSO_CONFM_KEY, else the imported local directory when it has rows, else the sandbox',
  }),
  JUSO_CONFM_KEY: Type.Optional(Type.String({ description: '도로명주소 검색 API confirmation key' })),
  ADDRESS_THREADS: Int(0, 64, Math.max(1, availableParallelism() - 1), "worker threads that check a batch chunk's addresses (parse, directory lookups, match) and score its named rows beside the main thread; 0 does both in-process. Default: the cores but one"),
  ADDRESS_MMAP_MB: Int(0, 1_048_576, 256, "embedded store: how much of the address directory's file (bizcheck-addresses.db) each address thread reads through a memory map (SQLite's mmap_size) rather than by copies into its page cache: ~15 % less CPU in the address thread a named row. The mapped pages are the OS's cache of the file, not a copy, but they count in the process's RSS (up to the directory's size); 0: none"),
  JUSO_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://business.juso.go.kr', description: '도로명주소 검색 API base URL' }),
  MODEL_REFIT_MIN_LABELS: Int(1, 1_000_000, 200, 'new or changed labels that trigger a model refit'),
  MODEL_REFIT_CHECK_SECONDS: Int(1, 86_400, 60, 'how often the label count is checked'),
  BATCH_MAX_FILE_BYTES: Int(1024, 2 * 1024 ** 3, 200 * 1024 ** 2, 'largest uploaded file (413 above)'),
  BATCH_MAX_ROWS: Int(1, 10_000_000, 1_000_000, 'most data rows in one file (413 above)'),
  BATCH_CHUNK_ROWS: Int(10, 100_000, 1000, 'rows a worker leases and commits at a time'),
  BATCH_CHUNK_CHARS: Int(10_000, 256 * 1024 ** 2, 1024 ** 2, 'characters of cell text a chunk holds at most (wide rows make smaller chunks)'),
  BATCH_UPLOAD_LEASE_SECONDS: Int(3, 3600, 30, 'an upload whose process stops renewing this lease is removed and its Idempotency-Key freed'),
  BATCH_PARSE_HEAP_MB: Int(32, 4096, 160, 'heap of the worker thread that parses one uploaded file; a file that needs more is refused with 413'),
  BATCH_WORKER_CONCURRENCY: Int(0, 64, 8, 'chunks processed at once per process; 0 runs no worker here'),
  BATCH_LEASE_SECONDS: Int(1, 3600, 60, 'how long a claimed chunk stays with a worker that stopped answering'),
  BATCH_UPSTREAM_WAIT_SECONDS: Int(0, 7 * 86400, 6 * 3600, 'how long a job waits for NTS to come back before its unanswered rows become unknown (0: no wait)'),
  BATCH_UPSTREAM_RETRY_SECONDS: Int(1, 3600, 15, 'how often a waiting job tries NTS again'),
  WATCH_POLL_SECONDS: Int(1, 3600, 15, 'how often a scheduler looks for watched businesses due for a check'),
  BATCH_RETENTION_DAYS: Int(1, 3650, 90, "days a finished job's uploaded rows and results are kept (an account may have its own: accounts set-retention)"),
  EVIDENCE_RETENTION_DAYS: Int(1, 36_500, 1826, 'days the evidence of NTS answers is kept (default five years: Korean tax records are kept five)'),
  STATUS_CACHE_RETENTION_DAYS: Int(1, 3650, 30, 'days an NTS answer stays in the status cache to serve stale answers in outages and offline jobs'),
  WEBHOOK_LOG_RETENTION_DAYS: Int(1, 3650, 30, 'days a finished webhook delivery and its attempts stay in the log'),
  RETENTION_SWEEP_SECONDS: Int(1, 86_400, 3600, 'how often the retention sweep looks for jobs past retention'),
  WATCH_CLAIM_SIZE: Type.Optional(
    Type.Integer({
      minimum: 1, maximum: 10_000,
      description: 'due watches one scheduler claims and commits at a time (their lookups share upstream calls of 100); default 500 on PostgreSQL, 100 embedded',
    }),
  ),
  WATCH_LEASE_SECONDS: Int(5, 3600, 120, 'how long a claimed watch stays with a scheduler that stopped answering'),
  WATCH_SCHEDULER: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on', description: 'off: this process runs no watch scheduler' }),
  WEBHOOK_TIMEOUT_MS: Int(100, 60_000, 10_000, 'how long one webhook attempt may take'),
  WEBHOOK_POLL_SECONDS: Int(1, 3600, 5, 'how often a deliverer looks for webhook attempts that are due'),
  WEBHOOK_CONCURRENCY: Int(0, 256, 8, 'webhook requests in flight per process; 0 runs no deliverer here'),
  WEBHOOK_ALLOW_PRIVATE: Flag('true lets webhooks go to loopback and private addresses (development and tests only)'),
  WEBHOOK_ALLOW_HTTP: Flag('true allows http:// webhook URLs (development and tests only); otherwise https is required'),
  AUTH_CACHE_TTL_MS: Int(0, 60_000, 1000, 'how long an API key check is reused; revocations from another process apply within it'),
  HTTP_HEADERS_TIMEOUT_SECONDS: Int(1, 300, 10, 'a request\'s headers must arrive within this'),
  HTTP_BODY_TIMEOUT_SECONDS: Int(1, 600, 15, 'a JSON request body must arrive within this (uploads: see UPLOAD_MIN_BYTES_PER_SECOND)'),
  HTTP_REQUEST_TIMEOUT_SECONDS: Int(10, 86_400, 3600, 'any request, uploads included, must arrive within this'),
  UPLOAD_MIN_BYTES_PER_SECOND: Int(0, 100 * 1024 ** 2, 4096, 'an upload slower than this over UPLOAD_WINDOW_SECONDS is cut'),
  UPLOAD_WINDOW_SECONDS: Int(1, 600, 20, 'the window an upload\'s throughput is measured over'),
  MAX_CONNECTIONS_PER_CLIENT: Int(0, 100_000, 256, 'connections one client address may hold at once (0: no cap; none is applied with TRUST_PROXY=true)'),
  BODY_LIMIT_BYTES: Int(1024, 1024 ** 3, 64 * 1024, 'largest JSON request body'),
  LOG_LEVEL: Type.Union(LOG_LEVELS.map((l) => Type.Literal(l)), { default: 'info', description: LOG_LEVELS.join(' | ') }),
  SHUTDOWN_GRACE_MS: Int(0, 120_000, 10_000, 'how long in-flight requests may finish on SIGTERM'),
  TRUST_PROXY: Type.Union([Type.Literal('true'), Type.Literal('false')], {
    default: 'false',
    description: 'true behind a reverse proxy: client IP and https are read from X-Forwarded-For / X-Forwarded-Proto',
  }),
  CONSOLE_COOKIE_SECURE: Type.Union(['auto', 'true', 'false'].map((l) => Type.Literal(l)), {
    default: 'auto',
    description: 'Secure flag of the console session cookie: auto sets it when the request came over https',
  }),
  CONSOLE_SIGNUP: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'true', description: 'whether anyone may create an account in the console' }),
  CONSOLE_SESSION_HOURS: Int(1, 720, 12, 'a console session ends this long after sign-in'),
  CONSOLE_SIGNIN_MAX_FAILURES: Int(1, 1000, 5, 'failed console sign-ins per email within the window before 429'),
  CONSOLE_SIGNIN_MAX_FAILURES_PER_IP: Int(1, 100_000, 20, 'failed console sign-ins per client IP within the window before 429'),
  CONSOLE_SIGNIN_WINDOW_SECONDS: Int(10, 86_400, 900, 'the sign-in rate-limit window'),
  CONSOLE_SIGNUPS_PER_IP_HOUR: Int(1, 100_000, 10, 'console accounts one client IP may create in an hour'),
  BIZCHECK_ROLE: Type.Union(ROLES.map((r) => Type.Literal(r)), {
    default: 'all',
    description: 'all: API and background work; api: the HTTP API only; worker: batch chunks and refits, with only /healthz, /readyz, /metrics',
  }),
  NTS_MAX_CALLS_PER_SECOND: Int(0, 10_000, 0, 'NTS calls per second across every process on the database (0: no limit)'),
  NTS_MAX_NUMBERS_PER_DAY: Int(0, 1_000_000_000, 1_000_000, "numbers asked of NTS per KST day across every process (the free key's allowance; 0: no limit)"),
  NTS_BREAKER_HALF_OPEN_SECONDS: Int(1, 600, 10, 'how long an open NTS circuit breaker waits before a trial call'),
  METRICS_ENABLED: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'true', description: 'serve /metrics (Prometheus text, no key)' }),
});

export type Env = Static<typeof EnvSchema>;

/** How long clients may hold a connection without sending (applied by api/slow-clients.ts). */
export interface SlowClientLimits {
  headersTimeoutMs: number;
  /** a request body that is not an upload must have arrived within this */
  bodyTimeoutMs: number;
  /** an upload must move at least this many bytes in each window, or it is cut */
  uploadMinBytesPerSecond: number;
  uploadWindowMs: number;
  /** any request, uploads included, must have arrived within this */
  requestTimeoutMs: number;
  /** connections one client address may hold at once (0: no cap, e.g. behind a proxy) */
  maxConnectionsPerClient: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  store: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string; namedStatements?: number };
  nts: { serviceKey: string | undefined; baseUrl: string; timeoutMs: number; concurrency: number; cacheTtlSeconds: number };
  authCacheTtlMs: number;
  addresses: { directory: 'auto' | 'sandbox' | 'local' | 'juso'; jusoKey: string | undefined; jusoBaseUrl: string; threads: number; mmapMb: number };
  model: { refitMinLabels: number; refitCheckMs: number };
  batch: {
    maxFileBytes: number; maxRows: number; chunkRows: number; chunkChars: number; parseHeapMb: number; uploadLeaseMs: number; workerConcurrency: number; leaseMs: number;
    /** how long a job waits for NTS to answer again, and how often it asks meanwhile */
    upstreamWaitMs: number; upstreamRetryMs: number;
    /** days a finished job's rows are kept (accounts may have their own), and how often the sweep runs */
    retentionDays: number; retentionSweepMs: number;
    /** days evidence records are kept, whatever happens to the lists */
    evidenceRetentionDays: number;
    statusCacheRetentionDays: number; webhookLogRetentionDays: number;
  };
  watch: { pollMs: number; claimSize: number; leaseMs: number; scheduler: boolean };
  webhooks: { timeoutMs: number; pollMs: number; concurrency: number; allowPrivate: boolean; allowHttp: boolean };
  bodyLimitBytes: number;
  slowClients: SlowClientLimits;
  logLevel: Env['LOG_LEVEL'];
  shutdownGraceMs: number;
  trustProxy: boolean;
  console: ConsoleConfig;
  /** which parts this process runs; several processes of any roles may share one PostgreSQL */
  role: Role;
  /** NTS calls per second across all processes (0: unlimited), and the breaker's wait before a trial call */
  upstream: { maxCallsPerSecond: number; breakerHalfOpenMs: number; maxNumbersPerDay: number };
  metrics: { enabled: boolean };
}

export interface ConsoleConfig {
  cookieSecure: 'auto' | 'true' | 'false';
  signup: boolean;
  sessionMs: number;
  signin: { maxFailures: number; maxFailuresPerIp: number; windowMs: number };
  signupsPerIpHour: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads only the variables the schema names; empty strings count as unset. */
/** Which database a process uses, in words an operator can compare (never a password). */
export function storeLabel(store: Config['store']): string {
  if (store.kind === 'sqlite') return `embedded database ${store.file}`;
  let where = 'PostgreSQL';
  try {
    const u = new URL(store.url);
    where = `PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    /* not a URL: a libpq key=value string; say no more than the kind */
  }
  return `${where}${store.schema ? ` schema ${store.schema}` : ''}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const v = env[key];
    if (v !== undefined && v.trim() !== '') raw[key] = v.trim();
  }
  const value = Value.Convert(EnvSchema, Value.Default(EnvSchema, raw));
  if (!Value.Check(EnvSchema, value)) {
    // one line per variable: a union reports one error per member, which helps nobody
    const byName = new Map<string, string>();
    for (const e of Value.Errors(EnvSchema, value)) {
      const name = e.instancePath.replace(/^\//, '') || '(environment)';
      if (byName.has(name)) continue;
      const schema = (EnvSchema.properties as Record<string, { description?: string }>)[name];
      byName.set(name, `  ${name}=${JSON.stringify(raw[name] ?? '')}: ${e.message}${schema?.description ? ` (${schema.description})` : ''}`);
    }
    throw new ConfigError(`invalid configuration:\n${[...byName.values()].join('\n')}`);
  }
  const e = value;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    store: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, ...(e.DATABASE_SCHEMA ? { schema: e.DATABASE_SCHEMA } : {}), namedStatements: e.DATABASE_NAMED_STATEMENTS }
      : { kind: 'sqlite', file: path.join(dataDir, 'bizcheck.db') },
    nts: {
      serviceKey: e.NTS_SERVICE_KEY,
      baseUrl: e.NTS_BASE_URL.replace(/\/+$/, ''),
      timeoutMs: e.NTS_TIMEOUT_MS,
      concurrency: e.NTS_CONCURRENCY,
      cacheTtlSeconds: e.NTS_CACHE_TTL_SECONDS,
    },
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    addresses: { directory: e.ADDRESS_DIRECTORY, jusoKey: e.JUSO_CONFM_KEY, jusoBaseUrl: e.JUSO_BASE_URL.replace(/\/+$/, ''), threads: e.ADDRESS_THREADS, mmapMb: e.ADDRESS_MMAP_MB },
    batch: {
      maxFileBytes: e.BATCH_MAX_FILE_BYTES,
      maxRows: e.BATCH_MAX_ROWS,
      chunkRows: e.BATCH_CHUNK_ROWS,
      chunkChars: e.BATCH_CHUNK_CHARS,
      parseHeapMb: e.BATCH_PARSE_HEAP_MB,
      uploadLeaseMs: e.BATCH_UPLOAD_LEASE_SECONDS * 1000,
      workerConcurrency: e.BATCH_WORKER_CONCURRENCY,
      leaseMs: e.BATCH_LEASE_SECONDS * 1000,
      upstreamWaitMs: e.BATCH_UPSTREAM_WAIT_SECONDS * 1000,
      upstreamRetryMs: e.BATCH_UPSTREAM_RETRY_SECONDS * 1000,
      retentionDays: e.BATCH_RETENTION_DAYS,
      retentionSweepMs: e.RETENTION_SWEEP_SECONDS * 1000,
      evidenceRetentionDays: e.EVIDENCE_RETENTION_DAYS,
      statusCacheRetentionDays: e.STATUS_CACHE_RETENTION_DAYS,
      webhookLogRetentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
    },
    model: { refitMinLabels: e.MODEL_REFIT_MIN_LABELS, refitCheckMs: e.MODEL_REFIT_CHECK_SECONDS * 1000 },
    watch: {
      pollMs: e.WATCH_POLL_SECONDS * 1000,
      // the embedded store's work is synchronous: a request waits for the step in progress, so
      // its steps are small (100: ~5 ms); PostgreSQL's do not block, and larger ones cost less
      claimSize: e.WATCH_CLAIM_SIZE ?? (e.DATABASE_URL ? 500 : 100),
      leaseMs: e.WATCH_LEASE_SECONDS * 1000,
      scheduler: e.WATCH_SCHEDULER === 'on',
    },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      pollMs: e.WEBHOOK_POLL_SECONDS * 1000,
      concurrency: e.WEBHOOK_CONCURRENCY,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      allowHttp: e.WEBHOOK_ALLOW_HTTP === 'true',
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    slowClients: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      bodyTimeoutMs: e.HTTP_BODY_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      uploadMinBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND,
      uploadWindowMs: e.UPLOAD_WINDOW_SECONDS * 1000,
      // behind a proxy every connection comes from the proxy: a cap per address would cap everyone
      maxConnectionsPerClient: e.TRUST_PROXY === 'true' ? 0 : e.MAX_CONNECTIONS_PER_CLIENT,
    },
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    trustProxy: e.TRUST_PROXY === 'true',
    console: {
      cookieSecure: e.CONSOLE_COOKIE_SECURE,
      signup: e.CONSOLE_SIGNUP === 'true',
      sessionMs: e.CONSOLE_SESSION_HOURS * 3600_000,
      signin: { maxFailures: e.CONSOLE_SIGNIN_MAX_FAILURES, maxFailuresPerIp: e.CONSOLE_SIGNIN_MAX_FAILURES_PER_IP, windowMs: e.CONSOLE_SIGNIN_WINDOW_SECONDS * 1000 },
      signupsPerIpHour: e.CONSOLE_SIGNUPS_PER_IP_HOUR,
    },
    role: e.BIZCHECK_ROLE,
    upstream: { maxCallsPerSecond: e.NTS_MAX_CALLS_PER_SECOND, breakerHalfOpenMs: e.NTS_BREAKER_HALF_OPEN_SECONDS * 1000, maxNumbersPerDay: e.NTS_MAX_NUMBERS_PER_DAY },
    metrics: { enabled: e.METRICS_ENABLED === 'true' },
  };
}
