// 진위확인: the details a customer holds for a business (opening date, representative, name)
// checked against NTS's registration, one at a time, with the status NTS returns on a match.
// Charged as one lookup when NTS answers, like the API's POST /validate it calls.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ErrorLine, errorText } from '../components.tsx';
import { formatBizNo } from '../format.ts';
import { useI18n } from '../i18n.ts';
import { bizNoDigits, bizNoProblem, codeLabel } from '../labels.ts';
import { orderReasons } from './bulk-table.tsx';
import { BASE, linkHandler } from '../router.ts';

interface ValidateResult {
  b_no: string;
  valid: boolean;
  valid_code: '01' | '02' | null;
  valid_msg: string | null;
  biz_status: string | null;
  closed_on: string | null;
  tax_type: string | null;
  reasons: string[];
  checked_at: string | null;
  verification_id: string | null;
}

/** "1996-02-14", "19960214", "1996.2.14" → YYYYMMDD when it is plainly a date; else null. */
function dateDigits(input: string): string | null {
  const m = /^(\d{4})\D*?(\d{1,2})\D*?(\d{1,2})\D*$/.exec(input.trim());
  if (!m) return null;
  return `${m[1]}${m[2]!.padStart(2, '0')}${m[3]!.padStart(2, '0')}`;
}

function Result(props: { r: ValidateResult }) {
  const { t } = useI18n();
  const { r } = props;
  return (
    <section class="card" aria-labelledby="validate-result-title" data-testid="validate-result">
      <h2 id="validate-result-title">
        {formatBizNo(r.b_no)}{' '}
        <span class={`validation validation-${r.valid ? 'confirmed' : 'not_confirmed'}`}>{t(r.valid ? 'validate.match' : 'validate.noMatch')}</span>
      </h2>
      {!r.valid && <p>{r.valid_msg ? t('validate.ntsSays', { msg: r.valid_msg }) : t('validate.badNumber')}</p>}
      {r.valid && (
        <dl class="facts">
          <dt>{t('bulk.bizStatus')}</dt>
          <dd>
            <span class={`biz biz-${r.biz_status ?? 'unknown'}`}>{codeLabel(t, 'status', r.biz_status)}</span>
            {r.closed_on && <small> {t('watch.closedOn', { d: r.closed_on })}</small>}
          </dd>
          <dt>{t('validate.taxType')}</dt>
          <dd>{r.tax_type ?? '—'}</dd>
        </dl>
      )}
      <ul class="reasons">
        {orderReasons(r.reasons).map((x) => (
          <li key={x}>{x}</li>
        ))}
      </ul>
      {r.verification_id && (
        <a class="button secondary small" href={`${BASE}/receipt/${encodeURIComponent(r.verification_id)}`} onClick={linkHandler(`/receipt/${encodeURIComponent(r.verification_id)}`)}>
          {t('receipt.open')}
        </a>
      )}
    </section>
  );
}

export function ValidateScreen() {
  const { t } = useI18n();
  const [bno, setBno] = useState('');
  const [start, setStart] = useState('');
  const [pNm, setPNm] = useState('');
  const [bNm, setBNm] = useState('');
  const [problems, setProblems] = useState<{ bno?: string; start?: string; pNm?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ValidateResult | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const startDt = dateDigits(start);
    const found = {
      ...(bizNoProblem(t, bno) ? { bno: bizNoProblem(t, bno)! } : {}),
      ...(startDt ? {} : { start: t('validate.startBad') }),
      ...(pNm.trim() ? {} : { pNm: t('validate.pNmMissing') }),
    };
    setProblems(found);
    if (Object.keys(found).length > 0 || !startDt) return;
    setBusy(true);
    try {
      const body = { b_no: bizNoDigits(bno), start_dt: startDt, p_nm: pNm.trim(), ...(bNm.trim() ? { b_nm: bNm.trim() } : {}) };
      setResult(await api<ValidateResult>('POST', '/validate', body));
    } catch (err) {
      setResult(null);
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, label: string, value: string, set: (v: string) => void, problem: string | undefined, extra: Record<string, unknown> = {}, hint?: string) => (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={value}
        autoComplete="off"
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        onInput={(e) => {
          set(e.currentTarget.value);
          if (problem) setProblems((p) => ({ ...p, [id.replace('validate-', '')]: undefined }));
        }}
        {...extra}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <p class="error" id={`${id}-error`} role="alert" hidden={!problem}>
        {problem}
      </p>
    </div>
  );

  return (
    <section aria-labelledby="validate-title">
      <h1 id="validate-title">{t('validate.title')}</h1>
      <p class="lead">{t('validate.lead')}</p>
      <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="validate-form-title">
        <h2 id="validate-form-title">{t('validate.form')}</h2>
        <div class="fields">
          {field('validate-bno', t('watch.bizNo'), bno, setBno, problems.bno, { class: 'mono', inputMode: 'numeric', maxLength: 20, placeholder: '124-81-00998' })}
          {field('validate-start', t('validate.start'), start, setStart, problems.start, { inputMode: 'numeric', maxLength: 20, placeholder: '1996-02-14' }, t('validate.startHint'))}
          {field('validate-pNm', t('validate.pNm'), pNm, setPNm, problems.pNm, { maxLength: 100 })}
          {field('validate-bNm', t('validate.bNm'), bNm, setBNm, undefined, { maxLength: 200, autoComplete: 'organization' })}
        </div>
        <ErrorLine error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('watch.adding') : t('validate.submit')}
        </button>
      </form>
      {result && <Result r={result} />}
    </section>
  );
}
