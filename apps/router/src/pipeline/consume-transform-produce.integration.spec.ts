import pino from 'pino';
import { CompressionCodec, ensureTopics, KafkaClient } from '@switchyard/kafka';
import { deferred } from '../../../../test/support/deferred';
import {
  committedToEnd,
  eventually,
  freshNamespace,
  groupMember,
  RawConsumer,
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
    const pipeline = uncommittingPipeline(kafka, `${ns}.group`, input, handler);
    let member: { leave: () => Promise<void> } | undefined;
    try {
      await pipeline.start();
      const before = partitions.flatMap((p) => [0, 1, 2].map((i) => `before-${p}-${i}`));
      for (const p of partitions) await sendTo(p, before.slice(3 * p, 3 * p + 3));
      await eventually(() => before.every((v) => handled.includes(v)), 30_000, 'every record routed');

      const joined = (member = await groupMember(`${ns}.group`, [input]));
      const kept = partitions.filter((p) => !joined.taken.includes(p));
      expect(kept.length).toBeGreaterThan(0);

      // One more record on each kept partition: it comes after anything read there again.
      const after = kept.map((p) => `after-${p}`);
      for (const [i, p] of kept.entries()) await sendTo(p, [after[i]]);
      await eventually(() => after.every((v) => handled.includes(v)), 30_000, 'the later records routed');
      // Nothing is routed twice: neither what was routed before the join, nor a later record taken
      // while the pipeline was still rejoining (the test's producer is in the same process).
      const routedTwice = handled.filter((v, i) => handled.indexOf(v) !== i);
      expect(routedTwice).toEqual([]);
      expect([...handled].sort()).toEqual([...before, ...after].sort());
    } finally {
      await member?.leave();
      await pipeline.stop();
      await producer.disconnect();
    }
  });

  it('routes a record handed over during its rejoin once, though it finishes after the rejoin', async () => {
    // The one process hands a write to the router as soon as the broker acknowledges it, even while
    // the router's consumer is rejoining its group. Finished after the new generation has sought to
    // the positions finished before, that record is fetched again; it must not be routed again.
    const baseKafka = testKafka();
    // kafkajs's own consumer under the port, whose REBALANCING event says the pipeline is rejoining.
    let consumer: RawConsumer | undefined;
    const kafka: KafkaClient = {
      ...baseKafka,
      consumer: (options) => (consumer = baseKafka.consumer(options) as unknown as RawConsumer),
    };
    const ns = freshNamespace('ctp-handover');
    const [input, output] = [`${ns}.in`, `${ns}.out`];
    const groupId = `${ns}.group`;
    // Six partitions: a member's share among two members and its share among three always overlap.
    await ensureTopics(kafka, [
      { topic: input, numPartitions: 6 },
      { topic: output, numPartitions: 1 },
    ]);
    const producer = kafka.producer();
    await producer.connect();
    const sendTo = (partition: number, value: string) =>
      producer.send({ topic: input, messages: [{ key: value, value: JSON.stringify(value), partition }] });

    const assignments: number[][] = [];
    const handled: Array<{ value: string; generation: number }> = [];
    const heldGate = deferred();
    const handler: BatchHandler = {
      handle: async (batch): Promise<HandledBatch> => {
        const values = batch.messages.map((m) => JSON.parse(m.value!.toString()) as string);
        for (const value of values) handled.push({ value, generation: assignments.length });
        if (values.some((v) => v.startsWith('held-'))) await heldGate.promise;
        return { outputs: values.map((value) => ({ topic: output, key: value, value })), changelog: [] };
      },
      onAssigned: (partitions) => assignments.push(partitions[input] ?? []),
    };
    const pipeline = uncommittingPipeline(kafka, groupId, input, handler);
    const blockerGate = deferred();
    let blocked = false;
    let blocking: Awaited<ReturnType<typeof groupMember>> | undefined;
    let third: Promise<{ leave: () => Promise<void> }> | undefined;
    try {
      await pipeline.start();
      // A second member that stops at its first batch until told, so that a third member's join
      // keeps the group rebalancing, and the pipeline rejoining, for as long as the test needs.
      blocking = await groupMember(groupId, [input], async (records) => {
        if (records === 0) return;
        blocked = true;
        await blockerGate.promise;
      });
      await eventually(() => assignments.length === 2, 30_000, 'the pipeline in the two-member generation');
      const owned = assignments[1];

      // A record routed on each of its partitions in this generation, so the next is handed over.
      for (const p of owned) await sendTo(p, `warm-${p}`);
      await eventually(
        () => owned.every((p) => handled.some((h) => h.value === `warm-${p}`)),
        30_000,
        'the warm-up records routed',
      );
      await sendTo(blocking.taken[0], 'blocker');
      await eventually(() => blocked, 30_000, 'the second member stopped at its batch');

      const rejoining = new Promise<void>((resolve) =>
        consumer!.on(consumer!.events.REBALANCING, () => resolve()),
      );
      third = groupMember(groupId, [input]);
      await rejoining;
      // The pipeline is rejoining, and cannot finish before the blocked member rejoins too.
      for (const p of owned) await sendTo(p, `held-${p}`);
      await eventually(
        () => owned.every((p) => handled.some((h) => h.value === `held-${p}`)),
        30_000,
        'the held records handed over',
      );
      expect(handled.filter((h) => h.value.startsWith('held-')).map((h) => h.generation)).toEqual(
        owned.map(() => 2),
      );

      blockerGate.resolve();
      await eventually(() => assignments.length === 3, 30_000, 'the pipeline in the three-member generation');
      heldGate.resolve();
      const kept = assignments[2].filter((p) => owned.includes(p));
      expect(kept.length).toBeGreaterThan(0);
      // A later record on each kept partition: the fetch that brings it brings anything read again.
      for (const p of kept) await sendTo(p, `after-${p}`);
      await eventually(
        () => kept.every((p) => handled.some((h) => h.value === `after-${p}`)),
        30_000,
        'the later records routed',
      );
      const routedTwice = kept
        .map((p) => `held-${p}`)
        .filter((value) => handled.filter((h) => h.value === value).length > 1);
      expect(routedTwice).toEqual([]);
    } finally {
      blockerGate.resolve();
      heldGate.resolve();
      await (await third)?.leave();
      await blocking?.leave();
      await pipeline.stop();
      await producer.disconnect();
    }
  });
});

