import type { Attributes } from '@opentelemetry/api';

/**
 * OpenTelemetry's messaging attribute names, spelled once. The SDK's semantic-conventions package
 * keeps them in its unstable `incubating` entry point, which it asks applications not to import.
 */
export const MESSAGING = {
  system: 'messaging.system',
  operationType: 'messaging.operation.type',
  operationName: 'messaging.operation.name',
  destinationName: 'messaging.destination.name',
  partitionId: 'messaging.destination.partition.id',
  consumerGroup: 'messaging.consumer.group.name',
  kafkaOffset: 'messaging.kafka.offset',
  batchMessageCount: 'messaging.batch.message_count',
} as const;

/**
 * What a Kafka span does. `create` makes a record's trace context (one span per producing caller
 * and topic), `send` is a produce request (it may carry the records of many callers), `process`
 * is the work done for one consumed record.
 */
export type KafkaOperation = 'create' | 'send' | 'process';

/** The conventions' `{operation} {destination}` span name. */
export function messagingSpanName(operation: KafkaOperation, topic: string): string {
  return `${operation} ${topic}`;
}

/**
 * The attributes every Kafka span carries. The batch count is set only for more than one record,
 * as the conventions ask of spans about a single message.
 */
export function messagingAttributes(operation: KafkaOperation, topic: string, records = 1): Attributes {
  const attributes: Attributes = {
    [MESSAGING.system]: 'kafka',
    [MESSAGING.operationType]: operation,
    [MESSAGING.operationName]: operation,
    [MESSAGING.destinationName]: topic,
  };
  if (records > 1) attributes[MESSAGING.batchMessageCount] = records;
  return attributes;
}
