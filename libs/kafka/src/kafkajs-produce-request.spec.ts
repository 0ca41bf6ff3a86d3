import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, producer side: a Produce request is sized, then written in one
 * pass into one buffer (record batches and their CRC-32C included), the CRC goes eight bytes per
 * step, and a request is framed with one copy of its payload. The bytes must be the ones kafkajs
 * wrote before: here they are compared with upstream's composition of its record and record
 * batch encoders, over generated requests, and the CRC with a bit-by-bit reference.
 */
const load = createRequire(__filename);
interface Encoder {
  buffer: Buffer;
  size(): number;
  writeInt16(value: number): Encoder;
  writeInt32(value: number): Encoder;
  writeString(value: string | null): Encoder;
  writeEncoder(value: Encoder): Encoder;
  writeArray(values: Encoder[]): Encoder;
}
type Message = { key?: unknown; value?: unknown; headers?: Record<string, unknown>; timestamp?: string };
type Partition = { partition: number; firstSequence?: number; messages: Message[] };
type TopicData = { topic: string; partitions: Partition[] };
interface ProduceArgs {
  acks: number;
  timeout: number;
  transactionalId?: string | null;
  producerId?: unknown;
  producerEpoch?: number;
  compression?: number;
  topicData: TopicData[];
}
type Request = { apiKey: number; apiVersion: number; encode(): Promise<Encoder> };

