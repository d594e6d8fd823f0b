// An account's webhook endpoint as the API manages it, and the log of what was sent to it.
import { newId } from '../accounts/api-key.ts';
import { enabledEventsOf, newSigningSecret } from '../domain/webhook.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Account } from '../domain/account.ts';
import type { ListCursor, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../domain/watch-entities.ts';
import { watchPlan } from '../watch/watch-service.ts';
import { webhookUrlProblem, type OutboundPolicy } from './outbound.ts';

export class WebhookService {
  readonly #store: Store;
  readonly #policy: OutboundPolicy;
  readonly #now: () => Date;
  readonly #onQueued: () => void;

  constructor(deps: { store: Store; policy: OutboundPolicy; now: () => Date; onQueued: () => void }) {
    this.#store = deps.store;
    this.#policy = deps.policy;
    this.#now = deps.now;
    this.#onQueued = deps.onQueued;
  }

  /** Sets (or replaces) the endpoint with a new signing secret, returned this once. */
  async put(account: Account, url: string, events?: readonly string[]): Promise<WebhookEndpoint> {
    watchPlan(account);
    const problem = webhookUrlProblem(url, this.#policy);
    if (problem) throw new AppError('bad_request', `url: ${problem}`);
    const existing = await this.#store.webhooks.getEndpoint(account.id);
    const at = this.#now().toISOString();
    const endpoint: WebhookEndpoint = {
      accountId: account.id,
      url,
      secret: newSigningSecret(),
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      disabledAt: null,
      disabledReason: null,
      enabledEvents: enabledEventsOf(events),
    };
    await this.#store.webhooks.putEndpoint(endpoint);
    return endpoint;
  }

  /** Changes which events the endpoint receives, keeping its URL and secret. */
  async setEvents(account: Account, events: readonly string[] | null): Promise<WebhookEndpoint> {
    const existing = await this.get(account);
    const enabledEvents = events === null ? null : enabledEventsOf(events);
    const at = this.#now().toISOString();
    if (!(await this.#store.webhooks.setEnabledEvents(account.id, enabledEvents, at))) throw new AppError('not_found', 'no webhook endpoint is set; PUT /webhook with a url sets one');
    return { ...existing, enabledEvents, updatedAt: at };
  }

  async get(account: Account): Promise<WebhookEndpoint> {
    watchPlan(account);
    const endpoint = await this.#store.webhooks.getEndpoint(account.id);
    if (!endpoint) throw new AppError('not_found', 'no webhook endpoint is set; PUT /webhook with a url sets one');
    return endpoint;
  }

  async remove(account: Account): Promise<void> {
    watchPlan(account);
    if (!(await this.#store.webhooks.deleteEndpoint(account.id, this.#now().toISOString()))) {
      throw new AppError('not_found', 'no webhook endpoint is set');
    }
  }

  /** Queues a `webhook.test` event through the same path real events take. */
  async sendTest(account: Account): Promise<string> {
    const endpoint = await this.get(account);
    if (endpoint.disabledAt) {
      throw new AppError('conflict', `the endpoint is disabled (${endpoint.disabledReason ?? 'no reason recorded'}); PUT /webhook again to re-enable it`);
    }
    const at = this.#now().toISOString();
    const id = newId('msg');
    const body = JSON.stringify({ type: 'webhook.test', timestamp: at, data: { message: 'bizcheck test event', account_id: account.id } });
    if (!(await this.#store.webhooks.enqueue(account.id, { id, type: 'webhook.test', body }, at))) {
      throw new AppError('conflict', 'the endpoint was removed or disabled meanwhile');
    }
    this.#onQueued();
    return id;
  }

  /** A page of deliveries with their attempts, and whether more follow. */
  async deliveries(account: Account, before: ListCursor | null, limit: number): Promise<{ page: (WebhookDelivery & { log: WebhookAttempt[] })[]; more: boolean }> {
    watchPlan(account);
    // one row past the page says whether another page exists, without a count query
    const rows = await this.#store.webhooks.listDeliveries(account.id, { before, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const logs = await this.#store.webhooks.attempts(account.id, page.map((d) => d.id));
    return { page: page.map((d) => ({ ...d, log: logs.get(d.id) ?? [] })), more: rows.length > limit };
  }

  async delivery(account: Account, id: string): Promise<WebhookDelivery & { log: WebhookAttempt[] }> {
    watchPlan(account);
    const d = await this.#store.webhooks.getDelivery(account.id, id);
    if (!d) throw new AppError('not_found', `no webhook delivery ${id}`);
    return { ...d, log: (await this.#store.webhooks.attempts(account.id, [d.id])).get(d.id) ?? [] };
  }
}
