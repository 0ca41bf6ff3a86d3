import pino from 'pino';
import { CompressionCodec, ensureTopics } from '@switchyard/kafka';
import {
  eventually,
  freshNamespace,
  idleGroupMember,
  testKafka,
  TopicReader,
} from '../../../../test/support/kafka-test-kit';
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

/**
 * The pipeline when another member joins its group (a second replica, or the same instance back
 * after its coordinator was lost) while nothing it routed is committed yet: where it keeps a
 * partition it goes on after what it routed, instead of routing it again from the committed offset.
 */
describe('ConsumeTransformProduce through a rebalance', () => {
  it('routes nothing twice from a partition it keeps', async () => {
    const kafka = testKafka();
    const ns = freshNamespace('ctp-rejoin');
    const [input, output] = [`${ns}.in`, `${ns}.out`];
    const partitions = [0, 1, 2, 3];
    await ensureTopics(kafka, [
      { topic: input, numPartitions: partitions.length },
      { topic: output, numPartitions: 1 },
    ]);
    const producer = kafka.producer();
    await producer.connect();
    const sendTo = (partition: number, values: string[]) =>
      producer.send({
        topic: input,
        messages: values.map((value) => ({ key: value, value: JSON.stringify(value), partition })),
      });

    const handled: string[] = [];
    const handler: BatchHandler = {
      handle: async (batch): Promise<HandledBatch> => {
        handled.push(...batch.messages.map((m) => JSON.parse(m.value!.toString()) as string));
        return {
          outputs: batch.messages.map((m) => ({ topic: output, key: m.key!.toString(), value: m.value })),
          changelog: [],
        };
      },
    };
    const pipeline = new ConsumeTransformProduce(
      kafka,
      {
        name: 'test',
        groupId: `${ns}.group`,
        topics: [input],
        transactional: false,
        compression: CompressionCodec.None,
        sessionTimeoutMs: 10_000,
        // Nothing is committed during the test, as while the group's coordinator is lost.
        commitIntervalMs: 600_000,
      },
      handler,
      pino({ level: 'silent' }),
    );
    let member: { leave: () => Promise<void> } | undefined;
    try {
      await pipeline.start();
      const before = partitions.flatMap((p) => [0, 1, 2].map((i) => `before-${p}-${i}`));
      for (const p of partitions) await sendTo(p, before.slice(3 * p, 3 * p + 3));
      await eventually(() => before.every((v) => handled.includes(v)), 30_000, 'every record routed');

      const joined = (member = await idleGroupMember(`${ns}.group`, [input]));
      const kept = partitions.filter((p) => !joined.taken.includes(p));
      expect(kept.length).toBeGreaterThan(0);

      // One more record on each kept partition: it comes after anything read there again.
      const after = kept.map((p) => `after-${p}`);
      for (const [i, p] of kept.entries()) await sendTo(p, [after[i]]);
      await eventually(() => after.every((v) => handled.includes(v)), 30_000, 'the later records routed');
      // What was routed before the join is never routed again. A later record still in flight when
      // the group rebalances once more (a slow machine can take two generations to settle) may be,
      // as at-least-once allows, so the later records are only required to arrive.
      const routedTwice = before.filter((v) => handled.indexOf(v) !== handled.lastIndexOf(v));
      expect(routedTwice).toEqual([]);
      expect(handled.filter((v) => !after.includes(v)).sort()).toEqual([...before].sort());
    } finally {
      await member?.leave();
      await pipeline.stop();
      await producer.disconnect();
    }
  });
});
