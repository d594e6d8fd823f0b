// A number as Excel shows it under the formats office lists use: a postal code kept at five digits
// ("00000" → 06236), a business number typed as a number and shown as 000-00-00000, amounts with
// thousands separators, fixed decimals, percentages. The echo of a customer's own cells is what
// they saw; a format not handled here (dates are dates before this, fractions, scientific) is
// shown as General would, by the caller.

type Token = { kind: 'digit'; ch: '0' | '#' | '?' } | { kind: 'lit'; text: string } | { kind: 'point' } | { kind: 'comma' } | { kind: 'percent' };

/** The sections of a format (positive;negative;zero;text), split outside quotes and escapes. */
function sections(fmt: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c === '"') {
      const end = fmt.indexOf('"', i + 1);
      const stop = end < 0 ? fmt.length : end;
      cur += fmt.slice(i, stop + 1);
      i = stop;
    } else if (c === '\\') {
      cur += fmt.slice(i, i + 2);
      i++;
    } else if (c === ';') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Tokens of one section; null when it holds something this does not render (dates, E+, fractions, @). */
function tokens(section: string): Token[] | null {
  const out: Token[] = [];
  for (let i = 0; i < section.length; i++) {
    const c = section[i]!;
    if (c === '"') {
      const end = section.indexOf('"', i + 1);
      if (end < 0) return null;
      out.push({ kind: 'lit', text: section.slice(i + 1, end) });
      i = end;
    } else if (c === '\\') {
      out.push({ kind: 'lit', text: section[i + 1] ?? '' });
      i++;
    } else if (c === '[') {
      // [Red], [$₩-412]: a colour or a locale; a currency symbol in it is shown
      const end = section.indexOf(']', i);
      if (end < 0) return null;
      const currency = /^\[\$([^-\]]*)/.exec(section.slice(i, end + 1));
      if (currency?.[1]) out.push({ kind: 'lit', text: currency[1] });
      i = end;
    } else if (c === '_' || c === '*') i++; // padding to a character's width, a fill: nothing shown
    else if (c === '0' || c === '#' || c === '?') out.push({ kind: 'digit', ch: c });
    else if (c === '.') out.push({ kind: 'point' });
    else if (c === ',') out.push({ kind: 'comma' });
    else if (c === '%') out.push({ kind: 'percent' });
    else if (/[A-Za-z@/]/.test(c)) return null;
    else out.push({ kind: 'lit', text: c });
  }
  return out;
}

const group = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `n` as the format shows it, or null for a format this does not render (General included). */
export function formatNumber(n: number, fmt: string | undefined): string | null {
  if (!fmt || !Number.isFinite(n)) return null;
  const parts = sections(fmt);
  let section = parts[0]!;
  let value = n;
  let sign = n < 0 ? '-' : '';
  if (n < 0 && parts.length > 1 && parts[1] !== '') {
    section = parts[1]!;
    value = -n;
    sign = '';
  } else if (n === 0 && parts.length > 2 && parts[2] !== '') section = parts[2]!;
  if (/^\s*general\s*$/i.test(section)) return null;
  const toks = tokens(section);
  if (!toks || !toks.some((t) => t.kind === 'digit')) return null;
  value = Math.abs(value) * 100 ** toks.filter((t) => t.kind === 'percent').length;

  const point = toks.findIndex((t) => t.kind === 'point');
  const intToks = point < 0 ? toks : toks.slice(0, point);
  const fracToks = point < 0 ? [] : toks.slice(point + 1);
  const lastIntDigit = intToks.findLastIndex((t) => t.kind === 'digit');
  // a comma after the last digit placeholder scales by a thousand: not used by lists, not rendered
  if (intToks.some((t, i) => t.kind === 'comma' && i > lastIntDigit)) return null;
  const thousands = intToks.some((t) => t.kind === 'comma');
  const decimals = fracToks.filter((t) => t.kind === 'digit').length;
  const [intDigits, fracDigits = ''] = value.toFixed(decimals).split('.');

  // integer part: placeholders right to left take digits; digits left over go in front of the first
  const intSlots = intToks.filter((t) => t.kind === 'digit');
  let digits = intDigits === '0' && !intSlots.some((t) => t.kind === 'digit' && t.ch === '0') ? '' : intDigits!;
  const minimum = intSlots.filter((t) => t.kind === 'digit' && t.ch === '0').length;
  if (thousands) {
    // #,##0 and the like: the digits grouped as one run where the placeholders are
    const run = group(digits.padStart(minimum, '0'));
    let placed = false;
    digits = '';
    for (const t of intToks) {
      if (t.kind === 'lit') digits += t.text;
      else if (t.kind === 'percent') digits += '%';
      else if (t.kind === 'digit' && !placed) {
        digits += run;
        placed = true;
      }
    }
  } else {
    let rest = digits;
    const out: string[] = [];
    let firstDigitAt = -1;
    for (let i = intToks.length - 1; i >= 0; i--) {
      const t = intToks[i]!;
      if (t.kind === 'lit') out.push(t.text);
      else if (t.kind === 'percent') out.push('%');
      else if (t.kind === 'digit') {
        firstDigitAt = out.length;
        if (rest.length > 0) {
          out.push(rest.at(-1)!);
          rest = rest.slice(0, -1);
        } else out.push(t.ch === '0' ? '0' : t.ch === '?' ? ' ' : '');
      }
    }
    if (rest.length > 0) out.splice(firstDigitAt + 1, 0, rest.split('').toReversed().join(''));
    digits = out.toReversed().join('');
  }

  let frac = '';
  let di = 0;
  const fracSlots = fracToks.filter((t) => t.kind === 'digit');
  // '#' places after the last significant one are not shown
  let keep = fracDigits.length;
  while (keep > 0 && fracDigits[keep - 1] === '0' && fracSlots[keep - 1]?.kind === 'digit' && (fracSlots[keep - 1] as { ch: string }).ch === '#') keep--;
  for (const t of fracToks) {
    if (t.kind === 'lit') frac += t.text;
    else if (t.kind === 'percent') frac += '%';
    else if (t.kind === 'digit') {
      frac += di < keep ? fracDigits[di]! : t.ch === '?' ? ' ' : '';
      di++;
    }
  }
  const showPoint = fracToks.length > 0 && (keep > 0 || fracSlots.some((t) => t.kind === 'digit' && t.ch !== '#'));
  return `${sign}${digits}${showPoint ? '.' : ''}${frac}`;
}
