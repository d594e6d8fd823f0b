// The watch list and webhooks. Due work is claimed with FOR UPDATE SKIP LOCKED on PostgreSQL, so
// schedulers and deliverers in any number of processes never take the same item (on the
// embedded store the statement holds the database); commits re-check the lease inside their
// transaction, so a check's state, history row and events land together or not at all.
import { OverSql, type Sql } from './sql.ts';
import { attemptsByDelivery, toDelivery, toEndpoint, toHistory, toWatch } from './watch-rows.ts';
import type { PreviousAttributes, WatchState } from '../domain/watch.ts';
import type { DueDelivery, ListCursor, Watch, WatchFilter, WatchHistoryEntry, WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEventInput } from '../domain/watch-entities.ts';
import { json, num } from './rows.ts';

/** One check to commit: the entry's new state, its history row and the events it raises, together. */
export interface WatchCheckCommit {
  watchId: string;
  holder: string;
  checkedAt: string;
  state: WatchState;
  nextCheckAt: string;
  history: { previous: PreviousAttributes | null } | null;
  events: readonly WebhookEventInput[];
}

export interface AttemptOutcome {
  deliveryId: string;
  holder: string;
  attempt: WebhookAttempt;
  /** `pending` with the next attempt time, or final */
  next: { state: 'pending'; at: string } | { state: 'delivered' | 'failed' };
  /** the receiver said 410 Gone: disable the endpoint and abandon what else waits for it */
  disableEndpoint: { reason: string } | null;
}

/**
 * Queues an event for the account's enabled endpoint, in the caller's transaction; false without
 * one, or when the endpoint did not ask for this type (a test event is always sent).
 */
export async function enqueueEvent(t: Sql, accountId: string, e: WebhookEventInput, at: string): Promise<boolean> {
  const endpoint = await t.get('SELECT enabled_events FROM webhook_endpoints WHERE account_id = ? AND disabled_at IS NULL', [accountId]);
  if (!endpoint) return false;
  if (endpoint.enabled_events != null && e.type !== 'webhook.test' && !json<string[]>(endpoint.enabled_events).includes(e.type)) return false;
  const n = await t.run(
    `INSERT INTO webhook_deliveries (id, account_id, type, body, state, attempts, next_attempt_at, created_at)
     SELECT ?, account_id, ?, ?, 'pending', 0, ?, ? FROM webhook_endpoints WHERE account_id = ? AND disabled_at IS NULL`,
    [e.id, e.type, e.body, at, at, accountId],
  );
  return n > 0;
}

/** LIKE's own characters taken literally (the escape character is declared with the pattern) */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The least digit string after every string that starts with `digits` ("129" → "13"; "99" → none). */
function prefixEnd(digits: string): string | null {
  const last = digits.replace(/9+$/, '');
  if (last === '') return null;
  return last.slice(0, -1) + String(Number(last.at(-1)) + 1);
}

function filterSql(accountId: string, f: WatchFilter): { text: string; params: unknown[] } {
  let text = 'account_id = ?';
  const params: unknown[] = [accountId];
  if (f.status === 'unknown') text += " AND (biz_status IS NULL OR biz_status = 'unknown')";
  else if (f.status !== undefined) {
    text += ' AND biz_status = ?';
    params.push(f.status);
  }
  if (f.bnoPrefix !== undefined) {
    // a range of the (account_id, b_no) index, not LIKE, which neither engine reads an index for
    const end = prefixEnd(f.bnoPrefix);
    text += end === null ? ' AND b_no >= ?' : ' AND b_no >= ? AND b_no < ?';
    params.push(f.bnoPrefix, ...(end === null ? [] : [end]));
  }
  if (f.nameContains !== undefined) {
    // lower() on both sides: SQLite's LIKE ignores ASCII case and PostgreSQL's does not
    text += " AND lower(name) LIKE lower(?) ESCAPE '\\'";
    params.push(`%${likeLiteral(f.nameContains)}%`);
  }
  return { text, params };
}

export class WatchStore extends OverSql {
  /**
   * Inserts the entry (with its first history row when it was answered), or returns the account's
   * existing entry for the number untouched; null, inserting nothing, when the account already
   * has `limit` entries. The count and the insert are one atomic step among concurrent calls.
   */
  create(w: Watch, firstHistory: boolean, limit: number): Promise<{ created: boolean; watch: Watch } | null> {
    return this.sql.tx(async (t) => {
      const [out] = await insertWatches(t, w.accountId, [w], firstHistory, limit);
      return out!;
    });
  }

