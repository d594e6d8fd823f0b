export type Locale = 'ko' | 'en';

/** Korean unless the client prefers English over Korean in Accept-Language. */
export function localeFrom(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'ko';
  let best: { locale: Locale; q: number } = { locale: 'ko', q: -1 };
  for (const part of acceptLanguage.split(',').slice(0, 20)) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    const lang = tag.split('-')[0];
    if ((lang === 'en' || lang === 'ko') && q > best.q) best = { locale: lang, q };
  }
  return best.locale;
}
