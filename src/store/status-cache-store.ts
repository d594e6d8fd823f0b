// The shared status cache: the last answer NTS gave for each number, for fresh answers within
// their TTL and stale ones during outages and offline jobs.
import type { CachedStatus, StatusCache } from '../domain/status.ts';
import { RecordReader } from './status-cache-rows.ts';
import { iso } from './rows.ts';
import { OverSql } from './sql.ts';

const UPSERT_TAIL = `ON CONFLICT (b_no) DO UPDATE SET record = excluded.record, source = excluded.source,
    checked_at = excluded.checked_at, expires_at = excluded.expires_at, written = excluded.written
  WHERE excluded.checked_at >= status_cache.checked_at`;

/**
 * Raises the count of writes (migration 0036); its row stays locked until the write commits, so
 * counts follow commits. Counted only on the embedded store, the one whose chunks read the
 * entries a job recorded its shared answers from as they were (BatchStore.sharedFromCache,
 * readAsPinned): on PostgreSQL nothing reads the count, and the locked row would serialise every
 * process's cache writes for nothing.
 */
const NEXT_WRITE = 'UPDATE status_cache_writes SET seq = seq + 1 WHERE id = 1 RETURNING seq';

export class StatusCacheStore extends OverSql implements StatusCache {
  async getCachedStatuses(bnos: readonly string[]): Promise<Map<string, CachedStatus>> {
    const out = new Map<string, CachedStatus>();
    if (bnos.length === 0) return out;
    // rows as arrays and the record as text: alike records are parsed once per read
    // (status-cache-rows.ts), and no object with five named properties is made per number
    const rows = await this.sql.arrays('SELECT b_no, record::text, source, checked_at, expires_at FROM status_cache WHERE b_no = ANY(?::text[])', [bnos]);
    const reader = new RecordReader();
    for (const r of rows) {
      out.set(String(r[0]), { record: reader.read(String(r[1])), source: r[2] as CachedStatus['source'], checkedAt: iso(r[3]), expiresAt: iso(r[4]) });
    }
    return out;
  }

  /** A newer answer is never overwritten by an older one. On the embedded store each write is counted, and its entries carry the count. */
  async putCachedStatuses(entries: readonly CachedStatus[]): Promise<void> {
    if (entries.length === 0) return;
    if (this.sql.dialect === 'postgres') {
      // one round trip for the whole batch; a number twice in one statement would make ON
      // CONFLICT touch a row twice, which PostgreSQL refuses
      const unique = [...new Map(entries.map((e) => [e.record.b_no, e] as const)).values()];
      await this.sql.run(
        `INSERT INTO status_cache (b_no, record, source, checked_at, expires_at)
         SELECT * FROM unnest(?::text[], ?::jsonb[], ?::text[], ?::timestamptz[], ?::timestamptz[]) ${UPSERT_TAIL}`,
        [unique.map((e) => e.record.b_no), unique.map((e) => JSON.stringify(e.record)), unique.map((e) => e.source), unique.map((e) => e.checkedAt), unique.map((e) => e.expiresAt)],
      );
      return;
    }
    // the embedded store: one prepared statement per entry in one transaction is its bulk write
    await this.sql.tx(async (t) => {
      const written = Number((await t.get(NEXT_WRITE))!.seq);
      for (const e of entries) {
        await t.run(`INSERT INTO status_cache (b_no, record, source, checked_at, expires_at, written) VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_TAIL}`, [
          e.record.b_no, JSON.stringify(e.record), e.source, e.checkedAt, e.expiresAt, written,
        ]);
      }
    });
  }
}
