// The numbers asked of NTS each Korean day, one row per day, shared by every process on the
// database. A take is one conditional upsert, so two processes can never both spend the last
// of the allowance.
import { OverSql } from './sql.ts';

export class UpstreamDailyStore extends OverSql {
  /** Counts `n` more numbers on `day` if that keeps the day within `limit`; false (nothing counted) otherwise. */
  async take(day: string, n: number, limit: number): Promise<boolean> {
    if (n > limit) return false;
    const r = await this.sql.get(
      `INSERT INTO upstream_daily (day, numbers) VALUES (?, ?)
       ON CONFLICT (day) DO UPDATE SET numbers = upstream_daily.numbers + excluded.numbers
        WHERE upstream_daily.numbers + excluded.numbers <= ?
       RETURNING numbers`,
      [day, n, limit],
    );
    return r !== undefined;
  }

  /** The day is spent whatever we counted (the gateway said so): later takes that day fail. */
  async spend(day: string, limit: number): Promise<void> {
    await this.sql.run(
      `INSERT INTO upstream_daily (day, numbers) VALUES (?, ?)
       ON CONFLICT (day) DO UPDATE SET numbers = greatest(upstream_daily.numbers, excluded.numbers)`,
      [day, limit],
    );
  }
}
