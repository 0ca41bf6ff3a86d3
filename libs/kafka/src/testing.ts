import { Kafka, logLevel } from 'kafkajs';
import { createRequire } from 'node:module';
import { registerZstdCodec } from './compression';
import { kafkaPort } from './kafkajs-adapter';
import { KafkaClient } from './kafka-port';

/**
 * For tests only, and not exported from the library's index: clients that log nothing, for suites
 * that write their own input and read the services' output.
 */

/** The client library itself, for the rare test that checks what the port does not offer (a topic's replicas and configs). */
export function rawTestKafka(brokers: string[], clientId = 'switchyard-test'): Kafka {
  // The services write zstd batches; the suites read them with a plain client.
  registerZstdCodec();
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING });
}

/** A client behind the port, as the services use it. */
export function testKafkaClient(brokers: string[]): KafkaClient {
  return kafkaPort(rawTestKafka(brokers), brokers.join(','));
}

const load = createRequire(__filename);
const { createErrorFromCode } = load('kafkajs/src/protocol/error') as {
  createErrorFromCode(code: number): Error;
};
// kafkajs's typings leave out the constructor's options, where the cause goes.
const { KafkaJSNonRetriableError } = load('kafkajs/src/errors') as {
  KafkaJSNonRetriableError: new (error: Error, options: { cause: Error }) => Error;
};

/**
 * What kafkajs throws once its retries gave up on a broker's answer, given as the protocol's
 * error code (5 LEADER_NOT_AVAILABLE, 3 UNKNOWN_TOPIC_OR_PARTITION, 29 TOPIC_AUTHORIZATION_FAILED):
 * a non-retriable error whose cause is the answer.
 */
export function kafkajsGaveUpOn(code: number): Error {
  const answer = createErrorFromCode(code);
  return new KafkaJSNonRetriableError(answer, { cause: answer });
}
