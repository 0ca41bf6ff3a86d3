/**
 * Prints the records of a Switchyard topic from the beginning, then follows it (Ctrl-C stops).
 *   npm run kafka:tail -- events            # switchyard.events.ingested.v1
 *   npm run kafka:tail -- deliveries        # or eventsDead, deliveriesDead, audiences, deletions, …
 * KAFKA_BROKERS and TOPIC_NAMESPACE select the broker and namespace; the KAFKA_SSL* and
 * KAFKA_SASL_* settings connect to a secured cluster as the services do.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { kafkaClientSettingsFromEnv, kafkaConnection } from '@switchyard/config';
import { topicNames, TopicNames } from '@switchyard/contracts';
import { createKafka } from '@switchyard/kafka';

const which = (process.argv[2] ?? 'events') as keyof TopicNames;
const topics = topicNames(process.env.TOPIC_NAMESPACE ?? 'switchyard');
const topic = typeof topics[which] === 'string' ? (topics[which] as string) : which;
// createKafka registers the zstd codec the services write with by default.
const kafka = createKafka(
  'switchyard-tail',
  kafkaConnection(kafkaClientSettingsFromEnv(process.env)),
  pino({ level: 'silent' }),
);
const consumer = kafka.consumer({ groupId: `switchyard-tail-${randomUUID()}` });

async function main() {
  process.stderr.write(`tailing ${topic} (Ctrl-C to stop); the services create it at start-up\n`);
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const headers = Object.fromEntries(
        Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
      );
      process.stdout.write(
        `${JSON.stringify({ partition, offset: message.offset, key: message.key?.toString(), headers, value: JSON.parse(message.value?.toString() ?? 'null') })}\n`,
      );
    },
  });
}
process.on('SIGINT', () => void consumer.disconnect().then(() => process.exit(0)));
main().catch((error) => {
  process.stderr.write(`tail failed: ${(error as Error).message}\n`);
  process.exit(1);
});
