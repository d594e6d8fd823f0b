// GET /batch: the account's jobs, newest first, a page at a time (?limit, ?before=job_id).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { JOB_STATUSES, type BatchJob } from '../domain/batch.ts';
import type { BatchService } from '../batch/batch-service.ts';
import { progressOf } from '../domain/job-progress.ts';
import { requireAccount } from './auth.ts';
import { Problem, problemResponses } from './schemas.ts';

const JobListItem = Type.Object({
  job_id: Type.String(),
  status: Type.String({ enum: [...JOB_STATUSES] }),
  total: Type.Integer(),
  processed: Type.Integer(),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  failure_reason: Type.Union([Type.String(), Type.Null()]),
  file_name: Type.Union([Type.String(), Type.Null()]),
  file_kind: Type.String(),
  offline: Type.Boolean(),
  paid: Type.Boolean(),
  charged: Type.Integer(),
  overage: Type.Integer(),
  created_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  expired_at: Type.Union([Type.String(), Type.Null()], { description: 'when its rows and results were deleted at the end of retention; null while kept' }),
});

const item = (j: BatchJob) => ({
  job_id: j.id,
  status: j.status,
  total: j.total,
  processed: j.processed,
  progress: progressOf(j),
  failure_reason: j.failureReason,
  file_name: j.filename,
  file_kind: j.fileKind,
  offline: j.offline,
  paid: j.paid,
  charged: j.charged,
  overage: j.overage,
  created_at: j.createdAt,
  finished_at: j.finishedAt,
  expired_at: j.expiredAt,
});

export function batchListRoutes(service: BatchService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/batch',
      {
        schema: {
          summary: "The account's batch jobs, newest first",
          querystring: Type.Object(
            {
              limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'jobs per page, default 20' })),
              before: Type.Optional(Type.String({ maxLength: 64, description: 'next_before of the previous page: continue after that job' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ jobs: Type.Array(JobListItem), next_before: Type.Union([Type.String(), Type.Null()]) }), ...problemResponses, 404: Problem },
        },
      },
      async (request) => {
        const { jobs, nextBefore } = await service.list(requireAccount(request), request.query.limit ?? 20, request.query.before);
        return { jobs: jobs.map(item), next_before: nextBefore };
      },
    );
  };
}
