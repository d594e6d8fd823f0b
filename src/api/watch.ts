// The watch list: POST /watch (register; first check at once), GET /watch (cursor pages),
// GET /watch/{watch_id}, DELETE /watch/{watch_id}, GET /watch/{watch_id}/history.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { decodeCursor, encodeCursor } from '../domain/list-cursor.ts';
import { AppError } from '../errors.ts';
import { BIZ_STATUSES } from '../domain/verification.ts';
import { ACTIONS, GRADES } from '../domain/model/grades.ts';
import { watchSearch } from '../domain/watch.ts';
import type { Watch, WatchHistoryEntry } from '../domain/watch-entities.ts';
import type { WatchService } from '../watch/watch-service.ts';
import { requireAccount } from './auth.ts';
import { Problem, problemResponses } from './schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});

const WatchRequest = Type.Object(
  {
    biz_no: Type.String({ pattern: '^[0-9]{10}$', description: 'Business registration number: 10 digits, no hyphens' }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 200 }), 'Business name; with it each check includes the bounce-risk grade')),
    address: Type.Optional(Nullable(Type.String({ maxLength: 500 }), 'Postal address, assessed with the name')),
  },
  { additionalProperties: false },
);

const STATE_FIELDS = {
  biz_status: Type.String({ enum: [...BIZ_STATUSES], description: 'unknown: not answered yet' }),
  grade: Nullable(Type.String({ enum: [...GRADES] }), 'A (safest) to E; null without a name'),
  bounce_prob: Nullable(Type.Number(), '0..1; null without a name'),
  action: Nullable(Type.String({ enum: [...ACTIONS] }), 'recommended action; null without a name'),
  closed_on: Nullable(Type.String(), 'closure date (YYYY-MM-DD) when closed'),
  tax_type: Nullable(Type.String(), 'NTS tax type text'),
  tax_type_cd: Nullable(Type.String(), 'NTS tax type code (01 일반, 02 간이, 04 면세, 07 간이 세금계산서 발급, …)'),
  tax_type_change_dt: Nullable(Type.String(), 'when the tax type last changed (YYYY-MM-DD)'),
  verification_id: Nullable(Type.String(), 'the kept, signed record of the NTS answer this check observed: GET /verifications/{verification_id}'),
};

export const WatchRecord = Type.Object({
  watch_id: Type.String(),
  biz_no: Type.String(),
  name: Nullable(Type.String()),
  address: Nullable(Type.String()),
  ...STATE_FIELDS,
  last_checked_at: Nullable(Type.String(), 'last check that got an answer'),
  next_check_at: Type.String({ description: 'when the scheduler checks again (the plan interval, sooner after an unanswered check)' }),
  check_failures: Type.Integer({ description: 'checks in a row without an answer (upstream down); retried with backoff' }),
  created_at: Type.String(),
});

/** a watched number is never `invalid` (refused at registration); `unknown` is an entry never answered */
const WATCH_FILTER_STATUSES = BIZ_STATUSES.filter((s) => s !== 'invalid');

/** 1,000 entries of at most ~800 bytes of JSON each (a 200-character name, a 500-character address). */
const BULK_BODY_LIMIT = 1000 * 800;

const BulkItem = Type.Object({
  biz_no: Type.String(),
  status: Type.Integer({ description: '201 created, 200 already watched, 400 bad number, 403 the plan\'s list is full' }),
  watch: Type.Optional(WatchRecord),
  error: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String() })),
});
const BulkResult = Type.Object({
  data: Type.Array(BulkItem, { description: 'one per entry sent, in order' }),
  created: Type.Integer(),
  existing: Type.Integer(),
  refused: Type.Integer(),
});

const WatchList = Type.Object({
  data: Type.Array(WatchRecord),
  total: Type.Integer({ description: 'entries on the whole list' }),
  matching: Type.Optional(Type.Integer({ description: 'entries that pass `status` and `q`, when either is given' })),
  next_cursor: Nullable(Type.String(), 'pass as ?cursor= for the next page; null on the last page'),
});

const HistoryEntry = Type.Object({
  checked_at: Type.String(),
  ...STATE_FIELDS,
  previous_attributes: Type.Union(
    [
      Type.Object({
        biz_status: Type.Optional(Type.String()),
        grade: Type.Optional(Nullable(Type.String())),
        closed_on: Type.Optional(Nullable(Type.String())),
        tax_type_cd: Type.Optional(Nullable(Type.String())),
        tax_type: Type.Optional(Nullable(Type.String())),
      }),
      Type.Null(),
    ],
    { description: 'the values before this check of what it changed; null for the first answered check' },
  ),
});

const History = Type.Object({ watch_id: Type.String(), biz_no: Type.String(), history: Type.Array(HistoryEntry) });
const Removed = Type.Object({ watch_id: Type.String(), biz_no: Type.String(), deleted: Type.Literal(true) });
const WatchParams = Type.Object({ watch_id: Type.String({ maxLength: 64 }) });
const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(
      Type.Union(
        WATCH_FILTER_STATUSES.map((s) => Type.Literal(s)),
        { description: 'only entries whose last answer has this status; `unknown`: never answered' },
      ),
    ),
    q: Type.Optional(Type.String({ maxLength: 100, description: 'search: digits match the number from its start ("124-81" works), anything else a piece of the name' })),
  },
  { additionalProperties: false },
);

