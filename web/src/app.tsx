// The console shell: who is signed in, the language, the navigation, and which screen shows.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, setCsrfToken, whenSignedOut, type SessionInfo } from './api.ts';
import { I18nContext, initialLang, saveLang, translator, useI18n, type Lang, type MessageKey } from './i18n.ts';
import { BASE, linkHandler, navigate, usePath } from './router.ts';
import { AuthScreen } from './screens/auth.tsx';
import { BulkScreen } from './screens/bulk.tsx';
import { KeysScreen } from './screens/keys.tsx';
import { OverviewScreen } from './screens/overview.tsx';
import { ValidateScreen } from './screens/validate.tsx';
import { ReceiptScreen } from './screens/receipt.tsx';
import { WatchHistoryScreen } from './screens/watch-history.tsx';
import { WatchScreen } from './screens/watch.tsx';
import { WebhookScreen } from './screens/webhook.tsx';

/** The screens, in menu order. */
const SCREENS: { path: string; label: MessageKey; match: (p: string) => boolean }[] = [
  { path: '/', label: 'nav.overview', match: (p) => p === '/' },
  { path: '/keys', label: 'nav.keys', match: (p) => p === '/keys' },
  { path: '/bulk', label: 'nav.bulk', match: (p) => p === '/bulk' || p.startsWith('/bulk/') },
  { path: '/validate', label: 'nav.validate', match: (p) => p === '/validate' },
  { path: '/watch', label: 'nav.watch', match: (p) => p === '/watch' || p.startsWith('/watch/') },
  { path: '/webhook', label: 'nav.webhook', match: (p) => p === '/webhook' },
];

function LangSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <div class="lang" role="group" aria-label={t('app.lang')}>
      {(['ko', 'en'] as const).map((l) => (
        <button type="button" key={l} aria-pressed={lang === l} onClick={() => setLang(l)} lang={l}>
          {l === 'ko' ? '한국어' : 'English'}
        </button>
      ))}
    </div>
  );
}

function Shell(props: { session: SessionInfo; onSignOut: () => void }) {
  const { t } = useI18n();
  const path = usePath();
  const screen = SCREENS.find((s) => s.match(path));
  useEffect(() => {
    const label = screen ? t(screen.label) : path.startsWith('/receipt/') ? t('receipt.title') : t('nav.notFound');
    document.title = `${label} · ${t('app.title')}`;
  }, [screen, path, t]);
  let body;
  if (path === '/') body = <OverviewScreen />;
  else if (path === '/keys') body = <KeysScreen />;
  else if (path === '/bulk' || path.startsWith('/bulk/')) body = <BulkScreen jobId={path.startsWith('/bulk/') ? decodeURIComponent(path.slice(6)) : null} />;
  else if (path === '/validate') body = <ValidateScreen />;
  else if (path.startsWith('/receipt/')) body = <ReceiptScreen id={decodeURIComponent(path.slice(9))} />;
  else if (path === '/watch') body = <WatchScreen />;
  else if (path.startsWith('/watch/')) body = <WatchHistoryScreen watchId={decodeURIComponent(path.slice(7))} />;
  else if (path === '/webhook') body = <WebhookScreen />;
  else body = <p>{t('nav.notFound')}</p>;
  return (
    <>
      <a class="skip" href="#main">{t('app.skip')}</a>
      <header class="top">
        <a class="brand" href={`${BASE}/`} onClick={linkHandler('/')}>
          bizcheck <span>{t('app.title').replace('bizcheck ', '')}</span>
        </a>
        <div class="top-right">
          <span class="who" title={props.session.account.email}>{props.session.account.email}</span>
          <LangSwitch />
          <button type="button" class="secondary" onClick={props.onSignOut}>{t('app.signOut')}</button>
        </div>
      </header>
      <nav class="tabs" aria-label={t('app.nav')}>
        {SCREENS.map((s) => (
          <a key={s.path} href={BASE + s.path} aria-current={s.match(path) ? 'page' : undefined} onClick={linkHandler(s.path)}>
            {t(s.label)}
          </a>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>{body}</main>
    </>
  );
}

export function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const i18n = useMemo(() => ({ lang, t: translator(lang), setLang: (l: Lang) => { saveLang(l); setLangState(l); } }), [lang]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  const signedIn = useCallback((s: SessionInfo | null) => {
    setCsrfToken(s?.csrf_token ?? null);
    setSession(s);
  }, []);

  useEffect(() => {
    whenSignedOut(() => signedIn(null));
    api<SessionInfo>('GET', '/session').then(signedIn, () => signedIn(null));
  }, [signedIn]);

  const signOut = async () => {
    try {
      await api('DELETE', '/session');
    } finally {
      signedIn(null);
      navigate('/');
    }
  };

  let content;
  if (session === undefined) content = <p class="loading" aria-live="polite">{i18n.t('app.loading')}</p>;
  else if (session === null) content = <AuthScreen onSignedIn={signedIn} langSwitch={<LangSwitch />} />;
  else content = <Shell session={session} onSignOut={() => void signOut()} />;
  return <I18nContext.Provider value={i18n}>{content}</I18nContext.Provider>;
}
