import { AttemptOutcome, DeliveryAttempt } from '@switchyard/contracts';
import { AttemptedStep, AttemptResult, ReadyJob, UrlFailure, UrlRequest } from '../delivery-vocabulary';
import { summariseEnvelope } from './call-summary';

const STEP_OUTCOME: Record<AttemptedStep['kind'], AttemptOutcome> = {
  delivered: 'delivered',
  retry: 'retry-scheduled',
  dead: 'dead-lettered',
};

/** An attempt and what came of it; `result` is absent when no URL could be tried (destination missing or disabled). */
export interface FinishedAttempt {
  job: ReadyJob;
  result?: AttemptResult;
  step: AttemptedStep;
  nowMs: number;
}

/**
 * The attempts-topic records of one attempt: one per URL tried, in order. Every request but the
 * last ends in `next-url`; the last carries what became of the job.
 */
export function attemptRecords({ job, result, step, nowMs }: FinishedAttempt): DeliveryAttempt[] {
  const { userId, anonymousId, type, event } = summariseEnvelope(job.body);
  // Each attempt written out field by field, in one shape: no intermediate objects on every webhook request.
  const { destinationId, messageId, sourceId } = job;
  const outcome = STEP_OUTCOME[step.kind];
  if (!result) {
    // No request was made, so the job's attempt count did not move; this is still its next attempt.
    const attempt = step.state.attempt + 1;
    return [
      {
        destinationId,
        messageId,
        sourceId,
        userId,
        anonymousId,
        type,
        event,
        attempt,
        errorKind: 'undeliverable',
        error: step.state.lastError,
        durationMs: 0,
        at: nowMs,
        outcome,
      },
    ];
  }
  const requests: Array<{ request: UrlRequest; url: string; failure?: UrlFailure }> = result.failures.map(
    (failure) => ({ request: failure, url: failure.url, failure }),
  );
  if (result.verdict === 'delivered') requests.push({ request: result.request, url: result.url });
  return requests.map(({ request, url, failure }, i) => ({
    destinationId,
    messageId,
    sourceId,
    userId,
    anonymousId,
    type,
    event,
    attempt: step.state.attempt,
    urlIndex: request.urlIndex,
    urlHost: hostOf(url),
    status: request.status,
    errorKind: failure
      ? (failure.errorKind ?? (request.status === undefined ? 'permanent' : 'status'))
      : undefined,
    error: failure?.reason,
    durationMs: request.durationMs,
    at: request.startedAt,
    outcome: i === requests.length - 1 ? outcome : 'next-url',
    responseBody: request.responseBody?.toString('utf8'),
  }));
}

/** Distinct webhook URLs whose host is remembered; configuration holds few, each used for every job. */
const MAX_CACHED_HOSTS = 10_000;
const hosts = new Map<string, string | undefined>();

/** Host and port only: the path and query of a webhook URL may hold secrets. */
function hostOf(url: string): string | undefined {
  if (hosts.has(url)) return hosts.get(url);
  let host: string | undefined;
  try {
    host = new URL(url).host;
  } catch {
    host = undefined;
  }
  // Configuration edits can retire URLs; starting over now and then keeps the cache bounded.
  if (hosts.size >= MAX_CACHED_HOSTS) hosts.clear();
  hosts.set(url, host);
  return host;
}
