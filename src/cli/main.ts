// `npx bizcheck …` / `npm run cli -- …`: account and key administration against the configured
// store (the same DATA_DIR / DATABASE_URL the server uses). Results are JSON on stdout.
import { parseArgs } from 'node:util';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createAccount, deleteAccount, issueKey, parsePlan, revokeKey, setBatchRetention, setPlan, setQuotaLimit } from '../accounts/accounts.ts';
import { exportAccount } from './account-export.ts';
import { importAddressDb } from '../addresses/address-db-import.ts';
import { ConfigError, loadConfig, ROLES, storeLabel, type Role } from '../config.ts';
import { CliHttpError, runBatchCommand } from './batch-command.ts';
import { AppError } from '../errors.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/store.ts';

const USAGE = `usage: bizcheck <command> [options]

  accounts create --email E --plan P        create an account and its first API key
  accounts list [--email PART] [--limit N]  accounts by creation (those whose email contains PART)
  accounts show --account A                 one account: plan, limits, its keys by prefix
  accounts set-plan --account A --plan P    plans: free, pro, business, enterprise
  accounts set-quota --account A --limit N  custom monthly lookup limit (--limit plan: back to the plan's)
  accounts set-retention --account A --days N  days this account's batch jobs keep their rows (--days default: BATCH_RETENTION_DAYS)
  accounts export --account A [--out FILE]  everything held about the account as JSON Lines (stdout without --out)
  accounts delete --account A --confirm A   close the account: its keys first, then everything held about it
  keys create --account A                   issue another API key (shown once)
  keys list --account A                     keys by prefix, with created/last-used/revoked times
  keys revoke --key-prefix P                revoke a key, e.g. --key-prefix bzk_Ab3dE9xQ
  batch FILE [--offline] [--paid] [--out results.csv|.xlsx|.json] [--sheet NAME|N]
        [--bno-column H|N] [--name-column H|N] [--address-column H|N]   a column by header text or 1-based position
                                            verify a file through a running server (BIZCHECK_URL,
                                            default http://127.0.0.1:8080; BIZCHECK_API_KEY or --key)
  addresses import DIR                      load the official 도로명주소 한글 files in DIR (CP949 *.txt: rnaddrkor_*,
                                            jibun_rnaddrkor_*, and the AlterD.JUSUKR.* change files, day by day)
  serve [--role all|api|worker]             run the service (as npm start); api: the HTTP API only;
                                            worker: batch work and refits, with /healthz /readyz /metrics

Wherever --account A is taken, --email E names the account by its email instead.
The store is chosen like the server's: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded); each
command says on stderr which one it used.`;

type Handler = (store: Store, opts: Record<string, string | undefined>, args: string[]) => Promise<unknown>;

function need(opts: Record<string, string | undefined>, name: string): string {
  const v = opts[name];
  if (!v) throw new UsageError(`missing --${name}`);
  return v;
}

class UsageError extends Error {}

/** The account an operator names by id (--account) or by the email it signed up with (--email). */
async function accountOf(store: Store, o: Record<string, string | undefined>): Promise<string> {
  if (o.account) return o.account;
  if (!o.email) throw new UsageError('missing --account (or --email)');
  const a = await store.accounts.findByEmail(o.email);
  if (!a) throw new AppError('not_found', `no account with the email ${o.email} (accounts list --email shows those like it)`);
  return a.id;
}

/** A handler that wrote its own output (a stream on stdout) */
const NO_OUTPUT = Symbol('no output');

