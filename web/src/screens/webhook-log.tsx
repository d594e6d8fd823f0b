// The webhook delivery log: newest first, a page at a time; each event with its state, its
// attempts (status code or error of each) and the body sent. After "send test event" it follows
// that delivery until it is no longer pending.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Page, type WebhookAttempt, type WebhookDelivery } from '../api.ts';
import { ErrorLine, errorText } from '../components.tsx';
import { formatDate } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { codeLabel } from '../labels.ts';

const PAGE = 20;
const FOLLOW_MS = 1000;
/** how long a followed delivery is polled for; retries after that wait minutes anyway */
const FOLLOW_ROUNDS = 60;

function AttemptResult(props: { status: number | null; error: string | null }) {
  const { t } = useI18n();
  if (props.status !== null) return <span class={props.status >= 200 && props.status < 300 ? 'http-ok' : 'http-bad'}>HTTP {props.status}</span>;
  return <span class="http-bad">{props.error ?? t('webhook.noResponse')}</span>;
}

function AttemptLog(props: { d: WebhookDelivery }) {
  const { t, lang } = useI18n();
  const line = (a: WebhookAttempt) => (
    <li key={a.attempt}>
      {t('webhook.attemptLine', { n: a.attempt, at: formatDate(lang, a.at) })} · <AttemptResult status={a.status} error={a.error} /> · {a.duration_ms} ms
      {a.status !== null && a.error && <small class="muted"> ({a.error})</small>}
    </li>
  );
  return (
    <details class="attempts">
      <summary>{t('webhook.details')}</summary>
      {props.d.log.length > 0 && <ul class="attempt-list">{props.d.log.map(line)}</ul>}
      <p class="payload-label">{t('webhook.payload')}</p>
      <pre class="payload mono">{JSON.stringify(props.d.payload, null, 2)}</pre>
    </details>
  );
}

function DeliveryRow(props: { d: WebhookDelivery }) {
  const { t, lang } = useI18n();
  const { d } = props;
  return (
    <tr data-delivery={d.id}>
      <td data-label={t('webhook.event')}>
        <div>
          <span class="mono">{d.type}</span>
          <small class="mono muted">{d.id}</small>
        </div>
      </td>
      <td data-label={t('webhook.state')} data-testid="delivery-state">
        <span class={`status state-${d.state}`}>{codeLabel(t, 'webhook.state', d.state)}</span>
      </td>
      <td data-label={t('webhook.created')}>{formatDate(lang, d.created_at)}</td>
      <td data-label={t('webhook.attempts')}>{t('webhook.attemptsN', { n: d.attempts })}</td>
      <td data-label={t('webhook.result')}>
        <div class="result-cell">
          {d.attempts > 0 ? <AttemptResult status={d.last_status} error={d.last_error} /> : <span class="muted">—</span>}
          {d.state === 'pending' && d.next_attempt_at && <small class="muted">{t('webhook.nextAttempt', { at: formatDate(lang, d.next_attempt_at) })}</small>}
          <AttemptLog d={d} />
        </div>
      </td>
    </tr>
  );
}

export function DeliveryLog(props: { refresh: number; follow: string | null }) {
  const { t } = useI18n();
  const [items, setItems] = useState<WebhookDelivery[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  const load = async (cursor: string | null): Promise<WebhookDelivery[] | null> => {
    try {
      const page = await api<Page<WebhookDelivery>>('GET', '/webhook/deliveries', undefined, { query: cursor ? { limit: String(PAGE), cursor } : { limit: String(PAGE) } });
      if (!alive.current) return null;
      setError(null);
      setItems((prev) => (cursor && prev ? [...prev, ...page.data] : page.data));
      setNext(page.next_cursor);
      return page.data;
    } catch (err) {
      if (alive.current) setError(errorText(t, err));
      return null;
    }
  };

  useEffect(() => {
    void load(null);
  }, [props.refresh, reload]);

  // follow one delivery (the test event just sent) until it is delivered or given up on
  useEffect(() => {
    if (!props.follow) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let rounds = 0;
    const tick = async () => {
      const data = await load(null);
      if (stopped) return;
      const d = data?.find((x) => x.id === props.follow);
      if (d && d.state !== 'pending') return;
      if (++rounds < FOLLOW_ROUNDS) timer = setTimeout(() => void tick(), FOLLOW_MS);
    };
    timer = setTimeout(() => void tick(), FOLLOW_MS / 4);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.follow]);

  return (
    <section class="card" aria-labelledby="log-title">
      <div class="card-head">
        <h2 id="log-title">{t('webhook.log')}</h2>
        <button type="button" class="secondary small" onClick={() => setReload((n) => n + 1)}>
          {t('webhook.refresh')}
        </button>
      </div>
      <p class="muted">{t('webhook.logLead')}</p>
      <ErrorLine error={error} />
      {items === null && !error && <p class="loading">{t('app.loading')}</p>}
      {items?.length === 0 && <p class="muted">{t('webhook.noDeliveries')}</p>}
      {items && items.length > 0 && (
        <div class="table-wrap">
          <table class="deliveries responsive" data-testid="deliveries">
            <thead>
              <tr>
                <th scope="col">{t('webhook.event')}</th>
                <th scope="col">{t('webhook.state')}</th>
                <th scope="col">{t('webhook.created')}</th>
                <th scope="col">{t('webhook.attempts')}</th>
                <th scope="col">{t('webhook.result')}</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {items.map((d) => (
                <DeliveryRow key={d.id} d={d} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button type="button" class="secondary" onClick={() => void load(next)}>
          {t('common.more')}
        </button>
      )}
    </section>
  );
}
