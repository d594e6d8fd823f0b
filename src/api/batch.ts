// Bulk verification: POST /batch (multipart upload → 202), GET /batch/{job_id} (status, counts,
// preview), GET /batch/{job_id}/results (full download), POST /batch/{job_id}/label (an outcome)
// and POST /batch/{job_id}/labels (outcomes in bulk).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../errors.ts';
import { cleanText } from '../domain/safe-text.ts';
import { localeFrom } from '../domain/locale.ts';
import { INSPECT_ROWS, LABELS_PER_REQUEST, type BatchService } from '../batch/batch-service.ts';
import type { LabelItem } from '../domain/label.ts';
import type { LabelFile } from '../batch/files/label-file.ts';
import { RETURN_CAUSES } from '../domain/return-reason.ts';
import { normaliseFromFile } from '../domain/bizno.ts';
import { BatchAccepted, batchStatusBody, BatchStatusBody, downloadColumns, fileNotices, jobSummary, resultRecord } from '../batch/batch-view.ts';
import { writeCsv, writeJson, writeXlsx } from '../batch/files/write-results.ts';
import { requireAccount } from './auth.ts';
import { Problem, problemResponses } from './schemas.ts';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true or false' });
const JobParams = Type.Object({ job_id: Type.String({ maxLength: 64 }) });

const UploadQuery = Type.Object(
  {
    offline: Type.Optional(Bool),
    paid: Type.Optional(Bool),
    sheet: Type.Optional(Type.String({ maxLength: 100, description: 'worksheet name or 1-based number (XLSX); default the first visible sheet that holds a number column (file.notices says when that is not the first)' })),
    bno_column: Type.Optional(Type.String({ maxLength: 100, description: 'header or 1-based index of the business-number column' })),
    name_column: Type.Optional(Type.String({ maxLength: 100 })),
    address_column: Type.Optional(Type.String({ maxLength: 100 })),
    representative_column: Type.Optional(Type.String({ maxLength: 100, description: '대표자 column; with opening_date_column, rows are checked by NTS 진위확인' })),
    opening_date_column: Type.Optional(Type.String({ maxLength: 100, description: '개업일 column (YYYYMMDD, YYYY-MM-DD, an Excel date…)' })),
  },
  { additionalProperties: false },
);

const InspectQuery = Type.Object(
  {
    sheet: UploadQuery.properties.sheet,
    bno_column: UploadQuery.properties.bno_column,
    name_column: UploadQuery.properties.name_column,
    address_column: UploadQuery.properties.address_column,
    representative_column: UploadQuery.properties.representative_column,
    opening_date_column: UploadQuery.properties.opening_date_column,
  },
  { additionalProperties: false },
);

const Inspection = Type.Object({
  kind: Type.String({ description: 'csv | xlsx | json' }),
  sheet: Type.Union([Type.String(), Type.Null()], { description: 'XLSX: the worksheet that would be read' }),
  sheets: Type.Array(Type.String(), { description: 'XLSX: the visible worksheets in tab order' }),
  headers: Type.Array(Type.String(), { description: 'column names in file order (those of the first rows)' }),
  number_column: Type.Union([Type.String(), Type.Null()], { description: 'null: no header names a business-number column; choose one with bno_column' }),
  name_column: Type.Union([Type.String(), Type.Null()]),
  address_column: Type.Union([Type.String(), Type.Null()]),
  representative_column: Type.Union([Type.String(), Type.Null()]),
  opening_date_column: Type.Union([Type.String(), Type.Null()]),
  notices: BatchAccepted.properties.file.properties.notices,
  rows: Type.Array(Type.Object({ row_id: Type.Integer(), cells: Type.Record(Type.String(), Type.String()) }), { description: `the first ${INSPECT_ROWS} rows as read` }),
});

const Label = Type.Object(
  {
    // the largest row a job can have is far below this; past it, SQL's integer would refuse it
    row_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'row of the job (1-based data row of the file)' }),
    bounced: Type.Boolean({ description: 'whether the mail actually bounced' }),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'free text, e.g. 수취인불명, 폐문부재' })),
  },
  { additionalProperties: false },
);

const LabelsQuery = Type.Object(
  {
    outcome: Type.Optional(Type.Union([Type.Literal('bounced'), Type.Literal('delivered')], { description: 'the outcome of rows that give neither one nor a reason; default none (such rows are rejected)' })),
    sheet: Type.Optional(Type.String({ maxLength: 100, description: 'worksheet name or 1-based number (XLSX); default the first' })),
  },
  { additionalProperties: false },
);

