// Account and usage: the plan, what it includes, and the month's quota as a meter.
import { useEffect, useState } from 'preact/hooks';
import { api, type AccountInfo } from '../api.ts';
import { ErrorLine, errorText } from '../components.tsx';
import { formatDate, formatNumber } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { navigate } from '../router.ts';

export function QuotaMeter(props: { quota: AccountInfo['quota'] }) {
  const { t, lang } = useI18n();
  const q = props.quota;
  const fraction = q.limit > 0 ? Math.min(1, q.used / q.limit) : 1;
  const level = fraction >= 0.9 ? 'high' : fraction >= 0.7 ? 'mid' : 'low';
  return (
    <div class="quota">
      <div
        class="meter"
        role="meter"
        aria-label={t('overview.quota')}
        aria-valuemin={0}
        aria-valuemax={q.limit}
        aria-valuenow={Math.min(q.used, q.limit)}
        aria-valuetext={`${formatNumber(lang, q.used)} / ${formatNumber(lang, q.limit)}`}
      >
        <div class={`meter-fill ${level}`} style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <dl class="stats">
        <div>
          <dt>{t('overview.used')}</dt>
          <dd data-testid="quota-used">{formatNumber(lang, q.used)}</dd>
        </div>
        <div>
          <dt>{t('overview.remaining')}</dt>
          <dd data-testid="quota-remaining">{formatNumber(lang, q.remaining)}</dd>
        </div>
        <div>
          <dt>{t('overview.limit')}</dt>
          <dd>
            {formatNumber(lang, q.limit)}
            {q.custom_limit && <small> · {t('overview.customLimit')}</small>}
          </dd>
        </div>
        <div>
          <dt>{t('overview.overage')}</dt>
          <dd>{formatNumber(lang, q.overage)}</dd>
        </div>
      </dl>
      <p class="muted">
        {t('overview.resets')}: {formatDate(lang, q.resets_at)}
      </p>
    </div>
  );
}

function Feature(props: { label: string; on: boolean; detail?: string | undefined }) {
  const { t } = useI18n();
  return (
    <li class={props.on ? 'on' : 'off'}>
      <span aria-hidden="true">{props.on ? '✓' : '–'}</span> {props.label}: <strong>{props.on ? (props.detail ?? t('overview.yes')) : (props.detail ?? t('overview.no'))}</strong>
    </li>
  );
}

/** Closing the account: everything held about it goes, for good, once its password is confirmed. */
function CloseAccount() {
  const { t } = useI18n();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await api('POST', '/account/close', { password });
      navigate('/');
      // the session is gone: asking for it takes the page back to sign-in
      await api('GET', '/session').catch(() => undefined);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card danger-zone" onSubmit={(e) => void submit(e)} aria-labelledby="close-title">
      <h2 id="close-title">{t('close.title')}</h2>
      <p>{t('close.body')}</p>
      <div class="field">
        <label for="close-password">{t('close.password')}</label>
        <input id="close-password" type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </div>
      <ErrorLine error={error} />
      <button type="submit" class="danger" disabled={busy || password === ''}>
        {t('close.submit')}
      </button>
    </form>
  );
}

const USAGE_DAYS = 30;

/** Lookups per day over the last 30 days as bars, the busiest day as the scale; read out as one sentence. */
function DailyUsage() {
  const { t, lang } = useI18n();
  const [days, setDays] = useState<{ day: string; lookups: number }[] | null>(null);
  useEffect(() => {
    api<{ days: { day: string; lookups: number }[] }>('GET', '/account/usage', undefined, { query: { days: String(USAGE_DAYS) } }).then(
      (r) => setDays(r.days),
      () => setDays([]),
    );
  }, []);
  if (!days || days.length === 0) return null;
  const max = Math.max(1, ...days.map((d) => d.lookups));
  const total = days.reduce((n, d) => n + d.lookups, 0);
  const busiest = days.reduce((a, b) => (b.lookups > a.lookups ? b : a));
  const summary = t('overview.usageSummary', { n: USAGE_DAYS, total: formatNumber(lang, total), day: busiest.day.slice(5), max: formatNumber(lang, busiest.lookups) });
  return (
    <div class="card usage-days" data-testid="daily-usage">
      <h2>{t('overview.usageTitle', { n: USAGE_DAYS })}</h2>
      <div class="usage-bars" role="img" aria-label={summary}>
        {days.map((d) => (
          <span key={d.day} class="usage-bar" title={`${d.day}: ${formatNumber(lang, d.lookups)}`}>
            <span class="usage-fill" style={{ height: `${((d.lookups / max) * 100).toFixed(1)}%` }} />
          </span>
        ))}
      </div>
      <p class="muted usage-axis">
        <span>{days[0]!.day.slice(5)}</span>
        <span>{summary}</span>
        <span>{days.at(-1)!.day.slice(5)}</span>
      </p>
    </div>
  );
}

export function OverviewScreen() {
  const { t, lang } = useI18n();
  const [info, setInfo] = useState<AccountInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<AccountInfo>('GET', '/account').then(setInfo, (err: unknown) => setError(errorText(t, err)));
  }, [t]);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">{t('overview.title')}</h1>
      <ErrorLine error={error} />
      {!info && !error && <p class="loading">{t('app.loading')}</p>}
      {info && (
        <div class="grid">
          <div class="card">
            <h2>{t('overview.plan')}</h2>
            <p class={`plan plan-${info.plan}`} data-testid="plan">{info.plan}</p>
            <dl class="pairs">
              <dt>{t('overview.email')}</dt>
              <dd>{info.email}</dd>
              <dt>{t('overview.accountId')}</dt>
              <dd>
                <code data-testid="account-id">{info.account_id}</code>
              </dd>
              <dt>{t('overview.since')}</dt>
              <dd>{formatDate(lang, info.created_at)}</dd>
            </dl>
            <p class="note">{t('overview.planNote')}</p>
          </div>
          <div class="card">
            <h2>{t('overview.quota')}</h2>
            <QuotaMeter quota={info.quota} />
          </div>
          <DailyUsage />
          <div class="card">
            <h2>{t('overview.features')}</h2>
            <ul class="features">
              <Feature label={t('overview.api')} on={info.features.api} detail={info.features.api ? undefined : t('overview.apiNo')} />
              <Feature label={t('overview.consoleBatch')} on={info.features.console_batch} />
              <Feature
                label={t('overview.watch')}
                on={info.features.watch}
                detail={info.features.watch_interval_hours ? t('overview.watchEvery', { h: info.features.watch_interval_hours }) : undefined}
              />
              <Feature label={t('overview.history')} on={info.features.history} />
            </ul>
          </div>
        </div>
      )}
      {info && <CloseAccount />}
    </section>
  );
}
