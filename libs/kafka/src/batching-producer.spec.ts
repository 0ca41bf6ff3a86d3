import pino from 'pino';
import { CompressionCodec, KafkaProducer, ProduceRequest } from './kafka-port';
import { BatchingProducer, BatchingProducerOptions, STUCK_SEND_MS } from './batching-producer';
import { MIN_COMPRESSED_BATCH_BYTES } from './compression';

/** A stand-in producer whose sendBatch calls the test settles by hand. */
function fakeProducer() {
  const calls: Array<{ batch: ProduceRequest; settle: (error?: Error) => void }> = [];
  const producer = {
    sendBatch: (batch: ProduceRequest) =>
      new Promise((resolve, reject) =>
        calls.push({ batch, settle: (error) => (error ? reject(error) : resolve([])) }),
      ),
  } as unknown as KafkaProducer;
  return { producer, calls };
}

/** Options that batch nothing on their own: each test names what its case turns on. */
const UNBATCHED: BatchingProducerOptions = {
  lingerMs: 0,
  maxBatchRecords: 100,
  maxBatchBytes: 1e6,
  maxInFlight: 1,
  compression: CompressionCodec.None,
};

/** A BatchingProducer over a fake producer, with UNBATCHED but for `options`. */
function batchingWith(options: Partial<BatchingProducerOptions>) {
  const { producer, calls } = fakeProducer();
  return { batching: new BatchingProducer(producer, { ...UNBATCHED, ...options }), calls };
}

const record = (topic: string, key: string) => ({ topic, key, value: key });
/** Lets the producer act: its dispatch at the end of an event-loop turn, and what follows at once. */
const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

// The clock is fake and moves only where a test advances it: whatever is sent before was sent
// without waiting for a timer, and no linger or timeout ends early on a loaded machine.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
afterEach(() => jest.useRealTimers());

describe('BatchingProducer', () => {
  it('gathers concurrent sends into one sendBatch with acks = all, grouped by topic', async () => {
    const { batching, calls } = batchingWith({ lingerMs: 1, maxInFlight: 2 });
    const sends = [batching.send([record('a', '1')]), batching.send([record('b', '2'), record('a', '3')])];
    await endOfTurn();
    expect(calls).toHaveLength(1);
    expect(calls[0].batch.acks).toBe(-1);
    expect(calls[0].batch.topicMessages?.map((t) => [t.topic, t.messages.map((m) => m.key)])).toEqual([
      ['a', ['1', '3']],
      ['b', ['2']],
    ]);
    calls[0].settle();
    await expect(Promise.all(sends)).resolves.toBeDefined();
  });

  it('rejects every caller of a failed batch', async () => {
    const { batching, calls } = batchingWith({});
    const send = batching.send([record('a', '1')]);
    await endOfTurn();
    calls[0].settle(new Error('broker down'));
    await expect(send).rejects.toThrow('broker down');
  });

  it('sends at once when the batch is full, and holds later records while maxInFlight is reached', async () => {
    const { batching, calls } = batchingWith({ lingerMs: 1000, maxBatchRecords: 2 });
    const first = batching.send([record('a', '1'), record('a', '2')]);
    expect(calls).toHaveLength(1);
    const second = batching.send([record('a', '3'), record('a', '4')]);
    expect(calls).toHaveLength(1);
    calls[0].settle();
    await first;
    await endOfTurn();
    expect(calls).toHaveLength(2);
    calls[1].settle();
    await second;
    const drained = batching.drain();
    await expect(drained).resolves.toBeUndefined();
  });

  it('keeps each sendBatch under the byte bound, one caller whole, so the broker never sees an oversize batch', async () => {
    const { batching, calls } = batchingWith({ lingerMs: 1, maxBatchBytes: 1000, maxInFlight: 4 });
    const big = (key: string) => ({ topic: 'a', key, value: 'x'.repeat(400) });
    const sends = [
      batching.send([big('1')]),
      batching.send([big('2')]),
      batching.send([big('3')]),
      batching.send([big('4'), big('5'), big('6')]),
    ];
    await endOfTurn();
    expect(calls.map((c) => c.batch.topicMessages?.[0].messages.map((m) => m.key))).toEqual([
      ['1', '2'],
      ['3'],
      ['4', '5', '6'],
    ]);
    calls.forEach((c) => c.settle());
    await Promise.all(sends);
  });

  it('compresses only batches large enough to repay the fixed cost', async () => {
    const { batching, calls } = batchingWith({ maxBatchBytes: 1e7, compression: CompressionCodec.ZSTD });
    const small = batching.send([record('a', 'small')]);
    await endOfTurn();
    calls[0].settle();
    await small;
    const large = batching.send([
      { topic: 'a', key: 'large', value: 'x'.repeat(MIN_COMPRESSED_BATCH_BYTES) },
    ]);
    await endOfTurn();
    calls[1].settle();
    await large;
    expect(calls.map((c) => c.batch.compression)).toEqual([CompressionCodec.None, CompressionCodec.ZSTD]);
  });

  it('compresses smaller batches when told to', async () => {
    const { batching, calls } = batchingWith({
      maxBatchBytes: 1e7,
      compression: CompressionCodec.ZSTD,
      minCompressedBytes: 0,
    });
    const small = batching.send([record('a', 'small')]);
    await endOfTurn();
    calls[0].settle();
    await small;
    expect(calls[0].batch.compression).toBe(CompressionCodec.ZSTD);
  });
});

