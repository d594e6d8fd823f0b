// Bulk verification: drop a file, watch the job's progress bar (polled once a second, as the
// API recommends), read the preview, download everything, and find past jobs.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAccount } from '../account.ts';
import { api, API_BASE, type AccountInfo, type FileInspection, type JobListItem, type JobStatus } from '../api.ts';
import { ConfirmDialog, ErrorLine, errorText } from '../components.tsx';
import { formatBytes, formatDate, formatNumber, formatPercent } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { BASE, linkHandler, navigate } from '../router.ts';
import { PreviewTable } from './bulk-table.tsx';
import { codeLabel } from '../labels.ts';

const POLL_MS = 1000;
const PREVIEW_ROWS = 20;
const PAGE = 10;

/** The columns an upload will read: the sheet and header names ('' = none chosen). */
interface Mapping {
  sheet: string | null;
  bno: string;
  name: string;
  address: string;
}

const UNCERTAIN = new Set(['no_address_column', 'no_name_column', 'sheet_chosen']);
const MAP_PREVIEW_ROWS = 5;

/** The file's first rows with the chosen columns marked, and the choices: shown when detection failed or is uncertain. */
function MappingStep(props: { seen: FileInspection; unknown: boolean; mapping: Mapping; onChange: (m: Mapping) => void; onSheet: (sheet: string) => void }) {
  const { t } = useI18n();
  const { seen, mapping } = props;
  const role = (h: string) => (h === mapping.bno ? t('bulk.mapNumber') : h === mapping.name ? t('bulk.mapName') : h === mapping.address ? t('bulk.mapAddress') : null);
  const select = (label: string, value: string, key: 'bno' | 'name' | 'address', optional: boolean) => (
    <label class="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => props.onChange({ ...mapping, [key]: e.currentTarget.value })} data-testid={`map-${key}`}>
        <option value="">{optional ? t('bulk.mapNone') : t('bulk.mapPick')}</option>
        {seen.headers.map((h) => (
          <option key={h} value={h}>
            {h}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <fieldset class="mapping" data-testid="mapping">
      <legend>{t('bulk.mapTitle')}</legend>
      <p class={props.unknown && !mapping.bno ? 'error' : 'muted'}>{props.unknown && !mapping.bno ? t('bulk.mapUnknown') : t('bulk.mapUncertain')}</p>
      <div class="mapping-fields">
        {seen.sheets.length > 1 && (
          <label class="field">
            <span>{t('bulk.mapSheet')}</span>
            <select value={mapping.sheet ?? ''} onChange={(e) => props.onSheet(e.currentTarget.value)} data-testid="map-sheet">
              {seen.sheets.map((sh) => (
                <option key={sh} value={sh}>
                  {sh}
                </option>
              ))}
            </select>
          </label>
        )}
        {select(t('bulk.mapNumber'), mapping.bno, 'bno', false)}
        {select(t('bulk.mapName'), mapping.name, 'name', true)}
        {select(t('bulk.mapAddress'), mapping.address, 'address', true)}
      </div>
      <div class="table-wrap">
        <table class="map-preview" aria-label={t('bulk.mapPreview', { n: Math.min(MAP_PREVIEW_ROWS, seen.rows.length) })}>
          <thead>
            <tr>
              {seen.headers.map((h) => (
                <th key={h} scope="col" class={role(h) ? 'chosen-column' : ''}>
                  {h}
                  {role(h) && <small class="column-role">{role(h)}</small>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {seen.rows.slice(0, MAP_PREVIEW_ROWS).map((r) => (
              <tr key={r.row_id}>
                {seen.headers.map((h) => (
                  <td key={h} class={role(h) ? 'chosen-column' : ''}>
                    {r.cells[h] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}

/** A fresh form for each request (a FormData is read once). */
function formOf(f: File): FormData {
  const form = new FormData();
  form.append('file', f, f.name);
  return form;
}

function UploadPanel(props: { canPay: boolean }) {
  const { t } = useI18n();
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [offline, setOffline] = useState(false);
  const [paid, setPaid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState<FileInspection | null>(null);
  const [unknown, setUnknown] = useState(false);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [showMap, setShowMap] = useState(false);
  const [inspecting, setInspecting] = useState(false);

  /** Asks the service what the upload would read (no job, nothing charged); the choices start from what it recognised. */
  const inspect = async (f: File, sheet?: string) => {
    setInspecting(true);
    setError(null);
    try {
      const found = await api<FileInspection>('POST', '/batch/inspect', formOf(f), { query: sheet ? { sheet } : {} });
      setSeen(found);
      setUnknown(found.number_column === null);
      setMapping({ sheet: found.sheet, bno: found.number_column ?? '', name: found.name_column ?? '', address: found.address_column ?? '' });
      setShowMap(found.number_column === null || found.notices.some((n) => UNCERTAIN.has(n.code)));
    } catch (err) {
      setSeen(null);
      setMapping(null);
      setError(errorText(t, err));
    } finally {
      setInspecting(false);
    }
  };

  const choose = (f: File | null) => {
    setFile(f);
    setSeen(null);
    setMapping(null);
    setShowMap(false);
    if (f) void inspect(f);
  };

  const upload = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    const query: Record<string, string> = { offline: String(offline), paid: String(paid && props.canPay) };
    // the choices the user saw (and could change) are what the job reads
    if (mapping) {
      if (mapping.sheet) query.sheet = mapping.sheet;
      if (mapping.bno) query.bno_column = mapping.bno;
      if (mapping.name) query.name_column = mapping.name;
      if (mapping.address) query.address_column = mapping.address;
    }
    try {
      const job = await api<{ job_id: string }>('POST', '/batch', formOf(file), { query });
      navigate(`/bulk/${encodeURIComponent(job.job_id)}`);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card upload" onSubmit={(e) => void upload(e)}>
      <div
        class={`dropzone${over ? ' over' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const dropped = e.dataTransfer?.files[0];
          if (dropped) choose(dropped);
        }}
      >
        <p>{t('bulk.drop')}</p>
        <input
          id="bulk-file"
          class="visually-hidden"
          type="file"
          accept=".csv,.tsv,.txt,.xlsx,.json,.ndjson,text/csv,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)}
        />
        <label for="bulk-file" class="button secondary">
          {t('bulk.choose')}
        </label>
        <p class="chosen" aria-live="polite">
          {file ? t('bulk.chosen', { name: file.name, size: formatBytes(file.size) }) : ''}
        </p>
      </div>
      {inspecting && <p class="loading">{t('bulk.inspecting')}</p>}
      {seen && mapping && !inspecting && showMap && (
        <MappingStep seen={seen} unknown={unknown} mapping={mapping} onChange={setMapping} onSheet={(sheet) => file && void inspect(file, sheet)} />
      )}
      {seen && mapping && !inspecting && !showMap && (
        <p class="detected" data-testid="detected">
          {t('bulk.mapDetected', { bno: mapping.bno, name: mapping.name ? `「${mapping.name}」` : t('bulk.mapNone'), address: mapping.address ? `「${mapping.address}」` : t('bulk.mapNone') })}{' '}
          <button type="button" class="link" onClick={() => setShowMap(true)}>
            {t('bulk.mapChange')}
          </button>
        </p>
      )}
      <label class="check">
        <input type="checkbox" checked={offline} onChange={(e) => setOffline(e.currentTarget.checked)} /> {t('bulk.offline')}
      </label>
      {props.canPay && (
        <label class="check">
          <input type="checkbox" checked={paid} onChange={(e) => setPaid(e.currentTarget.checked)} /> {t('bulk.paid')}
        </label>
      )}
      <ErrorLine error={error} />
      <button type="submit" class="primary" disabled={!file || busy || inspecting || (mapping !== null && mapping.bno === '')}>
        {busy ? t('bulk.uploading') : t('bulk.upload')}
      </button>
    </form>
  );
}

const GRADES = ['A', 'B', 'C', 'D', 'E'] as const;
const STATUSES = ['active', 'suspended', 'closed', 'converted', 'unregistered', 'invalid', 'unknown'] as const;

/**
 * A job's results at a glance: one bar split by share (grades, or statuses), each part with its
 * label and count below, the whole read out as one sentence for screen readers.
 */
function CountsBar(props: { title: string; testId: string; parts: { key: string; label: string; count: number; className: string }[] }) {
  const { lang } = useI18n();
  const total = props.parts.reduce((n, p) => n + p.count, 0);
  const shown = props.parts.filter((p) => p.count > 0);
  const summary = `${props.title}: ${shown.map((p) => `${p.label} ${formatNumber(lang, p.count)}`).join(', ')}`;
  return (
    <figure class="counts" data-testid={props.testId}>
      <figcaption>{props.title}</figcaption>
      <div class="counts-bar" role="img" aria-label={summary}>
        {shown.map((p) => (
          <span key={p.key} class={`counts-part ${p.className}`} style={{ width: `${((p.count / Math.max(total, 1)) * 100).toFixed(2)}%` }} title={`${p.label} ${formatNumber(lang, p.count)}`} />
        ))}
      </div>
      <ul class="counts-legend" aria-hidden="true">
        {shown.map((p) => (
          <li key={p.key}>
            <span class={`counts-swatch ${p.className}`} /> {p.label} <strong>{formatNumber(lang, p.count)}</strong> <span class="muted">({formatPercent(lang, p.count / Math.max(total, 1), 0)})</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

function ProgressBar(props: { job: JobStatus }) {
  const { t, lang } = useI18n();
  const { job } = props;
  const pct = formatPercent(lang, job.progress);
  return (
    <div class="progress-block">
      <div class="progress-head">
        <span id="job-progress-label">{t('bulk.progress')}</span>
        <span class={`status status-${job.status}`} data-testid="job-status">
          {t(`bulk.status.${job.status}`)}
        </span>
      </div>
      <div
        class={`progress ${job.status}`}
        role="progressbar"
        aria-labelledby="job-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(job.progress * 100)}
        aria-valuetext={pct}
        data-testid="progress"
      >
        <div class="progress-fill" style={{ width: `${(job.progress * 100).toFixed(1)}%` }} />
      </div>
      <p class="muted" aria-live="polite">
        {t('bulk.progressText', { processed: formatNumber(lang, job.processed), total: formatNumber(lang, job.total), pct })}
      </p>
    </div>
  );
}

/**
 * POST /batch/{job_id}/watch: every valid number of the finished job onto the watch list, its
 * answers as their first check (nothing more charged). Offered only on plans with a watch list.
 */
function WatchAll(props: { jobId: string }) {
  const { t, lang } = useI18n();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ created: number; existing: number; refused: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setDone(await api<{ created: number; existing: number; refused: number }>('POST', `/batch/${encodeURIComponent(props.jobId)}/watch`));
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="watch-all">
      <p class="hint">{t('bulk.watchAllHint')}</p>
      <button type="button" class="secondary" disabled={busy || done !== null} onClick={() => void run()}>
        {busy ? t('bulk.watchingAll') : t('bulk.watchAll')}
      </button>
      <ErrorLine error={error} />
      <p class="ok" role="status" data-testid="watch-all-result">
        {done && t(done.refused > 0 ? 'bulk.watchedAllFull' : 'bulk.watchedAll', { created: formatNumber(lang, done.created), existing: formatNumber(lang, done.existing), refused: formatNumber(lang, done.refused) })}
        {done && (
          <>
            {' '}
            <a href={`${BASE}/watch`} onClick={linkHandler('/watch')}>
              {t('bulk.toWatchList')}
            </a>
          </>
        )}
      </p>
    </div>
  );
}

function JobView(props: { jobId: string; onChange: () => void; onDeleted: (notice: string) => void }) {
  const { account } = useAccount();
  const [deleting, setDeleting] = useState(false);
  const { t, lang } = useI18n();
  const [job, setJob] = useState<JobStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastStatus = '';
    setJob(null);
    setError(null);
    const poll = async () => {
      try {
        const j = await api<JobStatus>('GET', `/batch/${encodeURIComponent(props.jobId)}`, undefined, { query: { preview: String(PREVIEW_ROWS) } });
        if (stopped) return;
        setJob(j);
        if (j.status !== lastStatus) onChange.current();
        lastStatus = j.status;
        if (j.status === 'done' || j.status === 'failed') return;
      } catch (err) {
        if (stopped) return;
        setError(errorText(t, err));
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.jobId]);

  const remove = async () => {
    try {
      const out = await api<{ refunded: number }>('DELETE', `/batch/${encodeURIComponent(props.jobId)}`);
      const name = job?.file.name ?? props.jobId;
      props.onDeleted(out.refunded > 0 ? t('bulk.deletedRefunded', { name, n: formatNumber(lang, out.refunded) }) : t('bulk.deleted', { name }));
      navigate('/bulk');
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <section class="card job" aria-labelledby="job-title">
      <h2 id="job-title">
        {job?.file.name ?? t('bulk.job', { id: props.jobId })}
      </h2>
      <ErrorLine error={error} />
      {job && (
        <>
          <ProgressBar job={job} />
          {job.status === 'failed' && <p class="error">{t('bulk.failed', { reason: job.failure_reason ?? '' })}</p>}
          {job.file.notices.length > 0 && (
            <ul class="file-notices" aria-label={t('bulk.notices')} data-testid="file-notices">
              {job.file.notices.map((n) => (
                <li key={n.code} data-code={n.code}>
                  {t(`notice.${n.code}`, { sheet: job.file.sheet ?? '', n: formatNumber(lang, n.count ?? 0) })}
                </li>
              ))}
            </ul>
          )}
          <p class="muted">{t('bulk.charged', { charged: formatNumber(lang, job.charged), overage: formatNumber(lang, job.overage), refunded: formatNumber(lang, job.refunded) })}</p>
          <CountsBar
            title={t('bulk.grade')}
            testId="grade-bar"
            parts={GRADES.map((g) => ({ key: g, label: g, count: job.counts.grade[g] ?? 0, className: `grade-${g}` }))}
          />
          <CountsBar
            title={t('bulk.bizStatus')}
            testId="status-bar"
            parts={STATUSES.map((s) => ({ key: s, label: codeLabel(t, 'status', s), count: job.counts.biz_status[s] ?? 0, className: `biz-${s}` }))}
          />
          {job.expired_at && (
            <p class="notice" data-testid="job-expired">
              {t('bulk.expired', { d: formatDate(lang, job.expired_at) })}
            </p>
          )}
          {job.status === 'done' && !job.expired_at && (
            <p class="downloads">
              <span>{t('bulk.download')}:</span>
              {(['csv', 'xlsx', 'json'] as const).map((f) => (
                <a key={f} class="button secondary small" href={`${API_BASE}/batch/${encodeURIComponent(job.job_id)}/results?format=${f}`} download>
                  {f.toUpperCase()}
                </a>
              ))}
            </p>
          )}
          {job.status === 'done' && !job.expired_at && account?.features.watch && <WatchAll jobId={job.job_id} />}
          {job.preview.length > 0 && <PreviewTable job={job} />}
        </>
      )}
      {!job && !error && <p class="loading">{t('app.loading')}</p>}
      <p class="job-actions">
        <a href={`${BASE}/bulk`} onClick={linkHandler('/bulk')}>
          {t('bulk.new')}
        </a>
        {job && (
          <button type="button" class="danger small" onClick={() => setDeleting(true)}>
            {t('bulk.delete')}
          </button>
        )}
      </p>
      <ConfirmDialog
        id="delete-job"
        open={deleting}
        title={t('bulk.deleteTitle')}
        body={t(job && job.status !== 'done' && job.status !== 'failed' ? 'bulk.deleteBodyRunning' : 'bulk.deleteBody', { name: job?.file.name ?? props.jobId })}
        confirm={t('bulk.deleteConfirm')}
        onCancel={() => setDeleting(false)}
        onConfirm={remove}
      />
    </section>
  );
}

function JobList(props: { refresh: number; current: string | null }) {
  const { t, lang } = useI18n();
  const [jobs, setJobs] = useState<JobListItem[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async (before: string | null) => {
    try {
      const page = await api<{ jobs: JobListItem[]; next_before: string | null }>('GET', '/batch', undefined, {
        query: before ? { limit: String(PAGE), before } : { limit: String(PAGE) },
      });
      setJobs((prev) => (before && prev ? [...prev, ...page.jobs] : page.jobs));
      setNext(page.next_before);
    } catch (err) {
      setError(errorText(t, err));
    }
  };
  useEffect(() => {
    void load(null);
  }, [props.refresh]);

  return (
    <section class="card" aria-labelledby="jobs-title">
      <h2 id="jobs-title">{t('bulk.history')}</h2>
      <ErrorLine error={error} />
      {jobs?.length === 0 && <p class="muted">{t('bulk.noJobs')}</p>}
      {jobs && jobs.length > 0 && (
        <div class="table-wrap">
          <table class="jobs responsive" data-testid="jobs">
            <thead>
              <tr>
                <th scope="col">{t('bulk.file')}</th>
                <th scope="col">{t('bulk.created')}</th>
                <th scope="col">{t('bulk.rows')}</th>
                <th scope="col">{t('keys.status')}</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((j) => (
                <tr key={j.job_id} aria-current={j.job_id === props.current ? 'true' : undefined}>
                  <td data-label={t('bulk.file')}>
                    <a href={`${BASE}/bulk/${encodeURIComponent(j.job_id)}`} onClick={linkHandler(`/bulk/${encodeURIComponent(j.job_id)}`)}>
                      {j.file_name ?? j.job_id}
                    </a>
                  </td>
                  <td data-label={t('bulk.created')}>{formatDate(lang, j.created_at)}</td>
                  <td data-label={t('bulk.rows')}>{formatNumber(lang, j.total)}</td>
                  <td data-label={t('keys.status')}>
                    {t(`bulk.status.${j.status}`)}
                    {j.status === 'processing' ? ` ${formatPercent(lang, j.progress, 0)}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button type="button" class="secondary" onClick={() => void load(next)}>
          {t('bulk.more')}
        </button>
      )}
    </section>
  );
}

export function BulkScreen(props: { jobId: string | null }) {
  const { t } = useI18n();
  const [account, setAccount] = useState<AccountInfo | null>(null);
  const [refresh, setRefresh] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    api<AccountInfo>('GET', '/account').then(setAccount, () => {});
  }, []);
  const deleted = (text: string) => {
    setNotice(text);
    setRefresh((n) => n + 1);
  };
  return (
    <section aria-labelledby="bulk-title">
      <h1 id="bulk-title">{t('bulk.title')}</h1>
      <p class="lead">{t('bulk.lead')}</p>
      <p class="ok" role="status">
        {props.jobId ? null : notice}
      </p>
      {props.jobId ? <JobView jobId={props.jobId} onChange={() => setRefresh((n) => n + 1)} onDeleted={deleted} /> : <UploadPanel canPay={account?.features.api ?? false} />}
      <JobList refresh={refresh} current={props.jobId} />
    </section>
  );
}
