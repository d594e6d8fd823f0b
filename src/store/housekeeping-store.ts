// Tables that grow with traffic and are not anyone's list: each loses what is past its age, a
// bounded batch per statement, so a sweep never holds the database for long.
import { OverSql } from './sql.ts';

export interface HousekeepingCutoffs {
  /** status-cache entries answered before this go (they served stale answers and offline jobs until then) */
  statusCacheBefore: Date;
  /** finished webhook deliveries (and their attempts) before this go */
  deliveriesBefore: Date;
  /** console sign-in attempts before this go (they only count within the sign-in window) */
  attemptsBefore: Date;
  /** sessions and leases that ended before this go */
  endedBefore: Date;
  /** daily NTS counters of days before this (YYYY-MM-DD, KST) go */
  dailyBefore: string;
}

export type Swept = Record<'statusCache' | 'deliveries' | 'attempts' | 'sessions' | 'leases' | 'daily' | 'models', number>;

export class HousekeepingStore extends OverSql {
  /** One bounded batch of each; returns how many rows each lost (a full batch: more may be left). */
  async sweep(c: HousekeepingCutoffs, limit: number): Promise<Swept> {
    return {
      statusCache: await this.sql.run('DELETE FROM status_cache WHERE b_no IN (SELECT b_no FROM status_cache WHERE checked_at < ? ORDER BY checked_at LIMIT ?)', [
        c.statusCacheBefore.toISOString(), limit,
      ]),
      deliveries: await this.sql.run(
        "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < ? ORDER BY finished_at LIMIT ?)",
        [c.deliveriesBefore.toISOString(), limit],
      ),
      attempts: await this.sql.run('DELETE FROM console_attempts WHERE (attempt_id, kind) IN (SELECT attempt_id, kind FROM console_attempts WHERE at < ? ORDER BY at LIMIT ?)', [
        c.attemptsBefore.toISOString(), limit,
      ]),
      sessions: await this.sql.run('DELETE FROM console_sessions WHERE id_hash IN (SELECT id_hash FROM console_sessions WHERE expires_at < ? ORDER BY expires_at LIMIT ?)', [
        c.endedBefore.toISOString(), limit,
      ]),
      leases: await this.sql.run('DELETE FROM leases WHERE expires_at < ?', [c.endedBefore.toISOString()]),
      daily: await this.sql.run('DELETE FROM upstream_daily WHERE day < ?', [c.dailyBefore]),
      // a version goes once it is not the newest, no label and no account's offsets name it, and
      // it is older than every kept job (whose results name the version that scored them)
      models: await this.sql.run(
        `DELETE FROM models
          WHERE version <> (SELECT version FROM models ORDER BY created_at DESC, version DESC LIMIT 1)
            AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.model_version = models.version)
            AND NOT EXISTS (SELECT 1 FROM account_model_offsets o WHERE o.model_version = models.version)
            AND created_at < coalesce((SELECT min(created_at) FROM batch_jobs WHERE expired_at IS NULL), ?)`,
        [c.endedBefore.toISOString()],
      ),
    };
  }
}
