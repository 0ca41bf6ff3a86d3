import { Kafka, Partitioners } from 'kafkajs';
import { KafkaClient } from './kafka-port';

/**
 * kafkajs's objects satisfy the port's interfaces as they are; only the producer's settings are
 * fixed here. Every producer writes only to topics created at start-up, and uses the default
 * (Java-compatible murmur2) partitioner, which keeps one key on one partition and honours a
 * record's explicit partition.
 */
export function kafkaPort(kafka: Kafka): KafkaClient {
  return {
    producer: (options) =>
      kafka.producer({
        ...options,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
    consumer: (options) => kafka.consumer(options),
    admin: (options) => kafka.admin(options),
  };
}