export function watchRecord(w: Watch) {
  const s = w.state;
  return {
    watch_id: w.id,
    biz_no: w.bno,
    name: w.name,
    address: w.address,
    biz_status: s?.biz_status ?? 'unknown',
    grade: s?.grade ?? null,
    bounce_prob: s?.bounce_prob ?? null,
    action: s?.action ?? null,
    closed_on: s?.closed_on ?? null,
    tax_type: s?.tax_type ?? null,
    tax_type_cd: s?.tax_type_cd ?? null,
    tax_type_change_dt: s?.tax_type_change_dt ?? null,
    verification_id: s?.verification_id ?? null,
    last_checked_at: w.lastCheckedAt,
    next_check_at: w.nextCheckAt,
    check_failures: w.failures,
    created_at: w.createdAt,
  };
}

function historyEntry(h: WatchHistoryEntry) {
  return { checked_at: h.checkedAt, tax_type: null, tax_type_cd: null, tax_type_change_dt: null, verification_id: null, ...h.state, previous_attributes: h.previous };
}

export function watchRoutes(service: WatchService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/watch',
      {
        // a full array (1,000 entries with a name and an address each) is far over the general
        // JSON limit; the schema still bounds what it may hold
        bodyLimit: BULK_BODY_LIMIT,
        schema: {
          summary: 'Watch a business (or up to 1,000: an array): checked now, then re-checked at the plan interval',
          description: 'One entry: 201, or 200 when already watched. An array: 207 with each entry answered on its own.',
          body: Type.Union([WatchRequest, Type.Array(WatchRequest, { minItems: 1, maxItems: 1000 })]),
          response: { 200: WatchRecord, 201: WatchRecord, 207: BulkResult, ...problemResponses },
        },
      },
      async (request, reply) => {
        if (Array.isArray(request.body)) {
          const items = await service.createMany(requireAccount(request), request.body);
          reply.code(207);
          return {
            data: items.map((i) => ({ biz_no: i.biz_no, status: i.status, ...(i.watch ? { watch: watchRecord(i.watch) } : {}), ...(i.error ? { error: i.error } : {}) })),
            created: items.filter((i) => i.status === 201).length,
            existing: items.filter((i) => i.status === 200).length,
            refused: items.filter((i) => i.status >= 400).length,
          };
        }
        const { created, watch } = await service.create(requireAccount(request), request.body);
        reply.code(created ? 201 : 200);
        if (created) reply.header('location', `/watch/${watch.id}`);
        return watchRecord(watch);
      },
    );

    app.post(
      '/batch/:job_id/watch',
      {
        schema: {
          summary: "Watch every valid number of a finished job; the job's answers are their first check (no second charge)",
          params: Type.Object({ job_id: Type.String({ maxLength: 64 }) }),
          response: {
            200: Type.Object({ created: Type.Integer(), existing: Type.Integer({ description: 'already watched' }), refused: Type.Integer({ description: "beyond the plan's watch limit" }) }),
            ...problemResponses,
            404: Problem,
            409: Problem,
            410: Problem,
          },
        },
      },
      async (request) => service.watchJob(requireAccount(request), request.params.job_id),
    );

    app.get(
      '/watch',
      { schema: { summary: 'The watch list, oldest first, in pages; narrowed by status or a search', querystring: ListQuery, response: { 200: WatchList, ...problemResponses } } },
      async (request) => {
        const account = requireAccount(request);
        const limit = request.query.limit ?? 100;
        const after = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor);
        if (request.query.cursor !== undefined && !after) throw new AppError('bad_request', 'cursor: not a cursor from a previous page');
        const filter = { ...(request.query.status ? { status: request.query.status } : {}), ...watchSearch(request.query.q ?? '') };
        const filtered = Object.keys(filter).length > 0;
        // one extra row says whether another page exists without a count query
        const [rows, total, matching] = await Promise.all([
          service.list(account, after, limit + 1, filter),
          service.count(account),
          filtered ? service.countMatching(account, filter) : null,
        ]);
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        return {
          data: page.map(watchRecord),
          total,
          ...(matching === null ? {} : { matching }),
          next_cursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
        };
      },
    );

    app.get(
      '/watch/:watch_id',
      { schema: { summary: 'One watched business', params: WatchParams, response: { 200: WatchRecord, ...problemResponses, 404: Problem } } },
      async (request) => watchRecord(await service.get(requireAccount(request), request.params.watch_id)),
    );

    app.delete(
      '/watch/:watch_id',
      { schema: { summary: 'Stop watching a business (its history goes with it)', params: WatchParams, response: { 200: Removed, ...problemResponses, 404: Problem } } },
      async (request) => {
        const account = requireAccount(request);
        const watch = await service.get(account, request.params.watch_id);
        await service.remove(account, watch.id);
        return { watch_id: watch.id, biz_no: watch.bno, deleted: true as const };
      },
    );

    app.post(
      '/watch/:watch_id/check',
      {
        schema: {
          summary: 'Re-check a watched business now (charged as one lookup)',
          description: 'Asks NTS now rather than at the next scheduled check; a change is recorded in the history and notified like a scheduled one. 503 (not charged) when NTS does not answer; 409 while a scheduled check holds the entry.',
          params: WatchParams,
          response: { 200: WatchRecord, ...problemResponses, 404: Problem, 409: Problem, 503: Problem },
        },
      },
      async (request) => watchRecord(await service.checkNow(requireAccount(request), request.params.watch_id)),
    );

    app.get(
      '/watch/:watch_id/history',
      {
        schema: {
          summary: 'Checks at which status or grade changed, oldest first (business plan and above)',
          params: WatchParams,
          response: { 200: History, ...problemResponses, 404: Problem },
        },
      },
      async (request) => {
        const { watch, entries } = await service.history(requireAccount(request), request.params.watch_id);
        return { watch_id: watch.id, biz_no: watch.bno, history: entries.map(historyEntry) };
      },
    );
  };
}