describe('BatchingProducer when idle and when busy', () => {
  const keysOf = (call: { batch: ProduceRequest }) =>
    call.batch.topicMessages!.flatMap((t) => t.messages.map((m) => m.key));
  const options = { lingerMs: 60_000 };

  it('sends the single record of an idle producer at once, without a timer and without a second record', async () => {
    const { batching, calls } = batchingWith(options);
    const sent = batching.send([record('a', 'only')]);
    await endOfTurn();
    expect(calls.map(keysOf)).toEqual([['only']]);
    expect(jest.getTimerCount()).toBe(0);
    calls[0].settle();
    await expect(sent).resolves.toBeUndefined();
  });

  it('gathers what callers hand over in one event-loop turn into one request', async () => {
    const { batching, calls } = batchingWith(options);
    const sends = [batching.send([record('a', '1')]), batching.send([record('a', '2'), record('a', '3')])];
    await endOfTurn();
    expect(calls.map(keysOf)).toEqual([['1', '2', '3']]);
    calls[0].settle();
    await Promise.all(sends);
  });

  it('gathers records arriving while a request is in flight for the next one, in order', async () => {
    const { batching, calls } = batchingWith(options);
    const first = batching.send([record('a', '1')]);
    await endOfTurn();
    const burst = [batching.send([record('a', '2')])];
    await endOfTurn();
    burst.push(batching.send([record('a', '3'), record('a', '4')]), batching.send([record('a', '5')]));
    await endOfTurn();
    expect(calls).toHaveLength(1);

    calls[0].settle();
    await first;
    await endOfTurn();
    expect(calls.map(keysOf)).toEqual([['1'], ['2', '3', '4', '5']]);
    calls[1].settle();
    await Promise.all(burst);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('lingers while a request is in flight and another may go, and sends when the linger ends', async () => {
    const { batching, calls } = batchingWith({ ...options, maxInFlight: 2 });
    const first = batching.send([record('a', '1')]);
    await endOfTurn();
    const second = batching.send([record('a', '2')]);
    const third = batching.send([record('a', '3')]);
    await endOfTurn();
    expect(calls).toHaveLength(1);

    jest.advanceTimersByTime(options.lingerMs);
    expect(calls.map(keysOf)).toEqual([['1'], ['2', '3']]);
    calls.forEach((c) => c.settle());
    await Promise.all([first, second, third]);
  });

  it('sends lingering records as soon as the request in flight completes', async () => {
    const { batching, calls } = batchingWith({ ...options, maxInFlight: 2 });
    const first = batching.send([record('a', '1')]);
    await endOfTurn();
    const second = batching.send([record('a', '2')]);
    calls[0].settle();
    await first;
    await endOfTurn();
    expect(calls.map(keysOf)).toEqual([['1'], ['2']]);
    expect(jest.getTimerCount()).toBe(0);
    calls[1].settle();
    await second;
  });
});

describe('BatchingProducer with a timeout', () => {
  const options = { timeoutMs: 20 };

  it('withdraws records still waiting when their time is up, so they are never sent', async () => {
    const { batching, calls } = batchingWith(options);
    const onTheWire = batching.send([record('a', 'sent')]);
    await endOfTurn();
    const waiting = batching.send([record('a', 'waiting')]);
    jest.advanceTimersByTime(options.timeoutMs);
    const [wire, withdrawn] = await Promise.allSettled([onTheWire, waiting]);
    expect(wire).toMatchObject({
      status: 'rejected',
      reason: { name: 'ProduceTimeoutError', withdrawn: false },
    });
    expect(withdrawn).toMatchObject({
      status: 'rejected',
      reason: { name: 'ProduceTimeoutError', withdrawn: true },
    });
    calls[0].settle();
    await batching.drain();
    expect(calls.flatMap((c) => c.batch.topicMessages!.flatMap((t) => t.messages.map((m) => m.key)))).toEqual(
      ['sent'],
    );
  });

  it('resolves a send acknowledged in time, and later answers of a timed-out batch change nothing', async () => {
    const { batching, calls } = batchingWith(options);
    const quick = batching.send([record('a', '1')]);
    await endOfTurn();
    calls[0].settle();
    await expect(quick).resolves.toBeUndefined();
    const late = batching.send([record('a', '2')]);
    await endOfTurn();
    jest.advanceTimersByTime(options.timeoutMs);
    await expect(late).rejects.toThrow(/did not acknowledge within 20 ms/);
    calls[1].settle(new Error('broker down'));
    await batching.drain();
  });

  it('is not writing while a produce request waits in the client’s retries, and tells the outage once', async () => {
    const { producer, calls } = fakeProducer();
    const lines: Array<{ level: number; producer?: string; client?: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    let now = 0;
    // A send while another is in flight lingers, here for 0 ms, which a timer takes as 1 ms.
    const endLinger = () => jest.advanceTimersByTime(1);
    const batching = new BatchingProducer(
      producer,
      { ...UNBATCHED, maxInFlight: 4 },
      { name: 'test-producer', logger },
      () => now,
    );
    const first = batching.send([record('a', '1')]);
    await endOfTurn();
    expect(batching.writing).toBe(true);
    now = STUCK_SEND_MS + 1;
    expect(batching.writing).toBe(false);

    const second = batching.send([record('a', '2')]);
    endLinger();
    calls[0].settle(new Error('Connection error'));
    calls[1].settle(new Error('Connection error'));
    await expect(first).rejects.toThrow('Connection error');
    await expect(second).rejects.toThrow('Connection error');
    expect(batching.writing).toBe(true);

    const third = batching.send([record('a', '3')]);
    await endOfTurn();
    const straggler = batching.send([record('a', '4')]);
    endLinger();
    now += 10;
    calls[2].settle();
    await third;
    // Sent before the recovery, failed after it: no new outage.
    calls[3].settle(new Error('Connection error'));
    await expect(straggler).rejects.toThrow('Connection error');
    expect(lines.map((l) => pino.levels.labels[l.level])).toEqual(['warn', 'info']);
    expect(lines[0]).toMatchObject({ producer: 'test-producer' });
    expect(lines[1]).toMatchObject({ client: 'test-producer' });
  });
});
