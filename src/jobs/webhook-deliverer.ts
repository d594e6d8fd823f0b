// Delivers queued webhook events at least once. A round claims due deliveries under a lease,
// signs each attempt (Standard Webhooks headers; the same webhook-id on every attempt so
// receivers can deduplicate), posts it, logs the attempt and schedules the next one: at once,
// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, with jitter, longer when the receiver's
// Retry-After asks. 410 Gone disables the endpoint.
import { randomBytes } from 'node:crypto';
import { nextAttemptAt, signWebhook } from '../domain/webhook.ts';
import type { Store } from '../store/store.ts';
import type { AttemptOutcome } from '../store/watches.ts';
import type { DueDelivery } from '../domain/watch-entities.ts';
import { postJson, type OutboundPolicy, type PostOutcome } from '../webhooks/outbound.ts';
import { PollingLoop, type Logger } from './polling-loop.ts';

export interface WebhookDelivererOptions {
  store: Store;
  now: () => Date;
  pollMs: number;
  /** requests in flight at once */
  concurrency: number;
  timeoutMs: number;
  policy: OutboundPolicy;
  /** reports each attempt (metrics) */
  onAttempt?: (outcome: PostOutcome, delivered: boolean) => void;
  log?: Logger & { info(o: object, m: string): void };
}

export class WebhookDeliverer {
  readonly #o: WebhookDelivererOptions;
  readonly #holder = `hook_${randomBytes(6).toString('hex')}`;
  readonly #loop: PollingLoop;

  constructor(opts: WebhookDelivererOptions) {
    this.#o = opts;
    this.#loop = new PollingLoop('webhook deliverer', async () => (await this.runOnce()) >= opts.concurrency, { pollMs: opts.pollMs, log: opts.log });
  }

  start(): void {
    this.#loop.start();
  }

  /** Events were queued in this process: deliver now rather than at the next poll. */
  notify(): void {
    this.#loop.notify();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One round: every due delivery, up to `concurrency`, attempted once. Returns how many. */
  async runOnce(): Promise<number> {
    const now = this.#o.now();
    // the lease outlives the slowest attempt, so no other process retries one still in flight
    const leaseUntil = new Date(now.getTime() + this.#o.timeoutMs * 3 + 5_000).toISOString();
    const due = await this.#o.store.webhooks.claimDue(now.toISOString(), this.#holder, leaseUntil, Math.max(1, this.#o.concurrency));
    await Promise.all(due.map((d) => this.#attempt(d)));
    return due.length;
  }

  async #attempt(d: DueDelivery): Promise<void> {
    const sentAt = this.#o.now();
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const headers = {
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(d.secret, d.id, timestamp, d.body),
    };
    const res = await postJson(d.url, headers, d.body, { timeoutMs: this.#o.timeoutMs, policy: this.#o.policy });
    const attempt = d.attempts + 1;
    const delivered = res.status !== null && res.status >= 200 && res.status < 300;
    const gone = res.status === 410;
    const after = this.#o.now();
    let next: AttemptOutcome['next'];
    if (delivered) next = { state: 'delivered' };
    else if (gone) next = { state: 'failed' };
    else {
      const at = nextAttemptAt(after, attempt, res.retryAfterMs);
      next = at ? { state: 'pending', at: at.toISOString() } : { state: 'failed' };
    }
    const recorded = await this.#o.store.webhooks.recordAttempt({
      deliveryId: d.id,
      holder: this.#holder,
      attempt: { attempt, at: sentAt.toISOString(), url: d.url, status: res.status, error: res.error, durationMs: res.durationMs },
      next,
      disableEndpoint: gone ? { reason: `the endpoint answered 410 Gone at ${after.toISOString()}` } : null,
    });
    this.#o.onAttempt?.(res, delivered);
    if (recorded && !delivered) {
      this.#o.log?.info({ delivery: d.id, attempt, status: res.status, error: res.error, next }, 'webhook attempt failed');
    }
  }
}
