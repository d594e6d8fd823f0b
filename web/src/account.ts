// The signed-in account as the screens that depend on its plan read it.
import { useEffect, useState } from 'preact/hooks';
import { api, type AccountInfo } from './api.ts';
import { errorText } from './components.tsx';
import { useI18n } from './i18n.ts';

export interface AccountState {
  account: AccountInfo | null;
  error: string | null;
}

export function useAccount(): AccountState {
  const { t } = useI18n();
  const [state, setState] = useState<AccountState>({ account: null, error: null });
  useEffect(() => {
    api<AccountInfo>('GET', '/account').then(
      (account) => setState({ account, error: null }),
      (err: unknown) => setState({ account: null, error: errorText(t, err) }),
    );
  }, []);
  return state;
}
