// What a business name says that the registry can contradict. Korean corporations carry their
// legal form in the name (주식회사, (주), ㈜ …); an individual's registration never does.
import type { EntityKind } from './bizno.ts';

const CORPORATE_MARKERS = [
  '주식회사', '(주)', '㈜', '（주）', '유한회사', '(유)', '유한책임회사', '합자회사', '합명회사',
  '사단법인', '재단법인', '(사)', '(재)', '농업회사법인', '영농조합법인', '협동조합',
];
const CORPORATE_LATIN = /\b(co\.?,?\s*ltd\.?|inc\.?|corp\.?|corporation|limited|llc)\b/i;
const CLOSURE_HINTS = ['폐업', '청산', '휴업', '폐점', '(구)', '(舊)', '구)', '구 상호', '전 상호', '해산'];

export interface NameSignals {
  /** the name shows a corporate legal form but the number is an individual's */
  entityMismatch: boolean;
  /** the name suggests it is not current (폐업, 청산, (구) …) */
  closureHint: boolean;
}

function compact(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, '');
}

export function hasCorporateMarker(name: string): boolean {
  const c = compact(name);
  return CORPORATE_MARKERS.some((m) => c.includes(m.normalize('NFKC').replace(/\s+/g, ''))) || CORPORATE_LATIN.test(name);
}

export function nameSignals(name: string | null | undefined, kind: EntityKind): NameSignals {
  if (!name || !name.trim()) return { entityMismatch: false, closureHint: false };
  const c = compact(name);
  const corporateName = hasCorporateMarker(name);
  return {
    entityMismatch: corporateName && (kind === 'individual_taxable' || kind === 'individual_exempt'),
    closureHint: CLOSURE_HINTS.some((h) => c.includes(h.normalize('NFKC').replace(/\s+/g, ''))),
  };
}

