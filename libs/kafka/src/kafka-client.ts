import { Kafka, logLevel as KafkaLogLevel } from 'kafkajs';
import type { Logger } from 'pino';
import { registerZstdCodec } from './compression';
import { kafkaLogCreator } from './kafka-log';

/** A kafkajs client whose logs go through the service's pino logger. */
export function createKafka(clientId: string, brokers: string, logger: Logger): Kafka {
  registerZstdCodec();
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()),
    // kafkajs logs routine rebalances at INFO; WARN keeps the log about problems.
    logLevel: KafkaLogLevel.WARN,
    logCreator: kafkaLogCreator(logger),
    retry: { initialRetryTime: 100, retries: 8 },
  });
}
