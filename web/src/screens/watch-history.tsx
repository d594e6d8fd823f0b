// One watched business: where it stands now, and its history as a timeline, oldest first — the
// first answered check marked as the start of watching, every later entry saying what changed
// from what (previous_attributes) to what.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useAccount } from '../account.ts';
import { api, type WatchHistory, type WatchHistoryEntry, type WatchRecord } from '../api.ts';
import { ErrorLine, errorText, PlanNeeded, requiredPlanOf } from '../components.tsx';
import { formatBizNo, formatDate, formatPercent } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { codeLabel } from '../labels.ts';
import { BASE, linkHandler } from '../router.ts';
import { GradeBadge } from './bulk-table.tsx';

function StateLine(props: { state: WatchHistoryEntry | WatchRecord }) {
  const { t, lang } = useI18n();
  const s = props.state;
  return (
    <p class="state-line">
      <span class={`biz biz-${s.biz_status}`}>{codeLabel(t, 'status', s.biz_status)}</span>
      <GradeBadge grade={s.grade} />
      {typeof s.bounce_prob === 'number' && (
        <span>
          {t('bulk.prob')} {formatPercent(lang, s.bounce_prob)}
        </span>
      )}
      {s.action && <span>{codeLabel(t, 'action', s.action)}</span>}
      {s.closed_on && <span>{t('watch.closedOn', { d: s.closed_on })}</span>}
    </p>
  );
}

function Change(props: { label: string; from: ComponentChildren; to: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <li class="change">
      <span class="change-label">{props.label}</span> <span class="from">{props.from}</span>
      <span class="arrow" aria-hidden="true">
        {' → '}
      </span>
      <span class="visually-hidden"> {t('history.change')}: </span>
      <span class="to">{props.to}</span>
    </li>
  );
}

function Entry(props: { entry: WatchHistoryEntry; first: boolean }) {
  const { t, lang } = useI18n();
  const { entry } = props;
  const prev = entry.previous_attributes ?? {};
  const statusChanged = 'biz_status' in prev && prev.biz_status !== undefined;
  const gradeChanged = 'grade' in prev;
  return (
    <li class={`entry${props.first ? ' start' : ''}`} data-testid="history-entry">
      <span class="dot" aria-hidden="true" />
      <div class="entry-body">
        <p class="entry-head">
          <time dateTime={entry.checked_at}>{formatDate(lang, entry.checked_at)}</time>
          <span class={`tag ${props.first ? 'tag-start' : 'tag-change'}`}>{props.first ? t('history.start') : t('history.change')}</span>
        </p>
        {!props.first && (statusChanged || gradeChanged) && (
          <ul class="changes">
            {statusChanged && <Change label={t('history.status')} from={codeLabel(t, 'status', prev.biz_status)} to={codeLabel(t, 'status', entry.biz_status)} />}
            {gradeChanged && <Change label={t('history.grade')} from={<GradeBadge grade={prev.grade} />} to={<GradeBadge grade={entry.grade} />} />}
          </ul>
        )}
        <StateLine state={entry} />
        {entry.verification_id && (
          <a class="receipt-link" href={`${BASE}/receipt/${encodeURIComponent(entry.verification_id)}`} onClick={linkHandler(`/receipt/${encodeURIComponent(entry.verification_id)}`)}>
            {t('receipt.open')}
          </a>
        )}
      </div>
    </li>
  );
}

export function WatchHistoryScreen(props: { watchId: string }) {
  const { t, lang } = useI18n();
  const { account } = useAccount();
  const [watch, setWatch] = useState<WatchRecord | null>(null);
  const [history, setHistory] = useState<WatchHistory | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [forbidden, setForbidden] = useState<string | null>(null);

  useEffect(() => {
    const id = encodeURIComponent(props.watchId);
    const fail = (err: unknown) => {
      const required = requiredPlanOf(err);
      if (required) setForbidden(required);
      else setError(errorText(t, err));
    };
    api<WatchRecord>('GET', `/watch/${id}`).then(setWatch, fail);
    api<WatchHistory>('GET', `/watch/${id}/history`).then(setHistory, fail);
  }, [props.watchId]);

  const bno = formatBizNo(watch?.biz_no ?? history?.biz_no ?? '');
  const entries = history?.history ?? [];
  return (
    <section aria-labelledby="history-title">
      <p>
        <a href={`${BASE}/watch`} onClick={linkHandler('/watch')}>
          {t('watch.back')}
        </a>
      </p>
      <h1 id="history-title">{bno ? t('history.title', { bno }) : t('watch.history')}</h1>
      {forbidden ? (
        <PlanNeeded text="plan.neededWatch" plan={account?.plan ?? ''} required={forbidden} />
      ) : (
        <>
          <ErrorLine error={error} />
          {watch && (
            <div class="card now">
              <h2>
                {t('history.now')}
                {watch.name ? ` · ${watch.name}` : ''}
              </h2>
              {watch.address && <p class="muted">{watch.address}</p>}
              <StateLine state={watch} />
              {!watch.name && <p class="hint">{t('history.noGrade')}</p>}
              <p class="muted">
                {t('watch.lastCheck')}: {watch.last_checked_at ? formatDate(lang, watch.last_checked_at) : t('watch.notChecked')} · {t('watch.nextCheck')}:{' '}
                {formatDate(lang, watch.next_check_at)}
              </p>
            </div>
          )}
          <section class="card" aria-labelledby="timeline-title">
            <h2 id="timeline-title">{t('watch.history')}</h2>
            <p class="lead">{t('history.lead')}</p>
            {!history && !error && <p class="loading">{t('app.loading')}</p>}
            {history && entries.length === 0 && <p class="muted">{t('history.none')}</p>}
            {entries.length > 0 && (
              <ol class="timeline" data-testid="timeline">
                {entries.map((e, i) => (
                  <Entry key={`${e.checked_at}-${i}`} entry={e} first={i === 0} />
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </section>
  );
}