const COMMANDS: Record<string, Handler> = {
  'accounts create': async (store, o) => {
    const { account, apiKey } = await createAccount(store, need(o, 'email'), parsePlan(need(o, 'plan')));
    return { account_id: account.id, api_key: apiKey, email: account.email, plan: account.plan };
  },
  'accounts list': async (store, o) => {
    const limit = o.limit === undefined ? 100 : /^\d+$/.test(o.limit) ? Number(o.limit) : NaN;
    if (Number.isNaN(limit) || limit < 1) throw new UsageError('--limit takes a whole number');
    const accounts = await store.accounts.list({ email: o.email, limit });
    return accounts.map((a) => ({ account_id: a.id, email: a.email, plan: a.plan, quota_limit: a.quotaLimit, created_at: a.createdAt }));
  },
  'accounts show': async (store, o) => {
    const id = await accountOf(store, o);
    const a = await store.accounts.get(id);
    if (!a) throw new AppError('not_found', `no account ${id}`);
    const keys = await store.keys.list(a.id);
    return {
      account_id: a.id, email: a.email, plan: a.plan, quota_limit: a.quotaLimit, batch_retention_days: a.batchRetentionDays, created_at: a.createdAt,
      keys: keys.map((k) => ({ prefix: k.prefix, created_at: k.createdAt, last_used_at: k.lastUsedAt, revoked_at: k.revokedAt })),
    };
  },
  'accounts set-plan': async (store, o) => {
    const a = await setPlan(store, await accountOf(store, o), parsePlan(need(o, 'plan')));
    return { account_id: a.id, plan: a.plan };
  },
  'accounts set-quota': async (store, o) => {
    const raw = need(o, 'limit');
    const limit = raw === 'plan' ? null : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (Number.isNaN(limit)) throw new UsageError('--limit takes a whole number, or "plan"');
    const a = await setQuotaLimit(store, await accountOf(store, o), limit);
    return { account_id: a.id, plan: a.plan, quota_limit: a.quotaLimit };
  },
  'accounts set-retention': async (store, o) => {
    const raw = need(o, 'days');
    const days = raw === 'default' ? null : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (Number.isNaN(days)) throw new UsageError('--days takes a whole number of days, or "default"');
    const a = await setBatchRetention(store, await accountOf(store, o), days);
    return { account_id: a.id, batch_retention_days: a.batchRetentionDays };
  },
  'accounts export': async (store, o) => {
    const accountId = await accountOf(store, o);
    if (!o.out) {
      const counts = await exportAccount(store, accountId, process.stdout);
      process.stderr.write(`${JSON.stringify({ account_id: accountId, lines: counts })}\n`);
      return NO_OUTPUT;
    }
    const file = createWriteStream(o.out, { flags: 'wx', mode: 0o600 });
    await once(file, 'open');
    const counts = await exportAccount(store, accountId, file);
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    return { account_id: accountId, out: o.out, lines: counts };
  },
  'accounts delete': async (store, o) => {
    const accountId = await accountOf(store, o);
    if (o.confirm !== accountId) throw new UsageError('accounts delete removes everything held about the account for good: repeat its id as --confirm');
    await deleteAccount(store, accountId);
    return { account_id: accountId, deleted: true };
  },
  'keys create': async (store, o) => {
    const { key, record } = await issueKey(store, await accountOf(store, o));
    return { account_id: record.accountId, key_id: record.id, prefix: record.prefix, api_key: key };
  },
  'keys list': async (store, o) => {
    const accountId = await accountOf(store, o);
    if (!(await store.accounts.get(accountId))) throw new AppError('not_found', `no account ${accountId}`);
    const keys = await store.keys.list(accountId);
    return keys.map((k) => ({ prefix: k.prefix, created_at: k.createdAt, last_used_at: k.lastUsedAt, revoked_at: k.revokedAt }));
  },
  'addresses import': async (store, _o, args) => {
    const dir = args[0];
    if (!dir) throw new UsageError('addresses import needs the folder of the address DB files');
    const started = Date.now();
    let lastReport = 0;
    const result = await importAddressDb(dir, store.addresses, {
      onProgress: (rows) => {
        if (Date.now() - lastReport < 1000) return;
        lastReport = Date.now();
        process.stderr.write(`\r${rows.toLocaleString('en-US')} rows…`);
      },
    }).catch((err: unknown) => {
      // a missing folder or unreadable file is the operator's to fix: say so without a stack trace
      throw new AppError('bad_request', err instanceof Error ? err.message : String(err));
    });
    process.stderr.write('\n');
    return { ...result, seconds: Math.round((Date.now() - started) / 100) / 10, directory_rows: await store.addresses.count() };
  },
  'keys revoke': async (store, o) => {
    const k = await revokeKey(store, need(o, 'key-prefix'));
    return { prefix: k.prefix, account_id: k.accountId, revoked_at: k.revokedAt };
  },
};

/** `serve`: the process keeps running until a signal stops it (main.ts exits then). */
async function serve(role: string | undefined): Promise<'serving'> {
  if (role !== undefined && !ROLES.includes(role as Role)) throw new UsageError(`--role takes ${ROLES.join(', ')}`);
  // the role goes through the environment so the configuration is read and checked in one place
  if (role !== undefined) process.env.BIZCHECK_ROLE = role;
  const { startOrExit } = await import('../main.ts');
  startOrExit();
  return 'serving';
}

async function run(argv: string[]): Promise<number | 'serving'> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      plan: { type: 'string' },
      account: { type: 'string' },
      limit: { type: 'string' },
      days: { type: 'string' },
      confirm: { type: 'string' },
      'key-prefix': { type: 'string' },
      offline: { type: 'boolean' },
      paid: { type: 'boolean' },
      out: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      role: { type: 'string' },
      sheet: { type: 'string' },
      'bno-column': { type: 'string' },
      'name-column': { type: 'string' },
      'address-column': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (positionals[0] === 'batch' && !values.help) {
    // talks to a server over HTTP: no store of its own
    const file = positionals[1];
    const key = values.key ?? process.env.BIZCHECK_API_KEY;
    if (!file) throw new UsageError('batch needs the file to upload');
    if (!key) throw new UsageError('batch needs an API key: --key or BIZCHECK_API_KEY');
    const out = await runBatchCommand({
      file, key, url: values.url ?? process.env.BIZCHECK_URL ?? 'http://127.0.0.1:8080',
      offline: values.offline ?? false, paid: values.paid ?? false, out: values.out,
      sheet: values.sheet, bnoColumn: values['bno-column'], nameColumn: values['name-column'], addressColumn: values['address-column'],
    });
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  if (positionals[0] === 'serve' && !values.help) return serve(values.role);
  const name = positionals.slice(0, 2).join(' ');
  const handler = COMMANDS[name];
  if (values.help || !handler) {
    process.stderr.write(`${values.help ? '' : name ? `unknown command "${name}"\n\n` : ''}${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  // a key created against one database fails silently on a server started with another: say which
  process.stderr.write(`bizcheck: ${storeLabel(config.store)}\n`);
  const store = await openStore(config.store);
  try {
    const out = await handler(store, values as Record<string, string | undefined>, positionals.slice(2));
    if (out !== NO_OUTPUT) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code !== 'serving') process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`bizcheck: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (err instanceof AppError || err instanceof ConfigError || err instanceof CliHttpError || (err instanceof Error && 'code' in err && err.code === 'ENOENT')) {
      process.stderr.write(`bizcheck: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`bizcheck: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