  /**
   * Registers many of one account's entries in one transaction, in order: each is created, or
   * the existing entry for its number is returned untouched, or it is null (nothing inserted)
   * once the account holds `limit` entries.
   */
  createMany(accountId: string, ws: readonly Watch[], firstHistory: boolean, limit: number): Promise<({ created: boolean; watch: Watch } | null)[]> {
    if (ws.length === 0) return Promise.resolve([]);
    return this.sql.tx((t) => insertWatches(t, accountId, ws, firstHistory, limit));
  }

  async get(accountId: string, watchId: string): Promise<Watch | null> {
    const r = await this.sql.get('SELECT * FROM watches WHERE id = ? AND account_id = ?', [watchId, accountId]);
    return r ? toWatch(r) : null;
  }

  async findByNumbers(accountId: string, bnos: readonly string[]): Promise<Watch[]> {
    if (bnos.length === 0) return [];
    return (await this.sql.all('SELECT * FROM watches WHERE account_id = ? AND b_no = ANY(?)', [accountId, [...bnos]])).map(toWatch);
  }

  async findByNumber(accountId: string, bno: string): Promise<Watch | null> {
    const r = await this.sql.get('SELECT * FROM watches WHERE account_id = ? AND b_no = ?', [accountId, bno]);
    return r ? toWatch(r) : null;
  }

  /** The account's entries, from the counter kept with every add and removal. */
  async count(accountId: string): Promise<number> {
    return num(await this.sql.get('SELECT coalesce((SELECT n FROM watch_counts WHERE account_id = ?), 0) AS n', [accountId]));
  }

  /** The account's entries in creation order, after the cursor, narrowed by the filter. */
  async list(accountId: string, o: { after: ListCursor | null; limit: number; filter?: WatchFilter }): Promise<Watch[]> {
    const where = filterSql(accountId, o.filter ?? {});
    if (o.after) {
      where.text += ' AND (created_at, id) > (?::timestamptz, ?)';
      where.params.push(o.after.createdAt, o.after.id);
    }
    const rows = await this.sql.all(`SELECT * FROM watches WHERE ${where.text} ORDER BY created_at, id LIMIT ?`, [...where.params, o.limit]);
    return rows.map(toWatch);
  }

  /** Entries that pass the filter (a count over the account's index range, not the counter). */
  async countMatching(accountId: string, filter: WatchFilter): Promise<number> {
    const where = filterSql(accountId, filter);
    return num(await this.sql.get(`SELECT count(*) AS n FROM watches WHERE ${where.text}`, where.params));
  }

  /**
   * Removes the entry (its history goes with it) and, in the same transaction, the name and
   * address it gave from the webhook events about it still in the delivery log: what was told
   * stays, who it was about goes with the entry.
   */
  async remove(accountId: string, watchId: string): Promise<boolean> {
    return this.sql.tx(async (t) => {
      if ((await t.run('DELETE FROM watches WHERE id = ? AND account_id = ?', [watchId, accountId])) === 0) return false;
      await t.run('UPDATE watch_counts SET n = n - 1 WHERE account_id = ? AND n > 0', [accountId]);
      const told = await t.all('SELECT id, body FROM webhook_deliveries WHERE account_id = ? AND body LIKE ?', [accountId, `%"watch_id":${JSON.stringify(watchId)}%`]);
      for (const d of told) {
        const body = JSON.parse(String(d.body)) as { data?: { watch_id?: string; name?: unknown; address?: unknown } };
        if (body.data?.watch_id !== watchId) continue;
        body.data.name = null;
        body.data.address = null;
        await t.run('UPDATE webhook_deliveries SET body = ? WHERE id = ?', [JSON.stringify(body), d.id]);
      }
      return true;
    });
  }

  async history(accountId: string, watchId: string): Promise<WatchHistoryEntry[]> {
    const rows = await this.sql.all(
      'SELECT h.* FROM watch_history h JOIN watches w ON w.id = h.watch_id WHERE h.watch_id = ? AND w.account_id = ? ORDER BY h.checked_at, h.id',
      [watchId, accountId],
    );
    return rows.map(toHistory);
  }

