// An unregistered number two swapped digits away from an operating business's number is most
// likely that business, mistyped in the customer's list (the check digit lets such a swap
// through: bizno.ts transposedNeighbours). The letter goes to the address, and the address is
// the business's: it mostly arrives. Only the numbers of assessed mailings that NTS does not
// know are asked about, through the status service like any lookup (the cache first; offline
// jobs ask nothing upstream), and nobody is charged for them.
import { transposedNeighbours } from '../domain/bizno.ts';
import type { LookupOptions, StatusService } from '../domain/status.ts';
import { statusFromNts } from '../domain/verification.ts';

/** For each of `unregistered` with an operating neighbour: that neighbour (the first, in number order). */
export async function liveNeighbours(status: Pick<StatusService, 'lookup'>, unregistered: readonly string[], opts: LookupOptions = {}): Promise<Map<string, string>> {
  const candidates = new Map<string, string[]>();
  for (const bno of new Set(unregistered)) {
    const near = transposedNeighbours(bno);
    if (near.length > 0) candidates.set(bno, near);
  }
  const out = new Map<string, string>();
  if (candidates.size === 0) return out;
  const { answers } = await status.lookup([...new Set([...candidates.values()].flat())], opts);
  for (const [bno, near] of candidates) {
    const live = near.find((n) => {
      const answer = answers.get(n);
      return answer !== undefined && statusFromNts(answer.record) === 'active';
    });
    if (live) out.set(bno, live);
  }
  return out;
}
