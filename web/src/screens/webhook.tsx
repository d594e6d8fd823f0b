// Webhook settings: set the URL (the signing secret shown once, with how to verify signatures),
// the current endpoint by its secret's hint, enabled or why not, remove with confirmation, a test
// event, and the delivery log.
import { useEffect, useState } from 'preact/hooks';
import { useAccount } from '../account.ts';
import { api, ApiError, type WebhookEndpoint } from '../api.ts';
import { ConfirmDialog, CopyField, Dialog, ErrorLine, errorText, PlanNeeded, requiredPlanOf } from '../components.tsx';
import { formatDate } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { DeliveryLog } from './webhook-log.tsx';

function SecretDialog(props: { secret: string | null; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog id="webhook-secret" open={props.secret !== null} title={t('webhook.secretTitle')} onClose={props.onClose}>
      <p class="warning" role="note">
        <strong>⚠ {t('webhook.secretOnce')}</strong>
      </p>
      <CopyField id="webhook-secret-value" label={t('webhook.secretLabel')} value={props.secret ?? ''} />
      <div class="note verify">
        <h3>{t('webhook.verifyTitle')}</h3>
        <ol>
          <li>{t('webhook.verify1')}</li>
          <li>{t('webhook.verify2')}</li>
          <li>{t('webhook.verify3')}</li>
          <li>{t('webhook.verify4')}</li>
        </ol>
        <p>
          {t('webhook.verifyMore')}{' '}
          <a href="https://www.standardwebhooks.com" target="_blank" rel="noopener noreferrer">
            standardwebhooks.com
          </a>
        </p>
      </div>
      <div class="actions">
        <button type="button" class="primary" onClick={props.onClose}>
          {t('webhook.done')}
        </button>
      </div>
    </Dialog>
  );
}

function UrlForm(props: { current: WebhookEndpoint | null; onSaved: (e: WebhookEndpoint & { secret: string }) => void }) {
  const { t } = useI18n();
  const [url, setUrl] = useState(props.current?.url ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setUrl(props.current?.url ?? ''), [props.current?.url]);
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSaved(await api<WebhookEndpoint & { secret: string }>('PUT', '/webhook', { url: url.trim() }));
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void save(e)} aria-labelledby="webhook-url-title">
      <h2 id="webhook-url-title">{t('webhook.formTitle')}</h2>
      <label for="webhook-url">{t('webhook.url')}</label>
      <input
        id="webhook-url"
        class="mono"
        type="url"
        inputMode="url"
        required
        maxLength={2000}
        placeholder="https://example.com/hooks/bizcheck"
        autoComplete="url"
        spellcheck={false}
        value={url}
        aria-describedby="webhook-url-hint"
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <p class="hint" id="webhook-url-hint">
        {t('webhook.urlHint')}
        {props.current ? ` ${t('webhook.rotateNote')}` : ''}
      </p>
      <ErrorLine error={error} />
      <button type="submit" class="primary" disabled={busy || !url.trim()}>
        {busy ? t('webhook.saving') : t('webhook.save')}
      </button>
    </form>
  );
}

/** The event types an endpoint may choose (webhook.test is always sent when asked for). */
const CHOOSABLE = [
  'watch.closed', 'watch.suspended', 'watch.reopened', 'watch.converted', 'watch.tax_type_changed', 'watch.closed_on_corrected', 'watch.changed', 'batch.done',
] as const;

function EventPicker(props: { endpoint: WebhookEndpoint; onSaved: (e: WebhookEndpoint) => void }) {
  const { t } = useI18n();
  const initial = props.endpoint.enabled_events ?? [...CHOOSABLE];
  const [chosen, setChosen] = useState<Set<string>>(new Set(initial));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const all = CHOOSABLE.every((c) => chosen.has(c));
      const e = await api<WebhookEndpoint>('PATCH', '/webhook', { enabled_events: all ? null : CHOOSABLE.filter((c) => chosen.has(c)) });
      setSaved(true);
      props.onSaved(e);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void save(e)} aria-labelledby="webhook-events-title" data-testid="event-picker">
      <h2 id="webhook-events-title">{t('webhook.chooseEvents')}</h2>
      <fieldset class="checks">
        <legend class="sr-only">{t('webhook.chooseEvents')}</legend>
        {CHOOSABLE.map((c) => (
          <label key={c}>
            <input
              type="checkbox"
              name="enabled_events"
              value={c}
              checked={chosen.has(c)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.currentTarget.checked) next.add(c);
                else next.delete(c);
                setChosen(next);
              }}
            />{' '}
            <span class="mono">{c}</span> — {t(`webhook.event.${c}`)}
          </label>
        ))}
      </fieldset>
      <div class="button-row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('webhook.saving') : t('webhook.saveEvents')}
        </button>
      </div>
      {saved && <p role="status">{t('webhook.eventsSaved')}</p>}
      <ErrorLine error={error} />
    </form>
  );
}

