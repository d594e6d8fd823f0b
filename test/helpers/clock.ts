// Where a hand-moved test clock starts.
import { quotaResetsAt } from '../../src/domain/quota-period.ts';

/**
 * Now, unless the quota month (Asia/Seoul) ends within `roomMs`; then an hour into the next one.
 * A suite that moves its clock days on and compares a month's usage before and after then reads
 * one month's: started from now, the watch suite failed in the last three days of every month.
 */
export function clockStart(roomMs: number, now = Date.now()): number {
  const resets = quotaResetsAt(new Date(now)).getTime();
  return resets - now > roomMs ? now : resets + 3600_000;
}
