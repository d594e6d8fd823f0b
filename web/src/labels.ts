// Codes from the API in the interface language; an unknown code is shown as it came.
import { hasMessage, type Translate } from './i18n.ts';

export function codeLabel(t: Translate, prefix: 'status' | 'action' | 'webhook.state', code: string | null | undefined): string {
  if (!code) return '—';
  const key = `${prefix}.${code}`;
  return hasMessage(key) ? t(key) : code;
}

/** Only digits survive: "124-81-00998" and "124 81 00998" are 1248100998. */
export function bizNoDigits(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** null when the input is a 10-digit number once hyphens and spaces are gone; else what is wrong. */
export function bizNoProblem(t: Translate, input: string): string | null {
  const digits = bizNoDigits(input);
  if (!/^\d*$/.test(digits)) return t('watch.bizNoChars');
  if (digits.length !== 10) return t('watch.bizNoBad', { n: digits.length });
  return null;
}