  /**
   * Leases up to `limit` entries due at `now` (next check reached, no live lease) to `holder`
   * until `leaseUntil`. Each due entry goes to exactly one caller however many ask at once.
   */
  async claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<Watch[]> {
    const rows = await this.sql.all(
      `UPDATE watches SET lease_holder = ?, lease_expires_at = ?
        WHERE id IN (SELECT id FROM watches WHERE next_check_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
                      ORDER BY next_check_at LIMIT ? FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [holder, leaseUntil, now, now, limit],
    );
    return rows.map(toWatch);
  }

  /** One entry of the account claimed for a check now, unless a round holds it; null when not found or held. */
  async claimOne(accountId: string, watchId: string, now: string, holder: string, leaseUntil: string): Promise<Watch | null> {
    const row = await this.sql.get(
      `UPDATE watches SET lease_holder = ?, lease_expires_at = ?
        WHERE id = ? AND account_id = ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
       RETURNING *`,
      [holder, leaseUntil, watchId, accountId, now],
    );
    return row ? toWatch(row) : null;
  }

  /**
   * A round's results in one transaction: each check committed if its holder still holds the
   * lease (else nothing of it is written: false at its place), and the postponed entries'
   * failures and retry times. One commit per round instead of one per entry.
   */
  commitChecks(checks: readonly WatchCheckCommit[], postponed: readonly { watchId: string; holder: string; failures: number; nextCheckAt: string }[]): Promise<boolean[]> {
    return this.sql.tx(async (t) => {
      const out: boolean[] = [];
      for (let i = 0; i < checks.length; i += UPDATE_ROWS) out.push(...(await commitSome(t, checks.slice(i, i + UPDATE_ROWS))));
      for (const p of postponed) {
        await t.run('UPDATE watches SET failures = ?, next_check_at = ?, lease_holder = NULL, lease_expires_at = NULL WHERE id = ? AND lease_holder = ?', [
          p.failures, p.nextCheckAt, p.watchId, p.holder,
        ]);
      }
      return out;
    });
  }

  /** No fresh answer: count the failure, set the retry time, release the lease (if still held). */
  async postpone(watchId: string, holder: string, failures: number, nextCheckAt: string): Promise<void> {
    await this.sql.run('UPDATE watches SET failures = ?, next_check_at = ?, lease_holder = NULL, lease_expires_at = NULL WHERE id = ? AND lease_holder = ?', [
      failures, nextCheckAt, watchId, holder,
    ]);
  }
}

/** checks per UPDATE: 6 parameters each */
const UPDATE_ROWS = 500;

/**
 * Some checks, in the caller's transaction, in three statements: every entry whose lease its
 * holder still has takes its new state, then the history rows of those that changed, then their
 * events. An entry whose lease was lost gets nothing written (false at its place).
 */
async function commitSome(t: Sql, checks: readonly WatchCheckCommit[]): Promise<boolean[]> {
  if (checks.length === 0) return [];
  const held = await t.all(
    // a named CTE, not VALUES with a column list, which SQLite does not read
    `WITH v (id, holder, state, status, checked_at, next_at) AS (VALUES ${checks.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')})
     UPDATE watches SET state = v.state::jsonb, biz_status = v.status, last_checked_at = v.checked_at::timestamptz, next_check_at = v.next_at::timestamptz,
            failures = 0, lease_holder = NULL, lease_expires_at = NULL
       FROM v
      WHERE watches.id = v.id AND watches.lease_holder = v.holder
     RETURNING watches.id, watches.account_id`,
    checks.flatMap((ch) => [ch.watchId, ch.holder, JSON.stringify(ch.state), ch.state.biz_status, ch.checkedAt, ch.nextCheckAt]),
  );
  const accountOf = new Map(held.map((r) => [String(r.id), String(r.account_id)]));
  const kept = checks.filter((ch) => accountOf.has(ch.watchId));
  const changed = kept.filter((ch) => ch.history);
  if (changed.length > 0) {
    await t.run(
      `INSERT INTO watch_history (watch_id, checked_at, state, previous) VALUES ${changed.map(() => '(?, ?, ?, ?)').join(', ')}`,
      changed.flatMap((ch) => [ch.watchId, ch.checkedAt, JSON.stringify(ch.state), ch.history!.previous ? JSON.stringify(ch.history!.previous) : null]),
    );
  }
  for (const ch of kept) for (const e of ch.events) await enqueueEvent(t, accountOf.get(ch.watchId)!, e, ch.checkedAt);
  return checks.map((ch) => accountOf.has(ch.watchId));
}

/**
 * Inserts one account's entries in the caller's transaction (see WatchStore.createMany). The
 * account row's lock makes reading the counter and inserting one step among concurrent adds, and
 * the counter is read once and written once however many entries come.
 */
/** entries per INSERT: 11 parameters each stays well inside both engines' limits */
const INSERT_ROWS = 500;

async function insertWatches(t: Sql, accountId: string, ws: readonly Watch[], firstHistory: boolean, limit: number): Promise<({ created: boolean; watch: Watch } | null)[]> {
  await t.get('SELECT 1 AS x FROM accounts WHERE id = ? FOR UPDATE', [accountId]);
  const existing = new Map<string, Watch>();
  for (const r of await t.all('SELECT * FROM watches WHERE account_id = ? AND b_no = ANY(?)', [accountId, ws.map((w) => w.bno)])) {
    const w = toWatch(r);
    existing.set(w.bno, w);
  }
  let n = num(await t.get('SELECT coalesce((SELECT n FROM watch_counts WHERE account_id = ?), 0) AS n', [accountId]));
  const before = n;
  // which entries are created, in order, until the list is full; then one statement each for
  // the entries and their first history rows (a statement per entry was 2,000 round trips a
  // bulk request on PostgreSQL)
  const plan: ({ kind: 'existing'; watch: Watch } | { kind: 'new'; watch: Watch } | null)[] = [];
  const fresh: Watch[] = [];
  for (const w of ws) {
    const had = existing.get(w.bno);
    if (had) plan.push({ kind: 'existing', watch: had });
    else if (n >= limit) plan.push(null);
    else {
      const added = { ...w, accountId };
      existing.set(w.bno, added);
      fresh.push(added);
      plan.push({ kind: 'new', watch: added });
      n++;
    }
  }
  const inserted = new Map<string, Watch>();
  for (let i = 0; i < fresh.length; i += INSERT_ROWS) {
    const part = fresh.slice(i, i + INSERT_ROWS);
    const rows = await t.all(
      `INSERT INTO watches (id, account_id, b_no, name, address, state, biz_status, last_checked_at, next_check_at, failures, created_at)
       VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} RETURNING *`,
      part.flatMap((w) => [
        w.id, accountId, w.bno, w.name, w.address, w.state ? JSON.stringify(w.state) : null, w.state?.biz_status ?? null, w.lastCheckedAt, w.nextCheckAt, w.failures, w.createdAt,
      ]),
    );
    for (const r of rows) {
      const w = toWatch(r);
      inserted.set(w.id, w);
    }
    const firsts = firstHistory ? part.filter((w) => w.state && w.lastCheckedAt) : [];
    if (firsts.length > 0) {
      await t.run(
        `INSERT INTO watch_history (watch_id, checked_at, state, previous) VALUES ${firsts.map(() => '(?, ?, ?, NULL)').join(', ')}`,
        firsts.flatMap((w) => [w.id, w.lastCheckedAt, JSON.stringify(w.state)]),
      );
    }
  }
  const out = plan.map((p) => (p === null ? null : p.kind === 'existing' ? { created: false, watch: p.watch } : { created: true, watch: inserted.get(p.watch.id)! }));
  if (n !== before) {
    await t.run('INSERT INTO watch_counts (account_id, n) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET n = excluded.n', [accountId, n]);
  }
  return out;
}

async function abandonPending(t: Sql, accountId: string, at: string): Promise<void> {
  await t.run("UPDATE webhook_deliveries SET state = 'abandoned', next_attempt_at = NULL, finished_at = ?, lease_holder = NULL WHERE account_id = ? AND state = 'pending'", [
    at, accountId,
  ]);
}

export class WebhookStore extends OverSql {
  /** Creates or replaces the account's endpoint (enabled). */
  async putEndpoint(e: WebhookEndpoint): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_endpoints (account_id, url, secret, created_at, updated_at, enabled_events) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at,
         disabled_at = NULL, disabled_reason = NULL, enabled_events = excluded.enabled_events`,
      [e.accountId, e.url, e.secret, e.createdAt, e.updatedAt, e.enabledEvents === null ? null : JSON.stringify(e.enabledEvents)],
    );
  }

  /** Which events the endpoint receives (null: all); false when there is no endpoint. */
  async setEnabledEvents(accountId: string, events: readonly string[] | null, at: string): Promise<boolean> {
    const n = await this.sql.run('UPDATE webhook_endpoints SET enabled_events = ?, updated_at = ? WHERE account_id = ?', [
      events === null ? null : JSON.stringify(events), at, accountId,
    ]);
    return n > 0;
  }

  async getEndpoint(accountId: string): Promise<WebhookEndpoint | null> {
    const r = await this.sql.get('SELECT * FROM webhook_endpoints WHERE account_id = ?', [accountId]);
    return r ? toEndpoint(r) : null;
  }

  /** Removes it and abandons its pending deliveries; false when there was none. */
  deleteEndpoint(accountId: string, at: string): Promise<boolean> {
    return this.sql.tx(async (t) => {
      const gone = (await t.run('DELETE FROM webhook_endpoints WHERE account_id = ?', [accountId])) > 0;
      await abandonPending(t, accountId, at);
      return gone;
    });
  }

  /** Queues one event for the account's enabled endpoint; false when it has none. */
  enqueue(accountId: string, e: WebhookEventInput, at: string): Promise<boolean> {
    return enqueueEvent(this.sql, accountId, e, at);
  }

  claimDue(now: string, holder: string, leaseUntil: string, limit: number): Promise<DueDelivery[]> {
    return this.sql.tx(async (t) => {
      const rows = await t.all(
        `UPDATE webhook_deliveries SET lease_holder = ?, lease_expires_at = ?
          WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.account_id = d.account_id AND e.disabled_at IS NULL
                        WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
                        ORDER BY d.next_attempt_at LIMIT ? FOR UPDATE OF d SKIP LOCKED)
         RETURNING *`,
        [holder, leaseUntil, now, now, limit],
      );
      if (rows.length === 0) return [];
      const endpoints = new Map(
        (await t.all('SELECT account_id, url, secret FROM webhook_endpoints WHERE account_id = ANY(?::text[])', [[...new Set(rows.map((r) => String(r.account_id)))]])).map(
          (e) => [String(e.account_id), e] as const,
        ),
      );
      return rows.map((r) => {
        const e = endpoints.get(String(r.account_id))!;
        return { ...toDelivery(r), url: String(e.url), secret: String(e.secret) };
      });
    });
  }

  /** Records an attempt and what follows, if `holder` still holds the lease. */
  recordAttempt(o: AttemptOutcome): Promise<boolean> {
    return this.sql.tx(async (t) => {
      const a = o.attempt;
      const pending = o.next.state === 'pending';
      const held = await t.get(
        `UPDATE webhook_deliveries SET attempts = ?, last_status = ?, last_error = ?, state = ?, next_attempt_at = ?, finished_at = ?,
           lease_holder = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_holder = ? AND state = 'pending' RETURNING account_id`,
        [a.attempt, a.status, a.error, o.next.state, o.next.state === 'pending' ? o.next.at : null, pending ? null : a.at, o.deliveryId, o.holder],
      );
      if (!held) return false;
      await t.run('INSERT INTO webhook_attempts (delivery_id, attempt, at, url, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        o.deliveryId, a.attempt, a.at, a.url, a.status, a.error, a.durationMs,
      ]);
      if (o.disableEndpoint) {
        const accountId = String(held.account_id);
        await t.run('UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ? WHERE account_id = ?', [a.at, o.disableEndpoint.reason, accountId]);
        await abandonPending(t, accountId, a.at);
      }
      return true;
    });
  }

  async listDeliveries(accountId: string, o: { before: ListCursor | null; limit: number }): Promise<WebhookDelivery[]> {
    const rows = o.before
      ? await this.sql.all(
          'SELECT * FROM webhook_deliveries WHERE account_id = ? AND (created_at, id) < (?::timestamptz, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
          [accountId, o.before.createdAt, o.before.id, o.limit],
        )
      : await this.sql.all('SELECT * FROM webhook_deliveries WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?', [accountId, o.limit]);
    return rows.map(toDelivery);
  }

  async getDelivery(accountId: string, id: string): Promise<WebhookDelivery | null> {
    const r = await this.sql.get('SELECT * FROM webhook_deliveries WHERE id = ? AND account_id = ?', [id, accountId]);
    return r ? toDelivery(r) : null;
  }

  /** Every attempt of each of the account's deliveries, in attempt order, in one query. */
  async attempts(accountId: string, deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
    const rows = await this.sql.all(
      `SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE a.delivery_id = ANY(?::text[]) AND d.account_id = ? ORDER BY a.delivery_id, a.attempt`,
      [deliveryIds, accountId],
    );
    return attemptsByDelivery(deliveryIds, rows);
  }
}
