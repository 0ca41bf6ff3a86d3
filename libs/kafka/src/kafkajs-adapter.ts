import { Kafka, Partitioners } from 'kafkajs';
import { KafkaClient } from './kafka-port';
import { takingLocalWrites } from './local-write-consumer';
import { processLocalWrites, publishingLocalWrites } from './local-writes';

/**
 * kafkajs's objects satisfy the port's interfaces as they are; only the producer's settings are
 * fixed here. Every producer writes only to topics created at start-up, and uses the default
 * (Java-compatible murmur2) partitioner, which keeps one key on one partition and honours a
 * record's explicit partition.
 *
 * Producers tell the process's consumers what they wrote (`ConsumerOptions.localWrites`);
 * `cluster` names the cluster those writes belong to.
 */
export function kafkaPort(kafka: Kafka, cluster: string): KafkaClient {
  return {
    producer: (options) =>
      publishingLocalWrites(
        kafka.producer({
          ...options,
          allowAutoTopicCreation: false,
          createPartitioner: Partitioners.DefaultPartitioner,
        }),
        processLocalWrites,
        cluster,
      ),
    consumer: ({ localWrites, ...options }) =>
      localWrites?.length
        ? takingLocalWrites(kafka.consumer(options), localWrites, processLocalWrites, cluster)
        : kafka.consumer(options),
    admin: (options) => kafka.admin(options),
  };
}
