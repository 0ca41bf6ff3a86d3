import pino from 'pino';
import { CompressionCodec, ensureTopics } from '@switchyard/kafka';
import { eventually, freshNamespace, testKafka, TopicReader } from '../../../../test/support/kafka-test-kit';
import { BatchHandler, HandledBatch } from './batch-handler';
import { ConsumeTransformProduce } from './consume-transform-produce';

jest.setTimeout(90_000);

/**
 * The pipeline on the real broker when its consumer crashes on an error kafkajs does not restart
 * after: a TypeError thrown by a handler, as a bug in a use case would. The pipeline must come
 * back by itself and route every input record, the one it crashed on included.
 */
describe.each([false, true])(
  'ConsumeTransformProduce after a crash kafkajs gives up on (transactional: %s)',
  (transactional) => {
    it('restarts its consumer and writes an output for every input record', async () => {
      const kafka = testKafka();
      const ns = freshNamespace('ctp-crash');
      const [input, output] = [`${ns}.in`, `${ns}.out`];
      await ensureTopics(kafka, [
        { topic: input, numPartitions: 2 },
        { topic: output, numPartitions: 2 },
      ]);
      const values = Array.from({ length: 20 }, (_, i) => `record-${i}`);
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({
        topic: input,
        messages: values.map((value, i) => ({ key: `user-${i % 4}`, value: JSON.stringify(value) })),
      });
      await producer.disconnect();

      let crashed = false;
      const handler: BatchHandler = {
        handle: async (batch): Promise<HandledBatch> => {
          if (!crashed && batch.messages.some((m) => m.value?.toString() === '"record-10"')) {
            crashed = true;
            throw new TypeError("Cannot read properties of undefined (reading 'destinations')");
          }
          return {
            outputs: batch.messages.map((m) => ({ topic: output, key: m.key!.toString(), value: m.value })),
            changelog: [],
          };
        },
      };
      const logged: { msg: string; cause?: string }[] = [];
      const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
      const pipeline = new ConsumeTransformProduce(
        kafka,
        {
          name: 'test',
          groupId: `${ns}.group`,
          topics: [input],
          transactional,
          compression: CompressionCodec.None,
          sessionTimeoutMs: 10_000,
          commitIntervalMs: 100,
        },
        handler,
        logger,
      );
      const reader = await TopicReader.start<string>([output]);
      try {
        await pipeline.start();
        // At-least-once: records routed before the crash may come again, so wait for each value, not for a count.
        await eventually(
          () => values.every((v) => reader.records.some((r) => r.value === v)),
          60_000,
          'an output for every input record',
        );

        expect(crashed).toBe(true);
        expect(logged).toContainEqual(
          expect.objectContaining({
            msg: 'consumer crashed on an error kafkajs does not restart after; restarting it',
            cause: expect.stringContaining('Cannot read properties'),
          }),
        );
        await eventually(() => pipeline.isRunning, 30_000, 'the pipeline running again');
      } finally {
        await pipeline.stop();
        await reader.stop();
      }
    });
  },
);
