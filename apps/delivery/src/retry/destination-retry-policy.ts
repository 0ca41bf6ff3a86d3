import type { RetryPolicySettings } from '@switchyard/config';
import type { RetryPolicy } from '../pipeline/decide-next';

/**
 * A destination's retry policy: its own window and delays where it sets them, the service's
 * elsewhere. Read at each attempt, so a changed policy applies to jobs already waiting; the retry
 * topics stay the service's, and a destination's delay waits in the one that fits it.
 */
export function destinationRetryPolicy(
  defaults: RetryPolicy,
  own: RetryPolicySettings | undefined,
): RetryPolicy {
  if (!own) return defaults;
  return {
    windowMs: own.windowMs ?? defaults.windowMs,
    schedule: own.scheduleMs ? { ...defaults.schedule, delaysMs: own.scheduleMs } : defaults.schedule,
  };
}
