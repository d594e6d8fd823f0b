// Sign in, or create an account (which starts on the free plan).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, type SessionInfo } from '../api.ts';
import { ErrorLine, errorText } from '../components.tsx';
import { useI18n } from '../i18n.ts';

export function AuthScreen(props: { onSignedIn: (s: SessionInfo) => void; langSwitch: ComponentChildren }) {
  const { t } = useI18n();
  const [mode, setMode] = useState<'signin' | 'signup'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // sign-up answers alike whether or not the email had an account, and starts no session:
      // the new account is signed in to with its password, as any other
      if (mode === 'signup') await api<unknown>('POST', '/signup', { email, password });
      const s = await api<SessionInfo>('POST', '/session', { email, password });
      setPassword('');
      props.onSignedIn(s);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  const title = mode === 'signin' ? t('auth.signIn') : t('auth.signUp');

  return (
    <main id="main" class="auth">
      <div class="auth-top">{props.langSwitch}</div>
      <div class="card auth-card">
        <p class="brand big">bizcheck</p>
        <p class="muted">{t('auth.lead')}</p>
        <h1>{title}</h1>
        <form onSubmit={(e) => void submit(e)} noValidate={false}>
          <label for="email">{t('auth.email')}</label>
          <input id="email" name="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <label for="password">{t('auth.password')}</label>
          <input
            id="password"
            name="password"
            type="password"
            required
            minLength={mode === 'signup' ? 10 : 1}
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
            aria-describedby={mode === 'signup' ? 'password-hint' : undefined}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          {mode === 'signup' && (
            <p id="password-hint" class="hint">
              {t('auth.passwordHint')}
            </p>
          )}
          <ErrorLine error={error} />
          <button type="submit" class="primary wide" disabled={busy}>
            {busy ? t('auth.working') : title}
          </button>
        </form>
        {mode === 'signup' && <p class="note">{t('auth.signUpNote')}</p>}
        <p>
          <button
            type="button"
            class="link"
            onClick={() => {
              setMode(mode === 'signin' ? 'signup' : 'signin');
              setError(null);
            }}
          >
            {mode === 'signin' ? t('auth.toSignUp') : t('auth.toSignIn')}
          </button>
        </p>
      </div>
    </main>
  );
}
