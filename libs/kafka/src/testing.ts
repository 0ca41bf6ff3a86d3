import { Kafka, logLevel } from 'kafkajs';
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