const LabelsItem = Type.Object(
  {
    row_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'row of the job' })),
    b_no: Type.Optional(Type.String({ maxLength: 20, description: 'instead of row_id: every row of the job with this number' })),
    bounced: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: '반송 사유 as written, e.g. 이사불명' })),
  },
  { additionalProperties: false },
);
const LabelsList = Type.Array(LabelsItem, { maxItems: LABELS_PER_REQUEST });
const LabelsBody = Type.Union([LabelsList, Type.Object({ labels: LabelsList }, { additionalProperties: false })]);
// 100,000 outcomes of ~80 bytes; a file of them in XLSX or CSV is smaller
const LABELS_BODY_BYTES = 16 * 1024 ** 2;
const LABELS_FILE_BYTES = 32 * 1024 ** 2;

const LabelsRecorded = Type.Object({
  job_id: Type.String(),
  recorded: Type.Integer({ description: 'rows labelled (an outcome by b_no labels every row with the number)' }),
  bounced: Type.Integer(),
  delivered: Type.Integer(),
  replaced: Type.Integer({ description: 'of the rows labelled, those that had a label before' }),
  causes: Type.Record(Type.String(), Type.Integer(), { description: 'bounces by the cause their reason names' }),
  rejected: Type.Array(
    Type.Object({
      at: Type.Integer({ description: 'position in the array (1-based), or the data row of the file' }),
      row_id: Type.Union([Type.Integer(), Type.Null()]),
      b_no: Type.Union([Type.String(), Type.Null()]),
      code: Type.Union([Type.Literal('no_row'), Type.Literal('no_outcome'), Type.Literal('not_in_job'), Type.Literal('not_processed'), Type.Literal('number_mismatch')]),
      detail: Type.String(),
    }),
  ),
  columns: Type.Optional(Type.Object({
    b_no: Type.String(), row_id: Type.Union([Type.String(), Type.Null()]), outcome: Type.Union([Type.String(), Type.Null()]), reason: Type.Union([Type.String(), Type.Null()]),
  }, { description: 'a file: the header read for each role' })),
  recorded_at: Type.String(),
});

const LabelRecorded = Type.Object({
  job_id: Type.String(),
  row_id: Type.Integer(),
  bounced: Type.Boolean(),
  reason: Type.Union([Type.String(), Type.Null()]),
  replaced: Type.Boolean({ description: 'true when this row had a label before (relabelling replaces it)' }),
  cause: Type.Union([Type.Enum(RETURN_CAUSES), Type.Null()], { description: 'what the reason names as the post office writes it (수취인불명 → unknown_recipient, 이사불명 → moved, 폐문부재 → nobody_home, 주소불명 → bad_address, 수취거절 → refused, …); null for a delivery or no reason' }),
  model_version: Type.Union([Type.String(), Type.Null()], { description: 'the model the row was scored with' }),
  recorded_at: Type.String(),
});

const fileColumns = (c: LabelFile['columns']) => ({ b_no: c.bno, row_id: c.rowId, outcome: c.outcome, reason: c.reason });

/** Column overrides are header text, or a 1-based index written as digits. */
/**
 * The customer list of a multipart request (POST /batch and /batch/inspect): its part, its name
 * and type, and the sheet and column options of the query.
 */
async function listFile(request: FastifyRequest<{ Querystring: Static<typeof InspectQuery> }>, maxFileBytes: number) {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', 'send the file as multipart/form-data in a part named "file"');
  const part = await request.file({ limits: { fileSize: maxFileBytes, files: 1, fields: 10, parts: 20 } }).catch(unreadableMultipart);
  if (!part) throw new AppError('bad_request', 'no file in the request: send it in a multipart part named "file"');
  if (part.fieldname !== 'file') throw new AppError('bad_request', `the file part must be named "file", not "${part.fieldname}"`);
  // the limit cuts the stream short (the parser drains the rest of the body, so the connection
  // stays usable); the service turns a cut file into a 413 rather than a silently shorter job
  let truncated = false;
  part.file.once('limit', () => {
    truncated = true;
  });
  const q = request.query;
  return {
    file: part.file,
    // a file name is echoed in downloads and lists: cleaned like the file's cells. A part sent
    // with `filename=""` reaches us with none at all, whatever the type says
    filename: cleanText(part.filename ?? '').trim() || null,
    contentType: part.mimetype || null,
    sheet: q.sheet,
    columns: {
      bnoColumn: column(q.bno_column), nameColumn: column(q.name_column), addressColumn: column(q.address_column),
      representativeColumn: column(q.representative_column), openedColumn: column(q.opening_date_column),
    },
    truncated: () => truncated,
  };
}

function column(v: string | undefined): string | number | undefined {
  if (v === undefined) return undefined;
  return /^\d+$/.test(v) ? Number(v) : v;
}

/**
 * The multipart parser's own faults (no boundary, body ending before the first part) are plain
 * errors without a status: the client's body is broken, so 400, not 500. The plugin's limit
 * errors carry their status and pass through.
 */
