import { EventEmitter } from 'node:events';
import type {
  BatchPayload,
  ConsumerRunOptions,
  KafkaConsumer,
  RecordBatch,
  TopicPartitions,
} from './kafka-port';
import { MAX_HANDED_OVER_RECORDS, PausableConsumer, takingLocalWrites } from './local-write-consumer';
import { LocalWrites, publishingLocalWrites } from './local-writes';

const CLUSTER = 'broker-a:9092';
const TOPIC = 'events';

/** The client's consumer as far as the wrapper uses it; fetched batches and joins are made by hand. */
function fakeClientConsumer() {
  const emitter = new EventEmitter();
  let run: ConsumerRunOptions | undefined;
  const paused: TopicPartitions[] = [];
  const resolved: string[] = [];
  const sought: string[] = [];
  const consumer = {
    events: {
      GROUP_JOIN: 'consumer.group_join',
      CRASH: 'consumer.crash',
      STOP: 'consumer.stop',
      DISCONNECT: 'consumer.disconnect',
      END_BATCH_PROCESS: 'consumer.end_batch_process',
    },
    on: (event: string, listener: (e: unknown) => void) => {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
    connect: async () => undefined,
    disconnect: async () => undefined,
    run: async (options: ConsumerRunOptions) => {
      run = options;
    },
    seek: ({ offset }: { offset: string }) => sought.push(offset),
    pause: (topics: TopicPartitions[]) => paused.push(...topics),
    resume: () => paused.splice(0),
    paused: () => paused,
  } as unknown as PausableConsumer;
  return {
    consumer,
    resolved,
    sought,
    join: (assignment: Record<string, number[]> = { [TOPIC]: [0] }) =>
      emitter.emit('consumer.group_join', { payload: { memberAssignment: assignment } }),
    crash: () => emitter.emit('consumer.crash', { payload: { error: new Error('away'), restart: true } }),
    /** Hands the wrapped handler a fetched batch of `offsets`, as the client would. */
    fetch: (offsets: number[], partition = 0) =>
      run!.eachBatch!({
        batch: batchOf(offsets, partition),
        resolveOffset: (offset) => resolved.push(offset),
        heartbeat: async () => undefined,
        isRunning: () => true,
        isStale: () => false,
        pause: () => () => undefined,
      }),
  };
}

function batchOf(offsets: number[], partition: number): RecordBatch {
  const messages = offsets.map((offset) => ({
    key: Buffer.from('k'),
    value: Buffer.from(`fetched ${offset}`),
    headers: {},
    offset: String(offset),
    timestamp: '0',
  }));
  return {
    topic: TOPIC,
    partition,
    highWatermark: String((offsets.at(-1) ?? 0) + 1),
    messages,
    isEmpty: () => messages.length === 0,
    firstOffset: () => messages[0]?.offset ?? null,
    lastOffset: () => messages.at(-1)?.offset ?? '-1',
  };
}

/** A handler that records every record it is handed and resolves them all, unless told to hold. */
function recordingHandler() {
  const seen: { offset: string; value: string }[] = [];
  let hold: Promise<void> | undefined;
  let fail = false;
  return {
    seen,
    /** Keeps the next batch in hand until the returned function is called. */
    holdNext(): () => void {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    failNext() {
      fail = true;
    },
    eachBatch: async ({ batch, resolveOffset }: BatchPayload) => {
      for (const message of batch.messages)
        seen.push({ offset: message.offset, value: String(message.value) });
      const waiting = hold;
      hold = undefined;
      if (waiting) await waiting;
      if (fail) {
        fail = false;
        throw new Error('handler failed');
      }
      if (!batch.isEmpty()) resolveOffset(batch.lastOffset());
    },
  };
}

async function started(eachBatch?: (payload: BatchPayload) => Promise<void>) {
  const writes = new LocalWrites();
  const client = fakeClientConsumer();
  const consumer: KafkaConsumer = takingLocalWrites(client.consumer, [TOPIC], writes, CLUSTER);
  const handler = recordingHandler();
  await consumer.connect();
  await consumer.run({ eachBatch: eachBatch ?? handler.eachBatch });
  client.join();
  return { client, consumer, handler, writes };
}

function written(
  writes: LocalWrites,
  baseOffset: number,
  values: string[],
  partition = 0,
  cluster = CLUSTER,
) {
  writes.publish(
    cluster,
    [
      {
        topicName: TOPIC,
        partition,
        baseOffset: String(baseOffset),
        messages: values.map((value) => ({ key: 'k', value, headers: { traceparent: 'tp' } })),
      },
    ],
    '1700000000000',
  );
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('takingLocalWrites', () => {
  it('hands a write over once the handler has resolved every record before it', async () => {
    const { client, handler, writes } = await started();
    written(writes, 5, ['early']); // the position is not known yet: left to the fetch
    await client.fetch([3, 4]);
    written(writes, 5, ['a', 'b']);
    await settle();

    expect(handler.seen).toEqual([
      { offset: '3', value: 'fetched 3' },
      { offset: '4', value: 'fetched 4' },
      { offset: '5', value: 'a' },
      { offset: '6', value: 'b' },
    ]);
  });

  it('hands the records over as a fetch would bring them', async () => {
    const batches: RecordBatch[] = [];
    const { client, writes } = await started(async ({ batch, resolveOffset }) => {
      batches.push(batch);
      resolveOffset(batch.lastOffset());
    });
    await client.fetch([0]);
    written(writes, 1, ['a']);
    await settle();

    const local = batches[1];
    expect({ ...local.messages[0], value: String(local.messages[0].value) }).toEqual({
      key: Buffer.from('k'),
      value: 'a',
      headers: { traceparent: 'tp' },
      offset: '1',
      timestamp: '1700000000000',
    });
    expect([local.firstOffset(), local.lastOffset(), local.highWatermark]).toEqual(['1', '1', '2']);
  });

  it('leaves out of a fetched batch the records already handed over, and resolves a batch of nothing else', async () => {
    const { client, handler, writes } = await started();
    await client.fetch([0]);
    written(writes, 1, ['a', 'b']);
    await settle();
    await client.fetch([1, 2, 3]);
    await client.fetch([1, 2]);

    expect(handler.seen.map(({ offset, value }) => `${offset} ${value}`)).toEqual([
      '0 fetched 0',
      '1 a',
      '2 b',
      '3 fetched 3',
    ]);
    expect(client.resolved).toEqual(['0', '3', '2']);
  });

  it('holds a fetched batch until the handed-over one of its partition has finished', async () => {
    const { client, handler, writes } = await started();
    await client.fetch([0]);
    const finish = handler.holdNext();
    written(writes, 1, ['a']);
    const fetching = client.fetch([1, 2]);
    await settle();
    expect(handler.seen.map((s) => s.offset)).toEqual(['0', '1']);

    finish();
    await fetching;
    expect(handler.seen.map((s) => s.offset)).toEqual(['0', '1', '2']);
  });

  it('leaves to the fetch what a failed handed-over batch did not resolve', async () => {
    const { client, handler, writes } = await started();
    await client.fetch([0]);
    handler.failNext();
    written(writes, 1, ['a']);
    await settle();
    await client.fetch([1]);

    expect(handler.seen.map(({ offset, value }) => `${offset} ${value}`)).toEqual([
      '0 fetched 0',
      '1 a',
      '1 fetched 1',
    ]);
  });

  it.each([
    ['records before it are unread', (w: LocalWrites) => written(w, 2, ['a'])],
    ['it is of a partition this member does not own', (w: LocalWrites) => written(w, 1, ['a'], 1)],
    ['it is of another cluster', (w: LocalWrites) => written(w, 1, ['a'], 0, 'broker-b:9092')],
    [
      'it holds more records than a quiet pipeline writes at once',
      (w: LocalWrites) => written(w, 1, Array.from({ length: MAX_HANDED_OVER_RECORDS + 1 }, String)),
    ],
  ])('does not hand a write over when %s', async (_case, write) => {
    const { client, handler, writes } = await started();
    await client.fetch([0]);
    write(writes);
    await settle();

    expect(handler.seen.map((s) => s.offset)).toEqual(['0']);
  });

  it('does not hand a write over while a batch of its partition is in hand', async () => {
    const { client, handler, writes } = await started();
    await client.fetch([0]);
    const finish = handler.holdNext();
    const fetching = client.fetch([1]);
    await settle();
    written(writes, 2, ['a']); // the position is 1 until the batch in hand resolves
    finish();
    await fetching;
    written(writes, 2, ['b']);
    await settle();

    expect(handler.seen.map(({ offset, value }) => `${offset} ${value}`)).toEqual([
      '0 fetched 0',
      '1 fetched 1',
      '2 b',
    ]);
  });

  it('does not hand a write over to a paused partition, after a seek, a new generation or a crash', async () => {
    const { client, consumer, handler, writes } = await started();
    await client.fetch([0]);
    consumer.pause([{ topic: TOPIC, partitions: [0] }]);
    written(writes, 1, ['paused']);
    consumer.resume([{ topic: TOPIC, partitions: [0] }]);

    consumer.seek({ topic: TOPIC, partition: 0, offset: '1' });
    written(writes, 1, ['sought']);
    await client.fetch([0]);

    client.join();
    written(writes, 1, ['rejoined']);
    await client.fetch([0]);

    client.crash();
    written(writes, 1, ['crashed']);
    await settle();

    expect(handler.seen.map((s) => s.value)).toEqual(['fetched 0', 'fetched 0', 'fetched 0']);
    expect(client.sought).toEqual(['1']);
  });

  it('does not take its position from a batch of an earlier generation', async () => {
    const { client, handler, writes } = await started();
    await client.fetch([0]);
    const finish = handler.holdNext();
    const fetching = client.fetch([1]);
    await settle();
    client.join(); // the new generation reads again from the committed offset
    finish();
    await fetching;
    written(writes, 2, ['after the rejoin']);
    await settle();

    expect(handler.seen.map((s) => s.offset)).toEqual(['0', '1']);
  });

  it('stops listening once disconnected', async () => {
    const { client, consumer, handler, writes } = await started();
    await client.fetch([0]);
    await consumer.disconnect();
    written(writes, 1, ['a']);
    await settle();

    expect(handler.seen.map((s) => s.offset)).toEqual(['0']);
  });
});

describe('publishingLocalWrites', () => {
  function producerAnswering() {
    const answer = [{ topicName: TOPIC, partition: 0, baseOffset: '7', messages: [{ value: 'v' }] }];
    return {
      connect: async () => undefined,
      sendBatch: async () => answer,
      send: async () => answer,
    } as never;
  }

  it('publishes what the broker acknowledged with acks = all, and nothing else', async () => {
    const writes = new LocalWrites();
    const seen: number[] = [];
    writes.listen(CLUSTER, TOPIC, (write) => seen.push(write.baseOffset));
    const producer = publishingLocalWrites(producerAnswering(), writes, CLUSTER);

    await producer.sendBatch({ topicMessages: [] });
    await producer.send({ topic: TOPIC, messages: [], acks: -1 });
    await producer.send({ topic: TOPIC, messages: [], acks: 1 });

    expect(seen).toEqual([7, 7]);
  });

  it('resolves the send even when a listener throws', async () => {
    const writes = new LocalWrites();
    writes.listen(CLUSTER, TOPIC, () => {
      throw new Error('listener failed');
    });
    const producer = publishingLocalWrites(producerAnswering(), writes, CLUSTER);

    await expect(producer.sendBatch({ topicMessages: [] })).resolves.toHaveLength(1);
  });
});
