import type { Attributes } from '@opentelemetry/api';
import { NextStep } from '../delivery-vocabulary';

/** What a job's process span tells about its outcome. */
export interface SpanOutcome {
  attributes: Attributes;
  /** Set when the attempt failed or the job was dead-lettered: the span's status is then ERROR. */
  error?: { type: string; message: string };
}

/**
 * `switchyard.outcome` (delivered / retry / throttled / dead-lettered) for every job, the failure kind of a
 * dead letter (also its `error.type`), and ERROR for every failed attempt, so a tracing backend
 * can find failed deliveries without knowing Switchyard.
 */
export function spanOutcome(step: NextStep): SpanOutcome {
  switch (step.kind) {
    case 'delivered':
      return { attributes: { 'switchyard.outcome': 'delivered' } };
    case 'retry':
      return {
        attributes: { 'switchyard.outcome': 'retry', 'switchyard.retry_tier': step.tier },
        error: {
          type: 'retry',
          message: `attempt ${step.state.attempt} failed, retry tier ${step.tier}: ${step.state.lastError ?? 'unknown error'}`,
        },
      };
    case 'throttled':
      return { attributes: { 'switchyard.outcome': 'throttled', 'switchyard.retry_tier': step.tier } };
    case 'dead':
      return {
        attributes: { 'switchyard.outcome': 'dead-lettered', 'switchyard.failure': step.failure },
        error: {
          type: step.failure,
          message: `dead-lettered (${step.failure}): ${step.state.lastError ?? 'unknown error'}`,
        },
      };
  }
}
