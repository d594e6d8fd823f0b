// A file of mailing outcomes (a returned-mail list as the post office or the mailroom keeps it,
// or a job's own results download with a column filled in) → label items. The business number
// column is found as in customer lists; beside it, the job's row_id when the file has it (our
// download does), an outcome column and a 반송 사유 column, each under the labels offices use.
import type { LabelItem } from '../../domain/label.ts';
import { bouncedOf } from '../../domain/return-reason.ts';
import { foldLabel } from './columns.ts';
import type { OpenedRows } from './read-rows.ts';

export const ROW_ID_LABELS = ['row_id', 'rowid', '행번호', '행id'] as const;
export const OUTCOME_LABELS = ['bounced', 'outcome', '반송여부', '반송유무', '반송', '배달결과', '배송결과', '배달여부', '결과'] as const;
export const REASON_LABELS = ['reason', 'return_reason', '반송사유', '반송이유', '반송내용', '사유'] as const;

/** The header among `headers` whose folded text is the most preferred of `labels`, if any. */
function columnOf(headers: readonly string[], labels: readonly string[]): string | null {
  const folded = headers.map(foldLabel);
  for (const l of labels) {
    const i = folded.indexOf(foldLabel(l));
    if (i >= 0) return headers[i]!;
  }
  return null;
}

/** A row number as a sheet shows it: digits, with thousands separators when its format has them ("1,234"). */
function positiveInt(s: string): number | null {
  const digits = s.replace(/^(\d{1,3})((?:,\d{3})+)$/, (_, head: string, rest: string) => head + rest.replaceAll(',', ''));
  return /^\d{1,10}$/.test(digits) && Number(digits) >= 1 && Number(digits) <= 2_147_483_647 ? Number(digits) : null;
}

export interface LabelFile {
  items: LabelItem[];
  /** the headers read for each role, null when the file has none */
  columns: { bno: string; rowId: string | null; outcome: string | null; reason: string | null };
}

/** Reads every row of an opened file into items (the reader's row limit bounds them). */
export async function readLabelFile(opened: OpenedRows): Promise<LabelFile> {
  const headers = opened.headers;
  const columns = { bno: opened.chosen.bno, rowId: columnOf(headers, ROW_ID_LABELS), outcome: columnOf(headers, OUTCOME_LABELS), reason: columnOf(headers, REASON_LABELS) };
  const items: LabelItem[] = [];
  for await (const row of opened.rows) {
    const cell = (h: string | null) => (h === null ? undefined : row.cells[h]);
    const raw = row.bnoRaw.trim();
    const reason = cell(columns.reason)?.trim() || null;
    const written = cell(columns.rowId)?.trim() ?? '';
    const rowId = positiveInt(written);
    items.push({ at: row.rowId, rowId, ...(rowId === null && written !== '' ? { rowIdWritten: written } : {}), bno: row.bno ?? (raw === '' ? null : raw), bounced: bouncedOf(cell(columns.outcome)), reason });
  }
  return { items, columns };
}