/**
 * Without transactions the pipeline commits what it routed within its commit interval while it
 * runs (its commit timer is set only while something waits), not only when it stops: a crash
 * replays at most an interval's records.
 */
describe('ConsumeTransformProduce commits', () => {
  it('commits the records it routed while it runs', async () => {
    const kafka = testKafka();
    const ns = freshNamespace('ctp-commit');
    const [input, output] = [`${ns}.in`, `${ns}.out`];
    await ensureTopics(kafka, [
      { topic: input, numPartitions: 2 },
      { topic: output, numPartitions: 1 },
    ]);
    const handler: BatchHandler = {
      handle: async (batch): Promise<HandledBatch> => ({
        outputs: batch.messages.map((m) => ({ topic: output, key: m.key!.toString(), value: m.value })),
        changelog: [],
      }),
    };
    const pipeline = atLeastOncePipeline(kafka, `${ns}.group`, input, handler, 100);
    const producer = kafka.producer();
    const admin = kafka.admin();
    await Promise.all([producer.connect(), admin.connect()]);
    try {
      await pipeline.start();
      for (const round of [1, 2]) {
        await producer.send({
          topic: input,
          messages: Array.from({ length: 6 }, (_, i) => ({ key: `user-${i}`, value: `"${round}-${i}"` })),
        });
        await eventually(
          () => committedToEnd(admin, `${ns}.group`, input),
          20_000,
          `round ${round}'s records committed`,
        );
      }
    } finally {
      await pipeline.stop();
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    }
  });
});

/** An at-least-once pipeline that commits nothing during a test, as while the group's coordinator is lost. */
function uncommittingPipeline(
  kafka: KafkaClient,
  groupId: string,
  input: string,
  handler: BatchHandler,
): ConsumeTransformProduce {
  return atLeastOncePipeline(kafka, groupId, input, handler, 600_000);
}

function atLeastOncePipeline(
  kafka: KafkaClient,
  groupId: string,
  input: string,
  handler: BatchHandler,
  commitIntervalMs: number,
): ConsumeTransformProduce {
  return new ConsumeTransformProduce(
    kafka,
    {
      name: 'test',
      groupId,
      topics: [input],
      transactional: false,
      compression: CompressionCodec.None,
      sessionTimeoutMs: 10_000,
      commitIntervalMs,
    },
    handler,
    pino({ level: 'silent' }),
  );
}
