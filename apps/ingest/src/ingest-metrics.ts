import { CALL_TYPES, CallType } from '@switchyard/contracts';
import { Counter, Histogram, metric } from '@switchyard/telemetry';

/**
 * The `reason` of every refusal ingest knows (the `error` code of its error answers, counted in
 * refusals.ts). Each series starts at 0 so the "ingest rejecting" alerts see the first of a kind.
 */
export const REJECTION_REASONS = [
  'not_found',
  'unauthorized',
  'origin_not_allowed',
  'invalid_body',
  'bad_request',
  'invalid_messages',
  'too_many_messages',
  'message_too_large',
  'payload_too_large',
  'unsupported_media_type',
  'unavailable',
  'internal_error',
] as const;

/** Ingest's Prometheus metrics, registered once per process; every labelled counter starts at 0. */
export function ingestMetrics() {
  return {
    accepted: metric('switchyard_ingest_calls_accepted_total', () => {
      const counter = new Counter({
        name: 'switchyard_ingest_calls_accepted_total',
        help: 'Calls durably written to Kafka, by call type',
        labelNames: ['type'],
      });
      for (const type of CALL_TYPES) counter.inc({ type } satisfies { type: CallType }, 0);
      return counter;
    }),
    rejected: metric('switchyard_ingest_requests_rejected_total', () => {
      const counter = new Counter({
        name: 'switchyard_ingest_requests_rejected_total',
        help: 'Tracking requests refused, by reason',
        labelNames: ['reason'],
      });
      for (const reason of REJECTION_REASONS) counter.inc({ reason }, 0);
      return counter;
    }),
    produceSeconds: metric(
      'switchyard_ingest_produce_duration_seconds',
      () =>
        new Histogram({
          name: 'switchyard_ingest_produce_duration_seconds',
          help: "From handing a request's calls to the producer to the broker's acknowledgement of all of them (acks = all; linger included), by result",
          labelNames: ['result'],
          buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        }),
    ),
  };
}

const { produceSeconds } = ingestMetrics();

/** Settles as `sending` does, observing how long the broker took to acknowledge it (or to fail). */
export async function timedProduce<T>(sending: Promise<T>): Promise<T> {
  const done = produceSeconds.startTimer();
  try {
    const acknowledged = await sending;
    done({ result: 'acknowledged' });
    return acknowledged;
  } catch (error) {
    done({ result: 'failed' });
    throw error;
  }
}