const EncoderClass = load('kafkajs/src/protocol/encoder') as new () => Encoder;
const Long = load('kafkajs/src/utils/long') as { fromInt(value: number): unknown };
const produceV3 = load('kafkajs/src/protocol/requests/produce/v3/request') as (args: ProduceArgs) => Request;
const frameRequest = load('kafkajs/src/protocol/request') as (args: {
  correlationId: number;
  clientId: string | null;
  request: Request;
}) => Promise<Encoder>;
const crc32C = load('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Uint8Array) => number;
const encodeRecord = load('kafkajs/src/protocol/recordBatch/record/v0') as (record: object) => Encoder;
const { RecordBatch } = load('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch(batch: object): Promise<Encoder>;
};
const { Types } = load('kafkajs/src/protocol/message/compression') as {
  Types: { None: number; GZIP: number };
};

/** kafkajs's Produce v3 request as upstream composed it: an encoder per record, batch, partition and topic. */
async function upstreamProduceRequest(args: ProduceArgs): Promise<Buffer> {
  const { transactionalId = null, producerId = Long.fromInt(-1), producerEpoch = 0 } = args;
  const topics: Encoder[] = [];
  for (const { topic, partitions } of args.topicData) {
    const encodedPartitions: Encoder[] = [];
    for (const { partition, messages, firstSequence } of partitions) {
      const now = Date.now();
      const stamps = messages.map((m) => m.timestamp).filter((t) => t != null);
      const timestamps = stamps.length === 0 ? [now] : stamps.sort();
      const first = timestamps[0];
      const records = messages.map((message, i) =>
        encodeRecord({
          ...message,
          offsetDelta: i,
          timestampDelta: Number(message.timestamp || now) - Number(first),
        }),
      );
      const batch = await RecordBatch({
        compression: args.compression ?? Types.None,
        records,
        firstTimestamp: first,
        maxTimestamp: timestamps[timestamps.length - 1],
        producerId,
        producerEpoch,
        firstSequence,
        transactional: !!transactionalId,
        lastOffsetDelta: records.length - 1,
      });
      encodedPartitions.push(
        new EncoderClass().writeInt32(partition).writeInt32(batch.size()).writeEncoder(batch),
      );
    }
    topics.push(new EncoderClass().writeString(topic).writeArray(encodedPartitions));
  }
  return new EncoderClass()
    .writeString(transactionalId)
    .writeInt16(args.acks)
    .writeInt32(args.timeout)
    .writeArray(topics).buffer;
}

/** CRC-32C one bit at a time, straight from the reflected polynomial. */
function crc32CBitwise(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Where two buffers first differ (-1: nowhere): jest compares large buffers byte by byte, slowly. */
function difference(actual: Buffer, expected: Buffer) {
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  return { length: actual.length, firstDifference: at === actual.length && at === expected.length ? -1 : at };
}

const sameBytes = (expected: Buffer) => ({ length: expected.length, firstDifference: -1 });

/** A small deterministic generator, so a failure names a case that can be run again. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(choices: T[]): T => choices[int(choices.length)];
  const text = (length: number) =>
    Array.from({ length }, () => pick(['a', 'ü', 'é', '😀', ' ', '"', '\\', 'z', '日'])).join('');
  return { int, pick, text };
}

function generatedRequest(seed: number): ProduceArgs {
  const g = generator(seed);
  const part = () =>
    g.pick<() => unknown>([
      () => g.text(g.int(40)),
      () => Buffer.from(g.text(g.int(40))),
      () => '',
      () => g.text(2_000 + g.int(20_000)),
    ])();
  const message = (): Message => {
    const headers: Record<string, unknown> = {};
    for (let h = g.int(4); h > 0; h--) {
      headers[`h-${g.text(3)}`] = g.int(3) === 0 ? [g.text(5), Buffer.from(g.text(4))] : part();
    }
    return {
      key: g.pick<() => unknown>([() => null, () => undefined, part])(),
      value: g.pick<() => unknown>([() => null, part, part])(),
      ...(g.int(2) ? { headers } : {}),
      ...(g.int(3) ? { timestamp: String(1_795_000_000_000 + g.int(100_000)) } : {}),
    };
  };
  return {
    acks: g.pick([-1, 1, 0]),
    timeout: g.int(60_000),
    ...(g.int(3) === 0 ? { transactionalId: `tx-${g.text(4)}` } : {}),
    ...(g.int(2) ? { producerId: Long.fromInt(g.int(1_000_000)), producerEpoch: g.int(5) } : {}),
    topicData: Array.from({ length: 1 + g.int(3) }, (_, t) => ({
      topic: `topic-${t}-${g.text(3)}`,
      partitions: Array.from({ length: 1 + g.int(3) }, (_, p) => ({
        partition: p * 2 + g.int(2),
        ...(g.int(2) ? { firstSequence: g.int(100_000) } : {}),
        messages: Array.from({ length: 1 + g.int(5) }, message),
      })),
    })),
  };
}

describe('kafkajs produce request (patched)', () => {
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(1_795_000_050_000));
  afterEach(() => jest.restoreAllMocks());

  it('computes CRC-32C: the check value, and the bit-by-bit result at every length and offset', () => {
    expect(crc32C(Buffer.from('123456789'))).toBe(0xe3069283);
    const g = generator(7);
    const bytes = Buffer.from(Array.from({ length: 5_000 }, () => g.int(256)));
    for (let length = 0; length <= 70; length++) {
      for (const offset of [0, 1, 3, 5]) {
        const slice = bytes.subarray(offset, offset + length);
        expect(crc32C(slice)).toBe(crc32CBitwise(slice));
      }
    }
    expect(crc32C(bytes)).toBe(crc32CBitwise(bytes));
  });

  it.each(Array.from({ length: 120 }, (_, i) => i + 1))(
    'writes generated request %d byte for byte as upstream, uncompressed',
    async (seed) => {
      const args = generatedRequest(seed);
      const expected = await upstreamProduceRequest(args);
      expect(difference((await produceV3(args).encode()).buffer, expected)).toEqual(sameBytes(expected));
    },
  );

  it.each([1, 2, 3, 4, 5, 6])(
    'writes generated request %d byte for byte as upstream, compressed',
    async (seed) => {
      const args = { ...generatedRequest(seed), compression: Types.GZIP };
      const expected = await upstreamProduceRequest(args);
      expect(difference((await produceV3(args).encode()).buffer, expected)).toEqual(sameBytes(expected));
    },
  );

  it('frames a request behind its size and header with the same bytes as upstream', async () => {
    const request = produceV3(generatedRequest(11));
    const payload = (await request.encode()).buffer;
    for (const clientId of ['switchyard-ingest', 'ünïcode', '', null]) {
      const header = new EncoderClass()
        .writeInt16(request.apiKey)
        .writeInt16(request.apiVersion)
        .writeInt32(42)
        .writeString(clientId);
      const expected = Buffer.concat([Buffer.alloc(4), header.buffer, payload]);
      expected.writeInt32BE(expected.length - 4, 0);
      const framed = (await frameRequest({ correlationId: 42, clientId, request })).buffer;
      expect(difference(framed, expected)).toEqual(sameBytes(expected));
    }
  });
});
