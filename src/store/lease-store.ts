// Named leases: one process at a time runs a given background job (refits, watch rounds).
import { OverSql } from './sql.ts';

export class LeaseStore extends OverSql {
  /** Takes or renews the named lease for `holder` if it is free or expired; true when held. */
  async take(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    const r = await this.sql.get(
      `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.holder = excluded.holder OR leases.expires_at < ?
       RETURNING holder`,
      [name, holder, new Date(now.getTime() + ttlMs).toISOString(), now.toISOString()],
    );
    return r !== undefined;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.sql.run('DELETE FROM leases WHERE name = ? AND holder = ?', [name, holder]);
  }
}
