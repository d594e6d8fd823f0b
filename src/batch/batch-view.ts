// How batch jobs and rows look from outside: the JSON of the API and the columns of downloads.
import { Type, type Static } from 'typebox';
import { type BatchJob, type BatchRow, DAILY_LIMIT_REASON, JOB_STATUSES } from '../domain/batch.ts';
import { progressOf } from '../domain/job-progress.ts';
import type { RowValidation } from '../domain/validation.ts';

const Nullable = (t: Parameters<typeof Type.Union>[0][number]) => Type.Union([t, Type.Null()]);
export const NOTICE_CODES = ['sheet_chosen', 'no_address_column', 'no_name_column', 'total_rows_skipped', 'numbers_zero_padded'] as const;
const FileInfo = Type.Object({
  name: Nullable(Type.String()),
  kind: Type.String({ description: 'csv | tsv | xlsx | json | ndjson' }),
  columns: Type.Array(Type.String(), { description: 'input headers in file order' }),
  number_column: Type.String(),
  name_column: Nullable(Type.String()),
  address_column: Nullable(Type.String()),
  representative_column: Nullable(Type.String()),
  opening_date_column: Nullable(Type.String()),
  validates: Type.Boolean({ description: 'the file has both a representative and an opening-date column: rows that fill both are checked by NTS 진위확인 (a `validation` field)' }),
  sheet: Nullable(Type.String({ description: 'XLSX: the worksheet read' })),
  notices: Type.Array(
    Type.Object({
      code: Type.Union([Type.Literal('sheet_chosen'), Type.Literal('no_address_column'), Type.Literal('no_name_column'), Type.Literal('total_rows_skipped'), Type.Literal('numbers_zero_padded')]),
      message: Type.String(),
      count: Type.Optional(Type.Integer()),
      row_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'the first few rows concerned' })),
      examples: Type.Optional(Type.Array(Type.String(), { description: 'the first few skipped rows as they read' })),
    }),
    { description: 'what reading the file decided on its own: a missing address column (rows are then assessed without an address check), a missing name column (rows then get their status alone: only a row with a name is assessed), the sheet picked, total rows skipped, 9-digit numbers read with their leading zero' },
  ),
});

export type FileNotice = { code: (typeof NOTICE_CODES)[number]; message: string; count?: number; row_ids?: number[]; examples?: string[] };

/** What the job says about its file, from the columns chosen and what reading it decided. */
export function fileNotices(job: Pick<BatchJob, 'chosen' | 'fileReport'>): FileNotice[] {
  const out: FileNotice[] = [];
  const r = job.fileReport;
  if (r?.sheetByContent && r.sheet) {
    out.push({ code: 'sheet_chosen', message: `첫 시트에 사업자등록번호 열이 없어 "${r.sheet}" 시트를 읽었습니다. 다른 시트는 sheet로 고를 수 있습니다 (파일의 시트: ${r.sheets.map((s) => `"${s}"`).join(', ')}).` });
  }
  if (!job.chosen.address) {
    out.push({ code: 'no_address_column', message: '주소 열을 찾지 못해 주소 없이 판정했습니다: 반송 위험이 주소 확인 없이 계산되고 교정 주소가 없습니다. 주소 열이 있다면 address_column으로 지정해 주세요.' });
  }
  if (!job.chosen.name) {
    out.push({ code: 'no_name_column', message: '상호 열을 찾지 못해 국세청 상태만 조회했습니다: 반송 위험 판정은 상호가 있는 행에만 합니다. 상호 열이 있다면 name_column으로 지정해 주세요.' });
  }
  if (r && r.totalRows > 0) {
    out.push({ code: 'total_rows_skipped', message: `합계·소계 행 ${r.totalRows.toLocaleString('ko-KR')}개는 거래처가 아니어서 건너뛰었습니다 (조회·과금 없음).`, count: r.totalRows, examples: r.totalRowTexts });
  }
  if (r && r.paddedNumbers > 0) {
    out.push({ code: 'numbers_zero_padded', message: `9자리 사업자등록번호 ${r.paddedNumbers.toLocaleString('ko-KR')}개는 엑셀이 앞자리 0을 지운 것으로 보고 0을 붙여 읽었습니다.`, count: r.paddedNumbers, row_ids: r.paddedRows });
  }
  return out;
}

function fileInfo(job: BatchJob): Static<typeof FileInfo> {
  const c = job.chosen;
  return {
    name: job.filename, kind: job.fileKind, columns: job.columns, number_column: c.bno, name_column: c.name, address_column: c.address,
    representative_column: c.representative ?? null, opening_date_column: c.opened ?? null, validates: validates(job),
    sheet: job.fileReport?.sheet ?? null, notices: fileNotices(job),
  };
}

/** Whether a job's rows are checked by 진위확인: its file has both columns. */
export const validates = (job: BatchJob): boolean => Boolean(job.chosen.representative && job.chosen.opened);

export const BatchAccepted = Type.Object({
  job_id: Type.String(),
  total: Type.Integer({ description: 'data rows in the file' }),
  status: Type.String({ enum: [...JOB_STATUSES] }),
  distinct_numbers: Type.Integer({ description: 'distinct valid business numbers: what is charged' }),
  offline: Type.Boolean(),
  paid: Type.Boolean(),
  charged: Type.Integer({ description: 'lookups charged to the monthly quota' }),
  overage: Type.Integer({ description: 'lookups beyond the quota, billed as overage (paid=true)' }),
  file: FileInfo,
  created_at: Type.String(),
  expired_at: Nullable(Type.String({ description: "when the job's rows and results were deleted at the end of the account's retention (counts remain); null while kept" })),
  links: Type.Object({ status: Type.String(), results: Type.String() }),
});

