// The watch list: add a business (checked at once), the list a page at a time with status,
// grade and check times, remove with confirmation; each row links to its history.
import { useEffect, useState } from 'preact/hooks';
import { useAccount } from '../account.ts';
import { api, type Page, type WatchRecord } from '../api.ts';
import { ConfirmDialog, ErrorLine, errorText, PlanNeeded, requiredPlanOf } from '../components.tsx';
import { formatBizNo, formatDate, formatNumber } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { bizNoDigits, bizNoProblem, codeLabel } from '../labels.ts';
import { BASE, linkHandler } from '../router.ts';
import { GradeBadge } from './bulk-table.tsx';

const PAGE = 20;

function AddWatchForm(props: { onAdded: (w: WatchRecord, created: boolean) => void }) {
  const { t } = useI18n();
  const [bno, setBno] = useState('');
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const digits = bizNoDigits(bno);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const problem = bizNoProblem(t, bno);
    setFieldError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const body: { biz_no: string; name?: string; address?: string } = { biz_no: digits };
      if (name.trim()) body.name = name.trim();
      if (address.trim()) body.address = address.trim();
      const res = await fetchWatch(body);
      props.onAdded(res.record, res.created);
      setBno('');
      setName('');
      setAddress('');
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card add-watch" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="add-watch-title">
      <h2 id="add-watch-title">{t('watch.add')}</h2>
      <div class="fields">
        <div class="field">
          <label for="watch-bno">{t('watch.bizNo')}</label>
          <input
            id="watch-bno"
            class="mono"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            spellcheck={false}
            maxLength={20}
            placeholder="124-81-00998"
            value={bno}
            aria-invalid={fieldError ? 'true' : undefined}
            aria-describedby="watch-bno-hint watch-bno-error"
            onInput={(e) => {
              setBno(e.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
          />
          <p class="hint" id="watch-bno-hint">
            {t('watch.bizNoHint')}
            {digits.length > 0 && digits.length !== 10 ? ` · ${t('watch.bizNoCount', { n: digits.length })}` : ''}
          </p>
          <p class="error" id="watch-bno-error" role="alert" hidden={!fieldError}>
            {fieldError}
          </p>
        </div>
        <div class="field">
          <label for="watch-name">{t('watch.name')}</label>
          <input id="watch-name" type="text" maxLength={200} autoComplete="organization" value={name} aria-describedby="watch-name-hint" onInput={(e) => setName(e.currentTarget.value)} />
          <p class="hint" id="watch-name-hint">{t('watch.nameHint')}</p>
        </div>
        <div class="field">
          <label for="watch-address">{t('watch.address')}</label>
          <input id="watch-address" type="text" maxLength={500} autoComplete="street-address" value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
        </div>
      </div>
      <ErrorLine error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? t('watch.adding') : t('watch.submit')}
      </button>
    </form>
  );
}

/** POST /watch, telling a new entry (201) from one already watched (200). */
async function fetchWatch(body: { biz_no: string; name?: string; address?: string }): Promise<{ record: WatchRecord; created: boolean }> {
  let created = true;
  const record = await api<WatchRecord>('POST', '/watch', body, { onStatus: (s) => (created = s === 201) });
  return { record, created };
}

function CheckTimes(props: { w: WatchRecord }) {
  const { t, lang } = useI18n();
  const { w } = props;
  return (
    <>
      {w.last_checked_at ? formatDate(lang, w.last_checked_at) : <span class="muted">{t('watch.notChecked')}</span>}
      {w.check_failures > 0 && <small class="warn-text">{t('watch.failures', { n: w.check_failures })}</small>}
    </>
  );
}

function WatchTable(props: { items: WatchRecord[]; onRemove: (w: WatchRecord) => void }) {
  const { t, lang } = useI18n();
  return (
    <div class="table-wrap">
      <table class="watches responsive" data-testid="watches">
        <thead>
          <tr>
            <th scope="col">{t('bulk.bno')}</th>
            <th scope="col">{t('bulk.name')}</th>
            <th scope="col">{t('bulk.bizStatus')}</th>
            <th scope="col">{t('bulk.grade')}</th>
            <th scope="col">{t('watch.lastCheck')}</th>
            <th scope="col">{t('watch.nextCheck')}</th>
            <th scope="col">
              <span class="visually-hidden">{t('watch.history')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((w) => {
            const bno = formatBizNo(w.biz_no);
            const unanswered = w.biz_status === 'unknown' && !w.last_checked_at;
            return (
              <tr key={w.watch_id} class={w.grade ? `row-grade-${w.grade}` : ''} data-watch={w.biz_no}>
                <td data-label={t('bulk.bno')} class="mono bno">
                  {bno}
                </td>
                <td data-label={t('bulk.name')}>{w.name ?? <span class="muted">—</span>}</td>
                <td data-label={t('bulk.bizStatus')}>
                  <div>
                    <span class={`biz biz-${w.biz_status}`} data-testid="watch-status">
                      {unanswered ? t('watch.notChecked') : codeLabel(t, 'status', w.biz_status)}
                    </span>
                    {w.closed_on && <small>{t('watch.closedOn', { d: w.closed_on })}</small>}
                  </div>
                </td>
                <td data-label={t('bulk.grade')} data-testid="watch-grade">
                  <GradeBadge grade={w.grade} />
                </td>
                <td data-label={t('watch.lastCheck')}>
                  <div>
                    <CheckTimes w={w} />
                  </div>
                </td>
                <td data-label={t('watch.nextCheck')}>{formatDate(lang, w.next_check_at)}</td>
                <td class="row-actions">
                  <a class="button secondary small" href={`${BASE}/watch/${encodeURIComponent(w.watch_id)}`} onClick={linkHandler(`/watch/${encodeURIComponent(w.watch_id)}`)} aria-label={t('watch.historyOf', { bno })}>
                    {t('watch.history')}
                  </a>
                  <button type="button" class="danger small" onClick={() => props.onRemove(w)} aria-label={t('watch.removeOf', { bno })}>
                    {t('watch.remove')}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** what GET /watch narrows by; blank fields do not narrow */
interface ListFilter {
  q: string;
  status: string;
}
const NO_FILTER: ListFilter = { q: '', status: '' };
const FILTER_STATUSES = ['active', 'suspended', 'closed', 'converted', 'unregistered', 'unknown'] as const;

function filterQuery(f: ListFilter): Record<string, string> {
  return { ...(f.q.trim() ? { q: f.q.trim() } : {}), ...(f.status ? { status: f.status } : {}) };
}

/** Search by number or name and narrow by status; applied on submit (and at once for the status). */
function WatchFilterForm(props: { applied: ListFilter; onApply: (f: ListFilter) => void }) {
  const { t } = useI18n();
  const [q, setQ] = useState(props.applied.q);
  const filtered = props.applied.q.trim() !== '' || props.applied.status !== '';
  return (
    <form
      class="watch-filter"
      role="search"
      aria-label={t('watch.searchLabel')}
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply({ ...props.applied, q });
      }}
    >
      <div class="field">
        <label for="watch-q">{t('watch.search')}</label>
        <input id="watch-q" type="search" maxLength={100} autoComplete="off" spellcheck={false} value={q} placeholder={t('watch.searchHint')} onInput={(e) => setQ(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="watch-status-filter">{t('watch.statusFilter')}</label>
        <select id="watch-status-filter" value={props.applied.status} onChange={(e) => props.onApply({ q, status: e.currentTarget.value })}>
          <option value="">{t('watch.allStatuses')}</option>
          {FILTER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === 'unknown' ? t('watch.notChecked') : codeLabel(t, 'status', s)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="secondary">
        {t('watch.find')}
      </button>
      {filtered && (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setQ('');
            props.onApply(NO_FILTER);
          }}
        >
          {t('watch.clearFilter')}
        </button>
      )}
    </form>
  );
}

function WatchList(props: { onForbidden: (required: string) => void }) {
  const { t, lang } = useI18n();
  const [items, setItems] = useState<WatchRecord[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [matching, setMatching] = useState<number | null>(null);
  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WatchRecord | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const load = async (cursor: string | null, f: ListFilter = filter) => {
    setLoadingMore(cursor !== null);
    try {
      const query = { limit: String(PAGE), ...filterQuery(f), ...(cursor ? { cursor } : {}) };
      const page = await api<Page<WatchRecord>>('GET', '/watch', undefined, { query });
      setItems((prev) => (cursor && prev ? [...prev, ...page.data] : page.data));
      setNext(page.next_cursor);
      setTotal(page.total ?? null);
      setMatching(page.matching ?? null);
      setError(null);
    } catch (err) {
      const required = requiredPlanOf(err);
      if (required) props.onForbidden(required);
      else setError(errorText(t, err));
    } finally {
      setLoadingMore(false);
    }
  };
  useEffect(() => {
    void load(null);
  }, []);

  const added = (w: WatchRecord, created: boolean) => {
    const bno = formatBizNo(w.biz_no);
    setError(null);
    setNotice(created ? t('watch.added', { bno, status: codeLabel(t, 'status', w.biz_status) }) : t('watch.already', { bno }));
    // the list is oldest first: a new entry belongs at its end, shown once the end is loaded
    // (and not into a filtered list, whose filter it may not pass)
    setItems((prev) => {
      if (!prev) return prev;
      if (prev.some((x) => x.watch_id === w.watch_id)) return prev.map((x) => (x.watch_id === w.watch_id ? w : x));
      return created && next === null && matching === null ? [...prev, w] : prev;
    });
  };

  const remove = async (w: WatchRecord) => {
    try {
      await api('DELETE', `/watch/${encodeURIComponent(w.watch_id)}`);
      setItems((prev) => prev?.filter((x) => x.watch_id !== w.watch_id) ?? prev);
      setNotice(t('watch.removed', { bno: formatBizNo(w.biz_no) }));
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <>
      <AddWatchForm onAdded={added} />
      <p class="ok" role="status">
        {notice}
      </p>
      <section class="card" aria-labelledby="watch-list-title">
        <h2 id="watch-list-title">
          {t('watch.list')}
          {items && (items.length > 0 || matching !== null) && (
            <small class="count" data-testid="watch-count" aria-live="polite">
              {' · '}
              {matching !== null
                ? t('watch.shownMatching', { n: formatNumber(lang, items.length), matching: formatNumber(lang, matching), total: formatNumber(lang, total ?? 0) })
                : t(total === null ? 'watch.shown' : 'watch.shownOf', { n: formatNumber(lang, items.length), total: formatNumber(lang, total ?? 0) })}
            </small>
          )}
        </h2>
        {(total ?? 0) > 0 && (
          <WatchFilterForm
            applied={filter}
            onApply={(f) => {
              setFilter(f);
              void load(null, f);
            }}
          />
        )}
        <ErrorLine error={error} />
        {items === null && !error && <p class="loading">{t('app.loading')}</p>}
        {items?.length === 0 && <p class="muted">{t(matching !== null ? 'watch.noneMatching' : 'watch.empty')}</p>}
        {items && items.length > 0 && <WatchTable items={items} onRemove={setRemoving} />}
        {next && (
          <button type="button" class="secondary" disabled={loadingMore} onClick={() => void load(next)}>
            {loadingMore ? t('app.loading') : t('common.more')}
          </button>
        )}
      </section>
      <ConfirmDialog
        id="remove-watch"
        open={removing !== null}
        title={t('watch.removeTitle')}
        body={t('watch.removeBody', { bno: removing ? `${formatBizNo(removing.biz_no)}${removing.name ? ` (${removing.name})` : ''}` : '' })}
        confirm={t('watch.confirmRemove')}
        onCancel={() => setRemoving(null)}
        onConfirm={() => (removing ? remove(removing) : Promise.resolve())}
      />
    </>
  );
}

export function WatchScreen() {
  const { t, lang } = useI18n();
  const { account, error } = useAccount();
  const [forbidden, setForbidden] = useState<string | null>(null);
  const plan = account?.plan ?? '';
  const gate = forbidden ?? (account && !account.features.watch ? 'business' : null);
  return (
    <section aria-labelledby="watch-title">
      <h1 id="watch-title">{t('watch.title')}</h1>
      <ErrorLine error={error} />
      {!account && !error && <p class="loading">{t('app.loading')}</p>}
      {account && gate && <PlanNeeded text="plan.neededWatch" plan={plan} required={gate} />}
      {account && !gate && (
        <>
          <p class="lead">
            {t('watch.lead', { h: account.features.watch_interval_hours ?? 24 })} {t('watch.limit', { n: formatNumber(lang, account.features.watch_limit) })}
          </p>
          <WatchList onForbidden={setForbidden} />
        </>
      )}
    </section>
  );
}
