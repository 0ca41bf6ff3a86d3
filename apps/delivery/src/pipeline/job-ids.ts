import { DELIVERY_JOB_HEADERS, DeliveryJobIds } from '@switchyard/contracts';
import { headerString } from '@switchyard/kafka';
import { KafkaHeaders } from '../retry/retry-state';

/** The ids a deliveries-topic record carries in its headers; an absent or empty one is undefined. */
export function jobIdsOf(headers: KafkaHeaders): Partial<DeliveryJobIds> {
  const read = (name: string) => headerString(headers, name) || undefined;
  return {
    destinationId: read(DELIVERY_JOB_HEADERS.destinationId),
    sourceId: read(DELIVERY_JOB_HEADERS.sourceId),
    messageId: read(DELIVERY_JOB_HEADERS.messageId),
  };
}
