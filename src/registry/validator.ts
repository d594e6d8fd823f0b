// 진위확인 through whichever registry is configured. A confirmed answer carries NTS's status
// record, which is as fresh as a status call's: it goes into the shared status cache, so a
// later lookup of the same number costs no second call.
import type { Settled } from './coalescer.ts';
import { type CachedStatus, type Registry, type StatusCache, UpstreamError } from '../domain/status.ts';
import type { ValidateAnswer, ValidateQuery, ValidatedAnswer, Validator } from '../domain/validation.ts';
import { validateKey } from '../domain/validation.ts';

interface ValidatingRegistry extends Registry {
  validateSettled(queries: readonly ValidateQuery[]): Promise<Map<string, Settled<ValidateAnswer>>>;
}

function canValidate(registry: Registry): registry is ValidatingRegistry {
  return typeof (registry as Partial<ValidatingRegistry>).validateSettled === 'function';
}

export interface ValidatorDeps {
  registry: Registry;
  cache: StatusCache;
  ttlSeconds: number;
  now?: () => Date;
  onCacheWriteError?: (error: unknown) => void;
}

export function createValidator(deps: ValidatorDeps): Validator {
  const { registry, cache, ttlSeconds } = deps;
  const now = deps.now ?? (() => new Date());
  const onCacheWriteError = deps.onCacheWriteError ?? ((e: unknown) => console.error('status cache write failed:', e));
  return {
    async validate(queries) {
      const answers = new Map<string, ValidatedAnswer>();
      const unanswered = new Map<string, UpstreamError>();
      if (queries.length === 0) return { answers, unanswered };
      if (!canValidate(registry)) {
        const error = new UpstreamError('rejected', 'this registry cannot answer 진위확인', { retryable: false });
        for (const q of queries) unanswered.set(validateKey(q), error);
        return { answers, unanswered };
      }
      const settled = await registry.validateSettled(queries);
      const checked = now();
      const checkedAt = checked.toISOString();
      const expiresAt = new Date(checked.getTime() + ttlSeconds * 1000).toISOString();
      const toCache: CachedStatus[] = [];
      for (const q of queries) {
        const key = validateKey(q);
        const s = settled.get(key);
        if (s?.ok && s.record) {
          answers.set(key, { answer: s.record, source: registry.source, checkedAt });
          if (s.record.status) toCache.push({ record: s.record.status, source: registry.source, checkedAt, expiresAt });
        } else {
          unanswered.set(key, s && !s.ok ? s.error : new UpstreamError('malformed', 'NTS answer did not include this business', { retryable: true }));
        }
      }
      if (toCache.length > 0) {
        try {
          await cache.putCachedStatuses(toCache);
        } catch (error) {
          onCacheWriteError(error);
        }
      }
      return { answers, unanswered };
    },
  };
}
