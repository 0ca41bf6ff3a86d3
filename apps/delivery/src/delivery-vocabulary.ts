import type { DeadFailure, DeliveryJobIds, RetryState } from '@switchyard/contracts';

/**
 * The values the delivery stages hand each other, and that the attempts log and the metrics read.
 * They live below every stage so that neither the stages nor their observers import one another.
 */

/** A job ready to send: its ids, and the envelope as the bytes to sign and POST. */
export interface ReadyJob extends DeliveryJobIds {
  jobId: string;
  body: Buffer;
}

/** One request of an attempt, as the attempts topic records it. */
export interface UrlRequest {
  /** Position of the URL in the destination's list. */
  urlIndex: number;
  startedAt: number;
  durationMs: number;
  /** Absent when no answer came (transport error, timeout, open circuit). */
  status?: number;
  /** First bytes of a non-2xx answer's body. */
  responseBody?: Buffer;
}

/** What became of one URL in an attempt. */
export interface UrlFailure extends UrlRequest {
  url: string;
  verdict: 'retry' | 'permanent';
  reason: string;
  /** Set for retryable failures, so a timeout is logged as one. */
  errorKind?: string;
}

/** The result of one attempt over a destination's URLs. */
export type AttemptResult =
  | { verdict: 'delivered'; url: string; status: number; request: UrlRequest; failures: UrlFailure[] }
  | { verdict: 'retry'; reason: string; retryAfterMs?: number; failures: UrlFailure[] }
  | { verdict: 'permanent'; reason: string; failures: UrlFailure[] };

/** What happens to a job after an attempt, or instead of one (`throttled`: its destination's rate limit sent it to wait in a retry topic). */
export type NextStep =
  | { kind: 'delivered'; state: RetryState }
  | { kind: 'retry'; tier: number; state: RetryState }
  | { kind: 'throttled'; tier: number; state: RetryState }
  | { kind: 'dead'; failure: DeadFailure; state: RetryState };

/** The steps an attempt can lead to (a throttled job made none). */
export type AttemptedStep = Exclude<NextStep, { kind: 'throttled' }>;
