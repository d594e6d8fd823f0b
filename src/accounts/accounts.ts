// Account and key administration, shared by the CLI and (later) the console.
import { isPlanName, PLAN_NAMES, type PlanName } from '../domain/plans.ts';
import { AppError } from '../errors.ts';
import { StoreConflict, type Store } from '../store/store.ts';
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import { generateApiKey, newId } from './api-key.ts';

export function parsePlan(value: string): PlanName {
  if (!isPlanName(value)) throw new AppError('bad_request', `unknown plan "${value}"; one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

export function parseEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('bad_request', `"${value}" is not an email address`);
  return email;
}

export async function createAccount(store: Store, email: string, plan: PlanName, now = new Date()): Promise<{ account: Account; apiKey: string }> {
  const account: Account = { id: newId('acc'), email: parseEmail(email), plan, quotaLimit: null, batchRetentionDays: null, createdAt: now.toISOString() };
  try {
    await store.accounts.create(account);
  } catch (err) {
    if (err instanceof StoreConflict) throw new AppError('conflict', err.message);
    throw err;
  }
  const { key } = await issueKey(store, account.id, now);
  return { account, apiKey: key };
}

/**
 * The full key is returned here and nowhere else, ever. With `maxActive`, the account's active
 * keys are counted and the key inserted in one transaction: concurrent issues cannot pass it.
 */
export async function issueKey(store: Store, accountId: string, now = new Date(), maxActive?: number): Promise<{ key: string; record: ApiKeyRecord }> {
  if (!(await store.accounts.get(accountId))) throw new AppError('not_found', `no account ${accountId}`);
  const { key, prefix, hash } = generateApiKey();
  const record: ApiKeyRecord = { id: newId('key'), accountId, prefix, createdAt: now.toISOString(), lastUsedAt: null, revokedAt: null };
  if (maxActive === undefined) await store.keys.insert({ ...record, hash });
  else if (!(await store.keys.insertWithin({ ...record, hash }, maxActive))) {
    throw new AppError('conflict', `an account holds at most ${maxActive} active keys; revoke one first`);
  }
  return { key, record };
}

/** Revokes one of the account's keys (an operator names the key alone: its account is looked up). */
export async function revokeKey(store: Store, prefix: string, now = new Date(), accountId?: string): Promise<ApiKeyRecord> {
  const owner = accountId ?? (await store.keys.ownerOf(prefix));
  const revoked = owner === null ? null : await store.keys.revoke(owner, prefix, now.toISOString());
  if (!revoked) throw new AppError('not_found', `no active key with prefix ${prefix}`);
  return revoked;
}

export async function setPlan(store: Store, accountId: string, plan: PlanName): Promise<Account> {
  const account = await store.accounts.setPlan(accountId, plan);
  if (!account) throw new AppError('not_found', `no account ${accountId}`);
  return account;
}

/** The operator's per-account retention of batch jobs, in days (1–3650); null: the service's default. */
export async function setBatchRetention(store: Store, accountId: string, days: number | null): Promise<Account> {
  if (days !== null && (!Number.isSafeInteger(days) || days < 1 || days > 3650)) throw new AppError('bad_request', 'the retention must be a whole number of days from 1 to 3650');
  const account = await store.accounts.setBatchRetention(accountId, days);
  if (!account) throw new AppError('not_found', `no account ${accountId}`);
  return account;
}

export async function setQuotaLimit(store: Store, accountId: string, limit: number | null): Promise<Account> {
  if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) throw new AppError('bad_request', 'the limit must be a whole number ≥ 0');
  const account = await store.accounts.setQuotaLimit(accountId, limit);
  if (!account) throw new AppError('not_found', `no account ${accountId}`);
  return account;
}

/** Closes the account: keys first, then everything held about it (see AccountDataStore.delete). */
export async function deleteAccount(store: Store, accountId: string): Promise<void> {
  if (!(await store.accountData.delete(accountId))) throw new AppError('not_found', `no account ${accountId}`);
  await store.scrub();
}
