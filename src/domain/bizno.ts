// Korean business registration numbers (사업자등록번호): NNN-NN-NNNNN.
// The last digit is a check digit over the first nine, weights 1,3,7,1,3,7,1,3,5,
// with the carry of the ninth product added (국세청 published rule).

const WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5] as const;

/** The strict API form: exactly ten ASCII digits. */
export function isTenDigits(value: string): boolean {
  return /^[0-9]{10}$/.test(value);
}

export function checkDigitOf(firstNine: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(firstNine[i]) * WEIGHTS[i]!;
  sum += Math.floor((Number(firstNine[8]) * 5) / 10);
  return (10 - (sum % 10)) % 10;
}

/** True when the ten-digit number carries a valid check digit and is not all zeros. */
export function hasValidCheckDigit(bno: string): boolean {
  if (!isTenDigits(bno) || /^0+$/.test(bno)) return false;
  return checkDigitOf(bno.slice(0, 9)) === Number(bno[9]);
}

/**
 * Spreadsheet cells hold numbers as "123-45-67890", " 123 45 67890", "'1234567890",
 * or as a number that lost its leading zeros. Returns the ten digits, or null.
 */
export function normaliseFromFile(raw: unknown): string | null {
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw) || raw < 0 || raw > 9_999_999_999) return null;
    return String(raw).padStart(10, '0');
  }
  if (typeof raw !== 'string') return null;
  const cleaned = raw.trim().replace(/^'/, '').replace(/[\s\-‐‑–—]/g, '');
  return isTenDigits(cleaned) ? cleaned : null;
}

export type EntityKind =
  | 'individual_taxable' // 개인 과세사업자 (01–79)
  | 'corporate_head' // 법인 본점 (81, 86, 87, 88)
  | 'corporate_branch' // 법인 지점 (85)
  | 'individual_exempt' // 개인 면세사업자 (90–99)
  | 'foreign_corporate' // 외국법인 본·지점 (84)
  | 'nonprofit' // 비영리법인·국가·지자체·종교단체 (82, 83, 89)
  | 'other'; // 80: 아파트관리사무소 등 다수인 단체 (no tax registration of its own kind)

/** The 4th–5th digits say what kind of registrant this is. */
export function entityKindOf(bno: string): EntityKind {
  const code = Number(bno.slice(3, 5));
  if (code >= 1 && code <= 79) return 'individual_taxable';
  if (code >= 90 && code <= 99) return 'individual_exempt';
  if (code === 85) return 'corporate_branch';
  if (code === 81 || code === 86 || code === 87 || code === 88) return 'corporate_head';
  if (code === 84) return 'foreign_corporate';
  if (code === 82 || code === 83 || code === 89) return 'nonprofit';
  return 'other';
}

export function isCorporate(kind: EntityKind): boolean {
  return kind === 'corporate_head' || kind === 'corporate_branch' || kind === 'foreign_corporate' || kind === 'nonprofit';
}

export function formatWithHyphens(bno: string): string {
  return `${bno.slice(0, 3)}-${bno.slice(3, 5)}-${bno.slice(5)}`;
}

/**
 * The valid numbers that differ from `bno` by two adjacent digits swapped: the typo a check digit
 * lets through. It catches every single wrong digit (each weight 1, 3, 7 is prime to 10, and the
 * ninth digit's weight 5 with its carry gives each digit its own residue), so a number a customer
 * mistyped that still passes is most often a transposition of two digits five apart. Usually none
 * or one; in number order.
 */
export function transposedNeighbours(bno: string): string[] {
  if (!hasValidCheckDigit(bno)) return [];
  const out = new Set<string>();
  for (let i = 0; i < 9; i++) {
    if (bno[i] === bno[i + 1]) continue;
    const swapped = bno.slice(0, i) + bno[i + 1]! + bno[i]! + bno.slice(i + 2);
    if (hasValidCheckDigit(swapped)) out.add(swapped);
  }
  return [...out].toSorted();
}
