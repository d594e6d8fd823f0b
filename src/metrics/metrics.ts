// Prometheus metrics of one process (prom-client). Each server gets its own registry, so several
// servers in one test process never mix their counts. Others add their metrics to the same
// registry:  new Counter({ name: 'bizcheck_…_total', help: '…', registers: [metrics.registry] }).
// Label values are bounded sets (route patterns, statuses, fault kinds): never ids or numbers.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Role } from '../config.ts';
import type { UpstreamObserver } from '../registry/nts-registry.ts';
import type { BreakerState } from '../registry/resilience.ts';
import type { WorkQueue } from '../store/work-queue.ts';

/** What is read at scrape time rather than counted as it happens. */
export interface ScrapeSources {
  upstream(): BreakerState | 'sandbox';
  workQueue(): Promise<WorkQueue>;
}

const BREAKER_VALUE: Record<BreakerState | 'sandbox', number> = { closed: 0, half_open: 1, open: 2, sandbox: 0 };

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'route'>;
  readonly upstreamAttempts: Counter<'outcome'>;
  readonly upstreamDuration: Histogram;
  readonly upstreamBudgetWait: Histogram;
  readonly breakerTransitions: Counter<'to'>;
  readonly statusLookups: Counter<'source'>;
  readonly batchRows: Counter;
  readonly batchChunks: Counter<'outcome'>;
  readonly webhookAttempts: Counter<'outcome'>;
  readonly watchChecks: Counter<'outcome'>;
  /** read at scrape time: role, breaker state, queue depth */
  readonly gauges: Gauge[];
  #sources: ScrapeSources | undefined;

  constructor(opts: { role: Role; defaultMetrics?: boolean }) {
    const registers = [this.registry];
    if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    const role = new Gauge({ name: 'bizcheck_process_role', help: 'the role this process runs (always 1)', labelNames: ['role'], registers });
    role.set({ role: opts.role }, 1);
    this.httpRequests = new Counter({
      name: 'bizcheck_http_requests_total',
      help: 'HTTP requests answered, by route pattern ("unmatched" for unknown routes) and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'bizcheck_http_request_duration_seconds',
      help: 'time to answer an HTTP request, by route pattern',
      labelNames: ['route'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.upstreamAttempts = new Counter({
      name: 'bizcheck_upstream_attempts_total',
      help: 'calls sent to NTS (retries count each), by outcome: ok or the fault (timeout, http_5xx, malformed, network, rate_limited, rejected)',
      labelNames: ['outcome'],
      registers,
    });
    this.upstreamDuration = new Histogram({
      name: 'bizcheck_upstream_attempt_duration_seconds',
      help: 'time of one NTS call',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    });
    this.upstreamBudgetWait = new Histogram({
      name: 'bizcheck_upstream_budget_wait_seconds',
      help: 'time an NTS call waited for its slot in the shared calls-per-second budget',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    });
    this.breakerTransitions = new Counter({
      name: 'bizcheck_upstream_breaker_transitions_total',
      help: 'NTS circuit breaker changes, by the state entered',
      labelNames: ['to'],
      registers,
    });
    const sources = () => this.#sources;
    const breaker = new Gauge({
      name: 'bizcheck_upstream_breaker_state',
      help: 'NTS circuit breaker: 0 closed (or sandbox), 1 half-open, 2 open',
      registers,
      collect() {
        const s = sources();
        if (s) this.set(BREAKER_VALUE[s.upstream()]);
      },
    });
    this.statusLookups = new Counter({
      name: 'bizcheck_status_lookups_total',
      help: 'business numbers looked up, by where the answer came from: cache (fresh), upstream, stale_cache (upstream failed), unanswered',
      labelNames: ['source'],
      registers,
    });
    this.batchRows = new Counter({ name: 'bizcheck_batch_rows_processed_total', help: 'batch rows committed by this process\'s worker', registers });
    this.batchChunks = new Counter({
      name: 'bizcheck_batch_chunks_total',
      help: 'batch chunks this process finished: committed, lease_lost (another worker had taken it over; nothing written), or conflict (redone with the answers another chunk recorded first)',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'bizcheck_webhook_attempts_total',
      help: 'webhook delivery attempts by this process: delivered (2xx), http_error (other status), no_response (timeout, refused, blocked address)',
      labelNames: ['outcome'],
      registers,
    });
    this.watchChecks = new Counter({
      name: 'bizcheck_watch_checks_total',
      help: 'watched businesses this process checked: checked (committed), changed (status or grade moved), postponed (no fresh answer)',
      labelNames: ['outcome'],
      registers,
    });
    const queue = new Gauge({
      name: 'bizcheck_batch_queue_chunks',
      help: 'batch chunks across all jobs and processes: pending (waiting for a worker) and leased (being worked on)',
      labelNames: ['state'],
      registers,
      async collect() {
        const s = sources();
        if (!s) return;
        try {
          const q = await s.workQueue();
          this.set({ state: 'pending' }, q.pendingChunks);
          this.set({ state: 'leased' }, q.leasedChunks);
        } catch {
          // database unreachable: keep the last values rather than fail the whole page (/readyz says why)
        }
      },
    });
    this.gauges = [role, breaker, queue];
  }

  /** Called once the store and registry exist (they are created after the metrics). */
  watch(sources: ScrapeSources): void {
    this.#sources = sources;
  }

  /** What the NTS registry reports into. */
  upstreamObserver(): UpstreamObserver {
    return {
      attempt: (outcome, seconds) => {
        this.upstreamAttempts.inc({ outcome });
        this.upstreamDuration.observe(seconds);
      },
      budgetWait: (seconds) => this.upstreamBudgetWait.observe(seconds),
      breaker: (state) => this.breakerTransitions.inc({ to: state }),
    };
  }

  /** Prometheus text format. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
