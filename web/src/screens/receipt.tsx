// A printable receipt of a check: what NTS answered about a number and when, as the service kept
// it, with the signature and where the key to check it is published. For an auditor's file.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ErrorLine, errorText } from '../components.tsx';
import { formatBizNo, formatDate } from '../format.ts';
import { useI18n } from '../i18n.ts';

interface ReceiptBody {
  verification_id: string;
  b_no: string;
  api: string;
  source: string;
  checked_at: string;
  record: Record<string, unknown>;
  record_sha256: string;
  recorded_at: string;
  payload: string;
  signature: { alg: string; kid: string; signature: string };
  verify_with: string;
}

export function ReceiptScreen(props: { id: string }) {
  const { t, lang } = useI18n();
  const [receipt, setReceipt] = useState<ReceiptBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<ReceiptBody>('GET', `/verifications/${encodeURIComponent(props.id)}`).then(setReceipt, (err: unknown) => setError(errorText(t, err)));
  }, [props.id]);
  return (
    <section aria-labelledby="receipt-title" class="receipt">
      <h1 id="receipt-title">{t('receipt.title')}</h1>
      <ErrorLine error={error} />
      {!receipt && !error && <p class="loading">{t('app.loading')}</p>}
      {receipt && (
        <div class="card" data-testid="receipt">
          <dl class="facts">
            <dt>{t('receipt.number')}</dt>
            <dd class="mono bno">{formatBizNo(receipt.b_no)}</dd>
            <dt>{t('receipt.api')}</dt>
            <dd>{t(receipt.api === 'validate' ? 'receipt.apiValidate' : 'receipt.apiStatus')}</dd>
            <dt>{t('receipt.answeredAt')}</dt>
            <dd>{formatDate(lang, receipt.checked_at)}</dd>
            <dt>{t('receipt.source')}</dt>
            <dd>{receipt.source === 'nts' ? t('receipt.sourceNts') : t('receipt.sourceSandbox')}</dd>
            <dt>{t('receipt.id')}</dt>
            <dd class="mono">{receipt.verification_id}</dd>
          </dl>
          <h2>{t('receipt.record')}</h2>
          <pre class="mono record">{JSON.stringify(receipt.record, null, 2)}</pre>
          <h2>{t('receipt.signature')}</h2>
          <dl class="facts">
            <dt>SHA-256</dt>
            <dd class="mono wrap">{receipt.record_sha256}</dd>
            <dt>{receipt.signature.alg}</dt>
            <dd class="mono wrap">{receipt.signature.signature}</dd>
            <dt>{t('receipt.key')}</dt>
            <dd class="mono">
              {receipt.signature.kid} · {location.origin}
              {receipt.verify_with}
            </dd>
          </dl>
          <p class="hint">{t('receipt.howToCheck')}</p>
          <button type="button" class="secondary no-print" onClick={() => print()}>
            {t('receipt.print')}
          </button>
        </div>
      )}
    </section>
  );
}
