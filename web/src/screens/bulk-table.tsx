// The preview of a job's results: grade colours (with the letter, never colour alone) and the
// reasons, strongest first.
import type { JobStatus, RowValidation, VerificationResult } from '../api.ts';
import { formatBizNo, formatPercent } from '../format.ts';
import { hasMessage, useI18n } from '../i18n.ts';

const REASON = /^\[(\S+) ([+-]\d+(?:\.\d+)?)\]/;

const weight = (r: string) => Math.abs(Number(REASON.exec(r)?.[2] ?? 0));
// the model's baseline is in every row: it explains nothing about this one, so it goes last
const isBaseline = (r: string) => REASON.exec(r)?.[1] === 'baseline';

/** Strongest contributions first: the ones that explain the grade; the baseline last. */
export function orderReasons(reasons: readonly string[]): string[] {
  return reasons.toSorted((a, b) => Number(isBaseline(a)) - Number(isBaseline(b)) || weight(b) - weight(a));
}

export function GradeBadge(props: { grade: string | null | undefined }) {
  const g = props.grade && /^[A-E]$/.test(props.grade) ? props.grade : null;
  return <span class={`grade ${g ? `grade-${g}` : 'grade-none'}`}>{g ?? '—'}</span>;
}

function Reasons(props: { reasons: readonly string[] | undefined }) {
  const all = orderReasons(props.reasons ?? []);
  if (all.length === 0) return <span class="muted">—</span>;
  const [first, rest] = [all.slice(0, 2), all.slice(2)];
  return (
    <div class="reasons">
      <ul>
        {first.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      {rest.length > 0 && (
        <details>
          <summary>+{rest.length}</summary>
          <ul>
            {rest.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** A row's 진위확인: confirmed, not, or why nothing is known; the NTS text beneath. */
function ValidationCell(props: { v: RowValidation | null | undefined }) {
  const { t } = useI18n();
  const { v } = props;
  if (!v) return <span class="muted">{t('bulk.validationNone')}</span>;
  return (
    <div>
      <span class={`validation validation-${v.status}`}>{t(`validation.${v.status}`)}</span>
      {v.valid_msg && <small>{v.valid_msg}</small>}
    </div>
  );
}

export function PreviewTable(props: { job: JobStatus }) {
  const { t, lang } = useI18n();
  const { job } = props;
  const label = (prefix: 'status' | 'action', code: string | null | undefined) => {
    if (!code) return '—';
    const key = `${prefix}.${code}`;
    return hasMessage(key) ? t(key) : code;
  };
  return (
    <div class="table-wrap">
      <table class="preview responsive" data-testid="preview">
        <caption>{t('bulk.preview', { n: job.preview.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('bulk.row')}</th>
            <th scope="col">{t('bulk.bno')}</th>
            <th scope="col">{t('bulk.name')}</th>
            <th scope="col">{t('bulk.bizStatus')}</th>
            <th scope="col">{t('bulk.grade')}</th>
            <th scope="col">{t('bulk.action')}</th>
            <th scope="col">{t('bulk.prob')}</th>
            <th scope="col">{t('bulk.reasons')}</th>
            {job.file.validates && <th scope="col">{t('bulk.validation')}</th>}
          </tr>
        </thead>
        <tbody>
          {job.preview.map((row) => {
            const r: VerificationResult | null = row.result;
            return (
              <tr key={row.row_id} class={r?.grade ? `row-grade-${r.grade}` : ''}>
                <td data-label={t('bulk.row')}>{row.row_id}</td>
                <td data-label={t('bulk.bno')} class="mono bno">
                  {r?.b_no ? formatBizNo(r.b_no) : (row.input[job.file.number_column] ?? '')}
                </td>
                <td data-label={t('bulk.name')}>{job.file.name_column ? (row.input[job.file.name_column] ?? '') : '—'}</td>
                <td data-label={t('bulk.bizStatus')}>{r ? label('status', r.biz_status) : t('bulk.pending')}</td>
                <td data-label={t('bulk.grade')}>
                  <GradeBadge grade={r?.grade} />
                </td>
                <td data-label={t('bulk.action')}>{label('action', r?.action)}</td>
                <td data-label={t('bulk.prob')}>{typeof r?.bounce_prob === 'number' ? formatPercent(lang, r.bounce_prob) : '—'}</td>
                <td data-label={t('bulk.reasons')}>
                  <Reasons reasons={r?.reasons} />
                </td>
                {job.file.validates && (
                  <td data-label={t('bulk.validation')} data-testid="row-validation">
                    <ValidationCell v={r?.validation} />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
