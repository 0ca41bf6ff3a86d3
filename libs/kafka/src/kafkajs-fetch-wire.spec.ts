import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, consumer side: a fetch request is written in one encoder, offsets
 * that are safe integers skip BigInt on both sides, and partitions without records decode without
 * a promise. The bytes and values must be those of the Kafka protocol, computed here independently
 * with BigInt and Buffer.
 */
const load = createRequire(__filename);
interface Encoder {
  writeInt64(value: unknown): Encoder;
  buffer: Buffer;
}
const Encoder = load('kafkajs/src/protocol/encoder') as new () => Encoder;
const Decoder = load('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => {
  readInt64String(): string;
  offset: number;
};
const Long = load('kafkajs/src/utils/long') as { fromValue(value: string): unknown };
const fetchRequest = load('kafkajs/src/protocol/requests/fetch/v11/request') as (request: object) => {
  encode(): Promise<Encoder>;
};
const fetchResponse = load('kafkajs/src/protocol/requests/fetch/v11/response') as {
  decode(data: Buffer): Promise<{ responses: { topicName: string; partitions: FetchedPartition[] }[] }>;
};

interface FetchedPartition {
  partition: number;
  errorCode: number;
  highWatermark: string;
  lastStableOffset: string;
  lastStartOffset: string;
  messages: { offset: string; value: Buffer | null }[];
}

function int64(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
}

function int32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}

function int16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeInt16BE(value);
  return bytes;
}

function string(value: string): Buffer {
  return Buffer.concat([int16(Buffer.byteLength(value)), Buffer.from(value)]);
}

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const EDGES = [
  0n,
  1n,
  -1n,
  2n ** 32n - 1n,
  2n ** 32n,
  -(2n ** 32n),
  -(2n ** 32n) - 1n,
  2n ** 53n - 1n,
  2n ** 53n,
];
const INT64_VALUES = [
  ...EDGES,
  -(2n ** 53n),
  -(2n ** 53n) - 1n,
  2n ** 53n + 1n,
  10n ** 15n - 1n,
  10n ** 15n,
  MAX,
  MIN,
];

describe('kafkajs fetch on the wire (patched)', () => {
  it.each(INT64_VALUES.map(String))('writes and reads the INT64 %s exactly', (text) => {
    const expected = int64(BigInt(text));
    expect(new Encoder().writeInt64(text).buffer).toEqual(expected);
    expect(new Encoder().writeInt64(Long.fromValue(text)).buffer).toEqual(expected);
    const decoder = new Decoder(expected);
    expect(decoder.readInt64String()).toBe(text);
    expect(decoder.offset).toBe(8);
  });

  it('writes numbers and leading zeros as the integers they are', () => {
    expect(new Encoder().writeInt64(-1).buffer).toEqual(int64(-1n));
    expect(new Encoder().writeInt64(Number.MAX_SAFE_INTEGER).buffer).toEqual(int64(2n ** 53n - 1n));
    expect(new Encoder().writeInt64('007').buffer).toEqual(int64(7n));
  });

  it('encodes a fetch of several topics as the protocol lays it out', async () => {
    const topics = [
      {
        topic: 'deliveries',
        partitions: [0, 1, 2].map((p) => ({ partition: p, fetchOffset: `${p * 1e12}`, maxBytes: 1024 })),
      },
      { topic: 'retry-1', partitions: [{ partition: 5, fetchOffset: '9223372036854775807', maxBytes: 7 }] },
    ];
    const request = fetchRequest({
      replicaId: -1,
      maxWaitTime: 100,
      minBytes: 1,
      maxBytes: 2048,
      topics,
      isolationLevel: 1,
    });
    const expected = Buffer.concat([
      int32(-1),
      int32(100),
      int32(1),
      int32(2048),
      Buffer.from([1]),
      int32(0),
      int32(-1),
      int32(topics.length),
      ...topics.flatMap(({ topic, partitions }) => [
        string(topic),
        int32(partitions.length),
        ...partitions.flatMap((p) => [
          int32(p.partition),
          int32(-1),
          int64(BigInt(p.fetchOffset)),
          int64(-1n),
          int32(p.maxBytes),
        ]),
      ]),
      int32(0),
      string(''),
    ]);
    expect((await request.encode()).buffer).toEqual(expected);
  });

  it('decodes partitions without records beside one with records, in order', async () => {
    const empty = (partition: number, highWatermark: bigint) =>
      Buffer.concat([
        int32(partition),
        int16(0),
        int64(highWatermark),
        int64(highWatermark),
        int64(0n),
        int32(-1),
        int32(-1),
        int32(0),
      ]);
    const topicWithRecords = await recordsOfOneMessage();
    const response = Buffer.concat([
      int32(0),
      int16(0),
      int32(0),
      int32(1),
      string('deliveries'),
      int32(3),
      empty(0, 2n ** 40n),
      Buffer.concat([
        int32(1),
        int16(0),
        int64(43n),
        int64(43n),
        int64(0n),
        int32(-1),
        int32(-1),
        topicWithRecords,
      ]),
      empty(2, 2n ** 60n + 1n),
    ]);
    const [topic] = (await fetchResponse.decode(response)).responses;
    expect(topic.topicName).toBe('deliveries');
    expect(topic.partitions.map((p) => [p.partition, p.highWatermark, p.messages.length])).toEqual([
      [0, String(2n ** 40n), 0],
      [1, '43', 1],
      [2, String(2n ** 60n + 1n), 0],
    ]);
    expect(topic.partitions[1].messages[0]).toMatchObject({ offset: '42', value: Buffer.from('hello') });
  });
});

/** A record set holding one record at offset 42, written by kafkajs's own record batch encoder. */
async function recordsOfOneMessage(): Promise<Buffer> {
  const { RecordBatch } = load('kafkajs/src/protocol/recordBatch/v0') as {
    RecordBatch: (batch: object) => Promise<Encoder>;
  };
  const Record = load('kafkajs/src/protocol/recordBatch/record/v0') as (record: object) => Encoder;
  const batch = await RecordBatch({
    firstOffset: '42',
    firstTimestamp: 1,
    maxTimestamp: 1,
    lastOffsetDelta: 0,
    records: [
      Record({ offsetDelta: 0, timestampDelta: 0, key: null, value: Buffer.from('hello'), headers: {} }),
    ],
  });
  const bytes = batch.buffer;
  return Buffer.concat([int32(bytes.length), bytes]);
}