export const BatchStatusBody = Type.Object({
  job_id: Type.String(),
  status: Type.String({ enum: [...JOB_STATUSES] }),
  total: Type.Integer(),
  processed: Type.Integer(),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  failure_reason: Nullable(Type.String()),
  distinct_numbers: Type.Integer(),
  offline: Type.Boolean(),
  paid: Type.Boolean(),
  charged: Type.Integer(),
  overage: Type.Integer(),
  refunded: Type.Integer({ description: 'lookups given back: numbers that got no answer' }),
  upstream_wait: Type.Union(
    [
      Type.Object({
        since: Type.String({ description: 'when the job started waiting' }),
        reason: Type.String({ description: 'why: NTS not answering, or the day\'s NTS allowance spent' }),
        gives_up_at: Nullable(Type.String({ description: 'when its unanswered rows become unknown (refunded) if NTS is still down; null when it waits for the next day\'s allowance' })),
      }),
      Type.Null(),
    ],
    { description: 'set while the job waits for NTS and resumes by itself; null otherwise' },
  ),
  counts: Type.Object({ biz_status: Type.Record(Type.String(), Type.Integer()), grade: Type.Record(Type.String(), Type.Integer()) }),
  file: FileInfo,
  created_at: Type.String(),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
  expired_at: Nullable(Type.String({ description: "when the job's rows and results were deleted at the end of the account's retention: the counts remain, the preview is empty and the results are 410; null while kept" })),
  preview: Type.Array(
    Type.Object({
      row_id: Type.Integer(),
      input: Type.Record(Type.String(), Type.String()),
      result: Type.Unknown({ description: 'the verification result (POST /verify shape), null until processed' }),
    }),
  ),
  links: Type.Object({ results: Type.Object({ csv: Type.String(), xlsx: Type.String(), json: Type.String() }) }),
});

export function jobSummary(job: BatchJob): Static<typeof BatchAccepted> {
  return {
    job_id: job.id,
    total: job.total,
    status: job.status,
    distinct_numbers: job.distinctNumbers,
    offline: job.offline,
    paid: job.paid,
    charged: job.charged,
    overage: job.overage,
    file: fileInfo(job),
    created_at: job.createdAt,
    expired_at: job.expiredAt,
    links: { status: `/batch/${job.id}`, results: `/batch/${job.id}/results?format=csv` },
  };
}

export function batchStatusBody(
  job: BatchJob,
  counts: { byStatus: Record<string, number>; byGrade: Record<string, number> },
  preview: readonly BatchRow[],
  waitMs = 0,
): Static<typeof BatchStatusBody> {
  const wait = job.status === 'processing' || job.status === 'queued' ? job.upstreamWait : null;
  return {
    job_id: job.id,
    status: job.status,
    total: job.total,
    processed: job.processed,
    progress: progressOf(job),
    failure_reason: job.failureReason,
    distinct_numbers: job.distinctNumbers,
    offline: job.offline,
    paid: job.paid,
    charged: job.charged,
    overage: job.overage,
    refunded: job.refunded,
    upstream_wait: wait && {
      since: wait.since,
      reason: wait.reason,
      gives_up_at: wait.reason.startsWith(DAILY_LIMIT_REASON) ? null : new Date(Date.parse(wait.since) + waitMs).toISOString(),
    },
    counts: { biz_status: counts.byStatus, grade: counts.byGrade },
    file: fileInfo(job),
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    expired_at: job.expiredAt,
    preview: preview.map((r) => ({ row_id: r.rowId, input: r.cells, result: r.result })),
    links: { results: { csv: `/batch/${job.id}/results?format=csv`, xlsx: `/batch/${job.id}/results?format=xlsx`, json: `/batch/${job.id}/results?format=json` } },
  };
}

export const RESULT_COLUMNS = [
  'row_id', 'b_no', 'biz_status', 'bounce_prob', 'grade', 'action', 'fixed_zipcode', 'fixed_address', 'reasons',
  'closed_on', 'tax_type', 'entity_type', 'address_quality', 'checked_at', 'stale', 'model_version', 'verification_id',
] as const;

/** A job that validates has these after the result columns: the row's `validation`, flattened. */
export const VALIDATION_COLUMNS = ['validation', 'validation_code', 'validation_msg'] as const;

/** A download's columns, in order: the input's (prefixed), the results', the validation's. */
export function downloadColumns(job: BatchJob): string[] {
  return [...job.columns.map((c) => `input:${c}`), ...RESULT_COLUMNS, ...(validates(job) ? VALIDATION_COLUMNS : [])];
}

/** One download record: the input columns as read (prefixed), then the result columns. */
export function resultRecord(job: BatchJob, row: BatchRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of job.columns) out[`input:${c}`] = row.cells[c] ?? '';
  const r = row.result ?? {};
  const address = r.address as { quality?: string } | null | undefined;
  out.row_id = row.rowId;
  for (const k of RESULT_COLUMNS) if (k !== 'row_id' && k !== 'reasons' && k !== 'address_quality') out[k] = r[k] ?? null;
  out.reasons = Array.isArray(r.reasons) ? (r.reasons as string[]).join(' | ') : null;
  out.address_quality = address?.quality ?? null;
  if (!row.result) out.biz_status = 'pending';
  const v = r.validation as RowValidation | null | undefined;
  if (validates(job)) {
    out.validation = v?.status ?? null;
    out.validation_code = v?.valid_code ?? null;
    out.validation_msg = v?.valid_msg ?? null;
  }
  return out;
}
