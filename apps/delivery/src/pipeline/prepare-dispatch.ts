import type { Destination } from '@switchyard/config';
import type { DeadFailure } from '@switchyard/contracts';
import { requestSigner } from '@switchyard/webhooks';
import { ReadyJob } from '../delivery-vocabulary';

/** Everything needed to send one job: the exact body bytes and, per URL in configured order, its headers. */
export interface DispatchPlan {
  destinationId: string;
  body: Buffer;
  targets: Array<{ url: string; headers: Record<string, string> }>;
}

export type Prepared =
  | { kind: 'ready'; plan: DispatchPlan }
  | { kind: 'undeliverable'; failure: Extract<DeadFailure, `destination-${string}`>; reason: string };

/**
 * Stage 2: look the destination up now (not when the job was made), so a corrected URL or
 * secret applies to jobs already waiting for a retry. The envelope's bytes from the record are
 * both signed and sent, signed once at `nowMs` for every URL the plan tries.
 */
export function prepareDispatch(
  job: ReadyJob,
  destination: Destination | undefined,
  userAgentToken: string,
  nowMs: number,
): Prepared {
  if (!destination)
    return {
      kind: 'undeliverable',
      failure: 'destination-deleted',
      reason: `destination ${job.destinationId} is not in the workspace configuration`,
    };
  if (!destination.enabled)
    return {
      kind: 'undeliverable',
      failure: 'destination-disabled',
      reason: `destination ${job.destinationId} is disabled`,
    };
  const { settings } = destination;
  const common: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `${userAgentToken}/1.0`,
  };
  requestSigner(settings).sign(common, job.messageId, job.body, nowMs);
  return {
    kind: 'ready',
    plan: {
      destinationId: destination.id,
      body: job.body,
      // Static headers first: configuration validation already refuses names that would replace ours.
      targets: settings.webhooks.map((w) => ({ url: w.url, headers: { ...(w.headers ?? {}), ...common } })),
    },
  };
}
