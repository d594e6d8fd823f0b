// Small shared pieces: a modal dialog (native <dialog>: focus moves in, Esc closes, the page
// behind is inert), an error line that screen readers announce, and error wording.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from './api.ts';
import { hasMessage, type Translate } from './i18n.ts';

export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; id: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={`${props.id}-title`} onClose={props.onClose} class="dialog">
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}

export function errorText(t: Translate, err: unknown): string {
  if (!(err instanceof ApiError)) return t('error.generic');
  if (err.code === 'network') return t('error.network');
  const key = `error.${err.code}`;
  let text = hasMessage(key) ? t(key) : err.detail || t('error.generic');
  // the server's detail says what to fix (file errors, quota numbers): keep it next to our words
  if (hasMessage(key) && err.detail && (err.code === 'quota_exceeded' || err.code === 'payload_too_large' || err.code === 'conflict')) text += ` (${err.detail})`;
  if (err.retryAfter) text += ` ${t('error.retryAfter', { s: err.retryAfter })}`;
  return text;
}

export function ErrorLine(props: { error: string | null }) {
  return (
    <p class="error" role="alert" hidden={!props.error}>
      {props.error}
    </p>
  );
}
