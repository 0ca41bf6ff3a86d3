import { DeliveryJobIds } from './delivery-record';

/** The JSON body POSTed to each webhook URL (the envelope Segment documents for its Webhooks destination). */
export type WebhookEnvelope = Record<string, unknown>;

/** A delivery job as a reader outside delivery sees it: its ids, its job id and its envelope parsed. */
export interface DeliveryJob extends DeliveryJobIds {
  /** `<messageId>:<destinationId>`: stable across retries and replays. */
  jobId: string;
  body: WebhookEnvelope;
}