function EndpointCard(props: { endpoint: WebhookEndpoint; onTest: () => Promise<void>; onRemove: () => void }) {
  const { t, lang } = useI18n();
  const e = props.endpoint;
  const [busy, setBusy] = useState(false);
  return (
    <section class="card" aria-labelledby="endpoint-title" data-testid="endpoint">
      <h2 id="endpoint-title">{t('webhook.current')}</h2>
      <dl class="pairs">
        <dt>URL</dt>
        <dd class="mono">{e.url}</dd>
        <dt>{t('webhook.secretHint')}</dt>
        <dd class="mono" data-testid="secret-hint">
          {e.secret_hint}
        </dd>
        <dt>{t('webhook.state')}</dt>
        <dd data-testid="endpoint-state">
          <span class={`status ${e.enabled ? 'state-delivered' : 'state-failed'}`}>{e.enabled ? t('webhook.enabled') : t('webhook.disabled')}</span>
        </dd>
        <dt>{t('webhook.events')}</dt>
        <dd>
          <ul class="events">
            {e.events.map((ev) => (
              <li key={ev} class="mono">
                {ev}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{t('webhook.updated')}</dt>
        <dd>{formatDate(lang, e.updated_at)}</dd>
      </dl>
      {!e.enabled && (
        <p class="warning" role="note">
          {t('webhook.disabledNote', { reason: e.disabled_reason ?? '—' })}
        </p>
      )}
      <div class="button-row">
        <button
          type="button"
          class="primary"
          disabled={busy || !e.enabled}
          onClick={() => {
            setBusy(true);
            void props.onTest().finally(() => setBusy(false));
          }}
        >
          {busy ? t('webhook.testing') : t('webhook.test')}
        </button>
        <button type="button" class="danger" onClick={props.onRemove}>
          {t('webhook.remove')}
        </button>
      </div>
    </section>
  );
}

function WebhookSettings(props: { onForbidden: (required: string) => void }) {
  const { t } = useI18n();
  // undefined: loading; null: no endpoint set
  const [endpoint, setEndpoint] = useState<WebhookEndpoint | null | undefined>(undefined);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const [follow, setFollow] = useState<string | null>(null);

  const fail = (err: unknown) => {
    const required = requiredPlanOf(err);
    if (required) props.onForbidden(required);
    else setError(errorText(t, err));
  };
  const load = async () => {
    try {
      setEndpoint(await api<WebhookEndpoint>('GET', '/webhook'));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found') setEndpoint(null);
      else fail(err);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const saved = (e: WebhookEndpoint & { secret: string }) => {
    setError(null);
    setNotice(null);
    setSecret(e.secret);
    void load();
  };
  const test = async () => {
    setError(null);
    try {
      const { delivery_id } = await api<{ delivery_id: string }>('POST', '/webhook/test');
      setNotice(t('webhook.testQueued', { id: delivery_id }));
      setFollow(delivery_id);
    } catch (err) {
      fail(err);
    }
  };
  const remove = async () => {
    try {
      await api('DELETE', '/webhook');
      setNotice(t('webhook.removed'));
      setEndpoint(null);
      setRefresh((n) => n + 1);
    } catch (err) {
      fail(err);
    } finally {
      setRemoving(false);
    }
  };

  return (
    <>
      <ErrorLine error={error} />
      <p class="ok" role="status">
        {notice}
      </p>
      {endpoint === undefined && !error && <p class="loading">{t('app.loading')}</p>}
      {endpoint === null && <p class="muted card">{t('webhook.none')}</p>}
      {endpoint && <EndpointCard endpoint={endpoint} onTest={test} onRemove={() => setRemoving(true)} />}
      {endpoint && <EventPicker key={endpoint.updated_at} endpoint={endpoint} onSaved={(e) => setEndpoint(e)} />}
      {endpoint !== undefined && <UrlForm current={endpoint} onSaved={saved} />}
      <DeliveryLog refresh={refresh} follow={follow} />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        id="remove-webhook"
        open={removing}
        title={t('webhook.removeTitle')}
        body={t('webhook.removeBody')}
        confirm={t('webhook.confirmRemove')}
        onCancel={() => setRemoving(false)}
        onConfirm={remove}
      />
    </>
  );
}

export function WebhookScreen() {
  const { t } = useI18n();
  const { account, error } = useAccount();
  const [forbidden, setForbidden] = useState<string | null>(null);
  // webhooks announce watch-list changes: the same plans have them
  const gate = forbidden ?? (account && !account.features.watch ? 'business' : null);
  return (
    <section aria-labelledby="webhook-title">
      <h1 id="webhook-title">{t('webhook.title')}</h1>
      <ErrorLine error={error} />
      {!account && !error && <p class="loading">{t('app.loading')}</p>}
      {account && gate && <PlanNeeded text="plan.neededWebhook" plan={account.plan} required={gate} />}
      {account && !gate && (
        <>
          <p class="lead">{t('webhook.lead')}</p>
          <WebhookSettings onForbidden={setForbidden} />
        </>
      )}
    </section>
  );
}
