// The `batch.done` webhook event: a job finished (status done) or gave up (status failed). Built
// from the job as it is committed, in the same transaction, so the event never disagrees with
// GET /batch/{job_id}.
import { newId } from '../accounts/api-key.ts';
import type { BatchJob, Tally } from '../domain/batch.ts';
import type { WebhookEventInput } from '../domain/watch-entities.ts';

export function batchDoneEvent(job: BatchJob, counts: Tally): WebhookEventInput {
  const at = job.finishedAt ?? job.createdAt;
  return {
    id: newId('msg'),
    type: 'batch.done',
    body: JSON.stringify({
      type: 'batch.done',
      timestamp: at,
      data: {
        job_id: job.id,
        status: job.status,
        failure_reason: job.failureReason,
        total: job.total,
        processed: job.processed,
        distinct_numbers: job.distinctNumbers,
        charged: job.charged,
        overage: job.overage,
        refunded: job.refunded,
        counts: { biz_status: counts.byStatus, grade: counts.byGrade },
        created_at: job.createdAt,
        finished_at: job.finishedAt,
        results: `/batch/${job.id}/results`,
      },
    }),
  };
}
