// GET /batch: the account's jobs, newest first, a page at a time (?limit, ?before=job_id).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../errors.ts';
import type { BatchJob } from '../domain/batch.ts';
import type { Store } from '../store/store.ts';
import { requireAccount } from './auth.ts';
import { Problem, problemResponses } from './schemas.ts';

const JobListItem = Type.Object({
  job_id: Type.String(),
  status: Type.String({ description: 'queued | processing | done | failed' }),
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
});

const item = (j: BatchJob) => ({
  job_id: j.id,
  status: j.status,
  total: j.total,
  processed: j.processed,
  progress: j.total === 0 ? 1 : Math.round((j.processed / j.total) * 10_000) / 10_000,
  failure_reason: j.failureReason,
  file_name: j.filename,
  file_kind: j.fileKind,
  offline: j.offline,
  paid: j.paid,
  charged: j.charged,
  overage: j.overage,
  created_at: j.createdAt,
  finished_at: j.finishedAt,
});

export function batchListRoutes(store: Store): FastifyPluginAsyncTypebox {
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
        const account = requireAccount(request);
        const limit = request.query.limit ?? 20;
        let cursor: { createdAt: string; id: string } | undefined;
        if (request.query.before !== undefined) {
          const after = await store.batches.getJob(account.id, request.query.before);
          if (!after) throw new AppError('not_found', `no batch job ${request.query.before}`);
          cursor = { createdAt: after.createdAt, id: after.id };
        }
        const jobs = await store.batches.listJobs(account.id, limit + 1, cursor);
        const page = jobs.slice(0, limit);
        return { jobs: page.map(item), next_before: jobs.length > limit ? page.at(-1)!.id : null };
      },
    );
  };
}
