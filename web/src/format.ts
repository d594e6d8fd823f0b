// Dates and numbers in the interface language; times in Korea's zone, where quotas reset.
import type { Lang } from './i18n.ts';

const locale = (lang: Lang) => (lang === 'ko' ? 'ko-KR' : 'en-GB');

export function formatDate(lang: Lang, iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${new Intl.DateTimeFormat(locale(lang), { timeZone: 'Asia/Seoul', dateStyle: 'medium', timeStyle: 'short' }).format(d)} KST`;
}

export function formatNumber(lang: Lang, n: number): string {
  return new Intl.NumberFormat(locale(lang)).format(n);
}

export function formatPercent(lang: Lang, fraction: number, digits = 1): string {
  return new Intl.NumberFormat(locale(lang), { style: 'percent', maximumFractionDigits: digits, minimumFractionDigits: digits }).format(fraction);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 ** 2).toFixed(1)} MB`;
}

/** 1248100998 → 124-81-00998, the way the number is printed on a registration certificate. */
export function formatBizNo(bno: string): string {
  return /^\d{10}$/.test(bno) ? `${bno.slice(0, 3)}-${bno.slice(3, 5)}-${bno.slice(5)}` : bno;
}
