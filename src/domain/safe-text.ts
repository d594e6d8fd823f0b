// Text the service stores and echoes holds no control characters and no lone UTF-16 surrogates.
// PostgreSQL refuses NUL in text and jsonb (so a NUL reaching SQL is a failed statement, or a
// failed batch job), the embedded store cuts a string at it, and control characters in a
// customer's cells end up in their downloads. One rule for both stores, applied where text comes
// in: API input carrying them is refused (400), file cells are cleaned (a spreadsheet holds stray
// line breaks and tabs as a matter of course).

// C0 (NUL..US, with TAB, LF, CR), DEL and C1, then surrogates that are not part of a pair:
// matching control characters is this pattern's purpose
// oxlint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
const BREAKS = /[\t\n\r]/g;
// any control character or any surrogate, paired or not: a plain character class, many times
// cheaper than UNSAFE's lookarounds in /u mode, which only text it finds needs (every file cell
// is checked, and almost none has any)
// oxlint-disable-next-line no-control-regex
const SUSPECT = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/;

export function hasUnsafeChars(text: string): boolean {
  return SUSPECT.test(text) && UNSAFE.test(text);
}

/**
 * A file cell as stored: tabs and line breaks (Alt+Enter in Excel) become spaces, other control
 * characters are dropped, a lone surrogate becomes U+FFFD.
 */
export function cleanText(text: string): string {
  if (!hasUnsafeChars(text)) return text;
  return text.replace(BREAKS, ' ').replace(UNSAFE_ALL, (c) => (c.length === 1 && c.charCodeAt(0) >= 0xd800 ? '\ufffd' : ''));
}
