// Small shared pieces: a modal dialog (native <dialog>: focus moves in, Esc closes, the page
// behind is inert), an error line that screen readers announce, and error wording.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { hasMessage, useI18n, type MessageKey, type Translate } from './i18n.ts';

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
  if (hasMessage(key) && err.detail && (err.code === 'quota_exceeded' || err.code === 'payload_too_large' || err.code === 'conflict' || err.code === 'bad_request')) text += ` (${err.detail})`;
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

/** In place of a screen the plan does not include: what is needed, and who changes plans. */
export function PlanNeeded(props: { text: MessageKey; plan: string; required: string }) {
  const { t } = useI18n();
  return (
    <div class="card plan-needed" data-testid="plan-needed" role="note" aria-labelledby="plan-needed-title">
      <h2 id="plan-needed-title">{t('plan.neededTitle', { required: props.required })}</h2>
      <p>{t(props.text, { plan: props.plan, required: props.required })}</p>
      <p class="muted">{t('plan.neededHow')}</p>
    </div>
  );
}

/** A plan_forbidden answer, whatever the account said earlier (the plan may change meanwhile). */
export function requiredPlanOf(err: unknown): string | null {
  return err instanceof ApiError && err.code === 'plan_forbidden' ? (err.requiredPlan ?? 'business') : null;
}

/** A secret shown once: read-only, selected on focus, with a copy button that says how it went. */
export function CopyField(props: { id: string; label: string; value: string }) {
  const { t } = useI18n();
  const [copy, setCopy] = useState<'idle' | 'done' | 'failed'>('idle');
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => setCopy('idle'), [props.value]);
  const doCopy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopy('done');
    } catch {
      box.current?.select();
      setCopy('failed');
    }
  };
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <div class="copy-row">
        <textarea id={props.id} ref={box} class="mono key-box" rows={2} readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} spellcheck={false} autoComplete="off" />
        <button type="button" class="secondary" onClick={() => void doCopy()}>
          {t('common.copy')}
        </button>
      </div>
      <p class="hint" aria-live="polite">
        {copy === 'done' ? t('common.copied') : copy === 'failed' ? t('common.copyFailed') : ''}
      </p>
    </>
  );
}

/** "Are you sure?" for what cannot be undone; Cancel has the focus, Esc cancels. */
export function ConfirmDialog(props: { id: string; open: boolean; title: string; body: string; confirm: string; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog id={props.id} open={props.open} title={props.title} onClose={props.onCancel}>
      <p>{props.body}</p>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel} autoFocus>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void props.onConfirm().finally(() => setBusy(false));
          }}
        >
          {props.confirm}
        </button>
      </div>
    </Dialog>
  );
}