function unreadableMultipart(err: unknown): never {
  if (err instanceof Error && !('statusCode' in err)) {
    throw new AppError('bad_request', `the multipart body could not be read (${err.message}): send the file in a part named "file"`);
  }
  throw err;
}

export function batchRoutes(deps: { service: BatchService; maxFileBytes: number }): FastifyPluginAsyncTypebox {
  const { service } = deps;
  return async (app) => {
    app.post(
      '/batch',
      {
        schema: {
          summary: 'Upload a file of businesses to verify (CSV in UTF-8 or CP949, XLSX, JSON)',
          querystring: UploadQuery,
          consumes: ['multipart/form-data'],
          response: { 202: BatchAccepted, ...problemResponses, 413: Problem },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const key = request.headers['idempotency-key'];
        const { job, created } = await service.create({
          account,
          ...(await listFile(request, deps.maxFileBytes)),
          offline: request.query.offline === 'true',
          paid: request.query.paid === 'true',
          idempotencyKey: typeof key === 'string' && key ? key.slice(0, 200) : undefined,
          locale: localeFrom(request.headers['accept-language']),
        });
        if (!created) reply.header('idempotent-replayed', 'true');
        return reply.code(202).header('location', `/batch/${job.id}`).send(jobSummary(job));
      },
    );

    app.post(
      '/batch/inspect',
      {
        schema: {
          summary: 'What an upload of this file would read: the sheet, the columns recognised and the first rows (no job, nothing charged)',
          description: 'Takes the file and the column options of POST /batch. A file whose header names no business-number column is still shown (number_column null, the first row read as the header), so a column can be chosen; an unreadable file is 400 as an upload would be.',
          querystring: InspectQuery,
          consumes: ['multipart/form-data'],
          response: { 200: Inspection, ...problemResponses, 413: Problem },
        },
      },
      async (request) => {
        requireAccount(request);
        const seen = await service.inspect(await listFile(request, deps.maxFileBytes));
        const fileReport = { sheet: seen.sheet, sheets: seen.sheets, sheetByContent: seen.sheetByContent, totalRows: 0, totalRowTexts: [], paddedNumbers: 0, paddedRows: [] };
        return {
          kind: seen.kind, sheet: seen.sheet, sheets: seen.sheets, headers: seen.headers,
          number_column: seen.numberRecognised ? seen.chosen.bno : null, name_column: seen.chosen.name, address_column: seen.chosen.address,
          representative_column: seen.chosen.representative ?? null, opening_date_column: seen.chosen.opened ?? null,
          notices: fileNotices({ chosen: seen.chosen, fileReport }),
          rows: seen.rows.map((r) => ({ row_id: r.rowId, cells: r.cells })),
        };
      },
    );

    app.get(
      '/batch/:job_id',
      {
        schema: {
          summary: 'Status, progress, counts and the first rows of a job',
          params: JobParams,
          querystring: Type.Object({ preview: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'rows to return, default 10' })) }, { additionalProperties: false }),
          response: { 200: BatchStatusBody, ...problemResponses, 404: Problem },
        },
      },
      async (request) => {
        const { job, counts, preview, waitMs } = await service.get(requireAccount(request), request.params.job_id, request.query.preview ?? 10);
        return batchStatusBody(job, counts, preview, waitMs);
      },
    );

    app.delete(
      '/batch/:job_id',
      {
        schema: {
          summary: 'Delete a job: its uploaded rows, results and downloads, at once and for good',
          description:
            'A job still queued or processing is stopped and the lookups it will not make are refunded. Labels recorded on its rows keep only the number, the outcome and what the model was fed (no name, no address, no free-text reason); usage counts stay.',
          params: JobParams,
          response: {
            200: Type.Object({
              job_id: Type.String(),
              deleted: Type.Literal(true),
              refunded: Type.Integer({ description: 'lookups given back: numbers of an unfinished job that will not be answered' }),
              labels_kept: Type.Integer({ description: 'labels of the job kept without address or reason' }),
            }),
            ...problemResponses,
            404: Problem,
          },
        },
      },
      async (request) => {
        const { refunded, labels } = await service.delete(requireAccount(request), request.params.job_id);
        return { job_id: request.params.job_id, deleted: true as const, refunded, labels_kept: labels };
      },
    );

    app.get(
      '/batch/:job_id/results',
      {
        schema: {
          summary: 'Every row with its result, as CSV, XLSX or JSON',
          params: JobParams,
          querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('xlsx'), Type.Literal('json')])) }, { additionalProperties: false }),
          response: { ...problemResponses, 404: Problem, 410: Problem },
        },
      },
      async (request, reply) => {
        const { job, rows } = await service.rows(requireAccount(request), request.params.job_id);
        const format = request.query.format ?? 'csv';
        const columns = downloadColumns(job);
        async function* records() {
          for await (const row of rows) yield resultRecord(job, row);
        }
        const base = (job.filename ?? job.id).replace(/\.[^.]+$/, '');
        const types = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', json: 'application/json; charset=utf-8' } as const;
        reply.header('content-type', types[format]);
        reply.header('content-disposition', `attachment; filename="${job.id}.${format}"; filename*=UTF-8''${encodeURIComponent(`${base}_결과.${format}`)}`);
        reply.hijack();
        reply.raw.writeHead(200, reply.getHeaders() as Record<string, string>);
        try {
          if (format === 'xlsx') await writeXlsx(records(), columns, reply.raw, { percentColumns: ['bounce_prob'] });
          else await (format === 'csv' ? writeCsv : writeJson)(records(), columns, reply.raw);
        } catch (err) {
          request.log.error({ err }, 'results download failed midway');
          reply.raw.destroy(err instanceof Error ? err : undefined);
        }
      },
    );

    app.post(
      '/batch/:job_id/label',
      {
        schema: {
          summary: 'Record whether the mail to one row actually bounced',
          params: JobParams,
          body: Label,
          response: { 200: LabelRecorded, ...problemResponses, 404: Problem, 409: Problem, 410: Problem },
        },
      },
      async (request) => {
        const reason = request.body.reason?.trim() || null;
        const l = await service.label(requireAccount(request), request.params.job_id, { rowId: request.body.row_id, bounced: request.body.bounced, reason });
        return { job_id: l.job.id, row_id: l.rowId, bounced: request.body.bounced, reason, replaced: l.replaced, cause: l.cause, model_version: l.modelVersion, recorded_at: l.at };
      },
    );

    app.post(
      '/batch/:job_id/labels',
      {
        bodyLimit: LABELS_BODY_BYTES,
        schema: {
          summary: 'Record many outcomes at once: a JSON array, or a file of returned mail (CSV, XLSX, JSON) as multipart',
          description:
            'Each outcome names its row by `row_id`, or by `b_no` (every row of the job with that number). `bounced` may be left out when `reason` is a 반송 사유 ' +
            '(수취인불명, 이사불명, 폐문부재, 주소불명, 수취거절, 기타 …); `outcome=bounced` makes every row without one a bounce (a returned-mail list). ' +
            'A file is read like a customer list: its number column, and `row_id`, an outcome column (반송여부, 배달결과, bounced) and a reason column (반송사유, 사유, reason) when present. ' +
            'Outcomes that cannot be recorded are listed in `rejected`; the others are recorded together, in one transaction.',
          params: JobParams,
          querystring: LabelsQuery,
          consumes: ['application/json', 'multipart/form-data'],
          body: { content: { 'application/json': { schema: LabelsBody } } },
          response: { 200: LabelsRecorded, ...problemResponses, 404: Problem, 410: Problem, 413: Problem },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const { job_id: jobId } = request.params;
        const query = request.query;
        const defaultBounced = query.outcome === undefined ? null : query.outcome === 'bounced';
        let out;
        if (request.isMultipart()) {
          const part = await request.file({ limits: { fileSize: LABELS_FILE_BYTES, files: 1, fields: 10, parts: 20 } }).catch(unreadableMultipart);
          if (!part) throw new AppError('bad_request', 'no file in the request: send it in a multipart part named "file"');
          if (part.fieldname !== 'file') throw new AppError('bad_request', `the file part must be named "file", not "${part.fieldname}"`);
          let truncated = false;
          part.file.once('limit', () => {
            truncated = true;
          });
          out = await service.labelFile(account, jobId, {
            file: part.file, filename: cleanText(part.filename ?? '').trim() || null, contentType: part.mimetype || null,
            sheet: query.sheet, defaultBounced, truncated: () => truncated,
          });
        } else {
          const body = request.body as Static<typeof LabelsBody>;
          const list = Array.isArray(body) ? body : body.labels;
          const items = list.map((l, i): LabelItem => ({ at: i + 1, rowId: l.row_id ?? null, bno: l.b_no === undefined ? null : (normaliseFromFile(l.b_no) ?? l.b_no.trim()), bounced: l.bounced ?? null, reason: l.reason?.trim() || null }));
          out = await service.labelMany(account, jobId, items, defaultBounced);
        }
        return {
          job_id: out.job.id, recorded: out.recorded, bounced: out.bounced, delivered: out.recorded - out.bounced, replaced: out.replaced, causes: out.causes,
          rejected: out.rejected.map((r) => ({ at: r.at, row_id: r.rowId, b_no: r.bno, code: r.code, detail: r.detail })),
          ...('columns' in out ? { columns: fileColumns(out.columns as LabelFile['columns']) } : {}),
          recorded_at: out.at,
        };
      },
    );
  };
}
