import { Kafka, logLevel as KafkaLogLevel, LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import { registerZstdCodec } from './compression';

const LEVEL_NAMES: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [KafkaLogLevel.ERROR]: 'error',
  [KafkaLogLevel.WARN]: 'warn',
  [KafkaLogLevel.INFO]: 'info',
  [KafkaLogLevel.DEBUG]: 'debug',
};

/** A kafkajs client whose logs go through the service's pino logger. */
export function createKafka(clientId: string, brokers: string, logger: Logger): Kafka {
  registerZstdCodec();
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()),
    // kafkajs logs routine rebalances at INFO; WARN keeps the log about problems.
    logLevel: KafkaLogLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...extra } = log;
        kafkaLogger[LEVEL_NAMES[level] ?? 'info'](extra, message);
      },
    retry: { initialRetryTime: 100, retries: 8 },
  });
}
