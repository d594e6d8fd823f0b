// The API keys screen: issue (the full key shown once), list by prefix, revoke with confirmation.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type AccountInfo, type KeyInfo } from '../api.ts';
import { ConfirmDialog, Dialog, ErrorLine, errorText } from '../components.tsx';
import { formatDate } from '../format.ts';
import { useI18n } from '../i18n.ts';

function NewKeyDialog(props: { fullKey: string | null; onClose: () => void }) {
  const { t } = useI18n();
  const [copy, setCopy] = useState<'idle' | 'done' | 'failed'>('idle');
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => setCopy('idle'), [props.fullKey]);
  const doCopy = async () => {
    try {
      await navigator.clipboard.writeText(props.fullKey ?? '');
      setCopy('done');
    } catch {
      input.current?.select();
      setCopy('failed');
    }
  };
  return (
    <Dialog id="new-key" open={props.fullKey !== null} title={t('keys.newTitle')} onClose={props.onClose}>
      <p class="warning" role="note">
        <strong>⚠ {t('keys.onceWarning')}</strong>
      </p>
      <p class="note">{t('keys.serverOnly')}</p>
      <label for="full-key">{t('keys.fullKey')}</label>
      <div class="copy-row">
        <textarea id="full-key" ref={input} class="mono key-box" rows={2} readOnly value={props.fullKey ?? ''} onFocus={(e) => e.currentTarget.select()} spellcheck={false} autoComplete="off" />
        <button type="button" class="secondary" onClick={() => void doCopy()}>
          {t('keys.copy')}
        </button>
      </div>
      <p class="hint" aria-live="polite">
        {copy === 'done' ? t('keys.copied') : copy === 'failed' ? t('keys.copyFailed') : ''}
      </p>
      <div class="actions">
        <button type="button" class="primary" onClick={props.onClose}>
          {t('keys.done')}
        </button>
      </div>
    </Dialog>
  );
}

export function KeysScreen() {
  const { t, lang } = useI18n();
  const [keys, setKeys] = useState<KeyInfo[] | null>(null);
  const [account, setAccount] = useState<AccountInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the full key of the key just issued: lives only in this state, and only until the dialog closes
  const [fullKey, setFullKey] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  const load = async () => {
    try {
      setKeys((await api<{ keys: KeyInfo[] }>('GET', '/keys')).keys);
    } catch (err) {
      setError(errorText(t, err));
    }
  };
  useEffect(() => {
    void load();
    api<AccountInfo>('GET', '/account').then(setAccount, () => {});
  }, []);

  const issue = async () => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const created = await api<KeyInfo & { key: string }>('POST', '/keys');
      setFullKey(created.key);
      await load();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (prefix: string) => {
    try {
      await api('DELETE', `/keys/${encodeURIComponent(prefix)}`);
      setNotice(t('keys.revoked', { prefix }));
      await load();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setRevoking(null);
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">{t('keys.title')}</h1>
      <p class="lead">{t('keys.lead')}</p>
      {account && !account.features.api && <p class="note">{t('keys.planNote', { plan: account.plan })}</p>}
      <p>
        <button type="button" class="primary" onClick={() => void issue()} disabled={busy}>
          {busy ? t('keys.issuing') : t('keys.issue')}
        </button>
      </p>
      <ErrorLine error={error} />
      <p class="ok" role="status">
        {notice}
      </p>
      {keys === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : keys.length === 0 ? (
        <p class="muted">{t('keys.none')}</p>
      ) : (
        <div class="table-wrap">
          <table class="keys responsive">
            <thead>
              <tr>
                <th scope="col">{t('keys.prefix')}</th>
                <th scope="col">{t('keys.created')}</th>
                <th scope="col">{t('keys.lastUsed')}</th>
                <th scope="col">{t('keys.status')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('keys.revoke')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.prefix} class={k.revoked_at ? 'revoked' : ''} data-prefix={k.prefix}>
                  <td data-label={t('keys.prefix')}>
                    <span class="mono prefix">{k.prefix}…</span>
                  </td>
                  <td data-label={t('keys.created')}>{formatDate(lang, k.created_at)}</td>
                  <td data-label={t('keys.lastUsed')}>{k.last_used_at ? formatDate(lang, k.last_used_at) : t('keys.never')}</td>
                  <td data-label={t('keys.status')}>{k.revoked_at ? t('keys.revokedAt', { at: formatDate(lang, k.revoked_at) }) : t('keys.active')}</td>
                  <td>
                    {!k.revoked_at && (
                      <button type="button" class="danger small" onClick={() => setRevoking(k.prefix)} aria-label={`${t('keys.revoke')} ${k.prefix}`}>
                        {t('keys.revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NewKeyDialog fullKey={fullKey} onClose={() => setFullKey(null)} />
      <ConfirmDialog
        id="revoke-key"
        open={revoking !== null}
        title={t('keys.revokeTitle')}
        body={t('keys.revokeBody', { prefix: revoking ?? '' })}
        confirm={t('keys.confirmRevoke')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoke(revoking ?? '')}
      />
    </section>
  );
}
