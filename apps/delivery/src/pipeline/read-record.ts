import { DeliveryJob } from '@switchyard/contracts';
import { decodeJson } from '@switchyard/kafka';
import { KafkaHeaders, readRetryState, RetryState } from '../retry/retry-state';

export type ReadRecord = { ok: true; job: DeliveryJob; state: RetryState } | { ok: false; reason: string; state: RetryState };

/** Stage 1: a Kafka record as a delivery job and its history, or the reason it cannot be one. */
export function readDeliveryRecord(value: Buffer | null, headers: KafkaHeaders): ReadRecord {
  const state = readRetryState(headers);
  const decoded = decodeJson<Partial<DeliveryJob>>(value);
  if (!decoded.ok) return { ok: false, reason: `unreadable delivery job: ${decoded.reason}`, state };
  const job = decoded.value;
  const problems = (['jobId', 'destinationId', 'sourceId', 'messageId'] as const)
    .filter((field) => typeof job?.[field] !== 'string' || job[field] === '')
    .map((field) => `${field} must be a non-empty string`);
  if (typeof job?.body !== 'object' || job.body === null || Array.isArray(job.body)) problems.push('body must be a JSON object');
  if (problems.length > 0) return { ok: false, reason: `invalid delivery job: ${problems.join('; ')}`, state };
  return { ok: true, job: job as DeliveryJob, state };
}
