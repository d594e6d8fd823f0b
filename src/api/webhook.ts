// The account's webhook endpoint: PUT /webhook (set; the signing secret is shown this once),
// GET /webhook, DELETE /webhook, POST /webhook/test, GET /webhook/deliveries (with each attempt).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { decodeCursor, encodeCursor } from '../domain/list-cursor.ts';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook.ts';
import { AppError } from '../errors.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../domain/watch-entities.ts';
import type { WebhookService } from '../webhooks/webhook-service.ts';
import { requireAccount } from './auth.ts';
import { Problem, problemResponses } from './schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});

const EventList = Type.Array(Type.String({ enum: [...WEBHOOK_EVENT_TYPES] }), {
  maxItems: 50,
  description: 'event types to send; every type when left out (webhook.test is always sent when asked for)',
});
const PutWebhook = Type.Object(
  { url: Type.String({ maxLength: 2000, description: 'https URL that receives POSTed events' }), enabled_events: Type.Optional(EventList) },
  { additionalProperties: false },
);
const PatchWebhook = Type.Object({ enabled_events: Nullable(EventList, 'null: every type') }, { additionalProperties: false });

const EndpointFields = {
  url: Type.String(),
  enabled: Type.Boolean({ description: 'false after the endpoint answered 410 Gone; PUT again to re-enable' }),
  disabled_reason: Nullable(Type.String()),
  events: Type.Array(Type.String(), { description: 'event types sent to it' }),
  enabled_events: Nullable(Type.Array(Type.String()), 'the types chosen with PUT or PATCH; null: every type'),
  created_at: Type.String(),
  updated_at: Type.String(),
};
const Endpoint = Type.Object({ ...EndpointFields, secret_hint: Type.String({ description: 'the first characters of the signing secret, to tell secrets apart' }) });
const EndpointWithSecret = Type.Object({
  ...EndpointFields,
  secret: Type.String({ description: 'whsec_… signing secret: shown this once; verify webhook-signature with it' }),
});

const Attempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String(),
  url: Type.String(),
  status: Nullable(Type.Integer(), 'HTTP status, null when no response came'),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
});
const Delivery = Type.Object({
  id: Type.String({ description: 'the webhook-id header of every attempt' }),
  type: Type.String(),
  state: Type.String({ description: 'pending | delivered | failed | abandoned (endpoint removed or gone)' }),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String()),
  last_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  finished_at: Nullable(Type.String()),
  payload: Type.Unknown({ description: 'the JSON body sent' }),
  log: Type.Array(Attempt),
});
const Deliveries = Type.Object({ data: Type.Array(Delivery), next_cursor: Nullable(Type.String()) });
const DeliveriesQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), cursor: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

function endpointFields(e: WebhookEndpoint) {
  const events = e.enabledEvents === null ? [...WEBHOOK_EVENT_TYPES] : [...e.enabledEvents, ...(e.enabledEvents.includes('webhook.test') ? [] : ['webhook.test'])];
  return {
    url: e.url, enabled: e.disabledAt === null, disabled_reason: e.disabledReason, events, enabled_events: e.enabledEvents,
    created_at: e.createdAt, updated_at: e.updatedAt,
  };
}

function deliveryView(d: WebhookDelivery & { log: WebhookAttempt[] }) {
  return {
    id: d.id,
    type: d.type,
    state: d.state,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    last_status: d.lastStatus,
    last_error: d.lastError,
    created_at: d.createdAt,
    finished_at: d.finishedAt,
    payload: JSON.parse(d.body) as unknown,
    log: d.log.map((a) => ({ attempt: a.attempt, at: a.at, url: a.url, status: a.status, error: a.error, duration_ms: a.durationMs })),
  };
}

export function webhookRoutes(service: WebhookService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.put(
      '/webhook',
      { schema: { summary: 'Set the webhook endpoint; returns a new signing secret, shown once', body: PutWebhook, response: { 200: EndpointWithSecret, ...problemResponses } } },
      async (request) => {
        const e = await service.put(requireAccount(request), request.body.url, request.body.enabled_events);
        return { ...endpointFields(e), secret: e.secret };
      },
    );
    app.patch(
      '/webhook',
      { schema: { summary: 'Choose the event types sent, keeping the URL and secret', body: PatchWebhook, response: { 200: Endpoint, ...problemResponses, 404: Problem } } },
      async (request) => {
        const e = await service.setEvents(requireAccount(request), request.body.enabled_events);
        return { ...endpointFields(e), secret_hint: `${e.secret.slice(0, 10)}…` };
      },
    );
    app.get('/webhook', { schema: { summary: 'The webhook endpoint (without its secret)', response: { 200: Endpoint, ...problemResponses, 404: Problem } } }, async (request) => {
      const e = await service.get(requireAccount(request));
      return { ...endpointFields(e), secret_hint: `${e.secret.slice(0, 10)}…` };
    });
    app.delete('/webhook', { schema: { summary: 'Remove the endpoint; pending deliveries are abandoned', response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...problemResponses, 404: Problem } } }, async (request) => {
      await service.remove(requireAccount(request));
      return { deleted: true as const };
    });
    app.post(
      '/webhook/test',
      { schema: { summary: 'Queue a webhook.test event to the endpoint', response: { 202: Type.Object({ delivery_id: Type.String() }), ...problemResponses, 404: Problem, 409: Problem } } },
      async (request, reply) => {
        const id = await service.sendTest(requireAccount(request));
        reply.code(202);
        return { delivery_id: id };
      },
    );
    app.get(
      '/webhook/deliveries',
      { schema: { summary: 'Events sent or waiting, newest first, with every attempt', querystring: DeliveriesQuery, response: { 200: Deliveries, ...problemResponses } } },
      async (request) => {
        const limit = request.query.limit ?? 20;
        const before = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor);
        if (request.query.cursor !== undefined && !before) throw new AppError('bad_request', 'cursor: not a cursor from a previous page');
        const { page, more } = await service.deliveries(requireAccount(request), before, limit);
        const last = page.at(-1);
        return { data: page.map(deliveryView), next_cursor: more && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
      },
    );
    app.get(
      '/webhook/deliveries/:delivery_id',
      { schema: { summary: 'One delivery with every attempt', params: Type.Object({ delivery_id: Type.String({ maxLength: 64 }) }), response: { 200: Delivery, ...problemResponses, 404: Problem } } },
      async (request) => deliveryView(await service.delivery(requireAccount(request), request.params.delivery_id)),
    );
  };
}
