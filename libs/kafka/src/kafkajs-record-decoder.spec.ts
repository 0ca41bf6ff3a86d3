import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, consumer side: the record decoder builds the headers in one object
 * (upstream spread a new object per header) and adds a record's deltas to its batch's first offset
 * and timestamp in plain numbers while they are exact (upstream parsed a Long per record). These
 * encode records with kafkajs's own encoder and read them back with the patched decoder.
 */
const load = createRequire(__filename);
type Encoded = { buffer: Buffer };
const encodeRecord = load('kafkajs/src/protocol/recordBatch/record/v0') as (
  record: Record<string, unknown>,
) => Encoded;
const decodeRecord = load('kafkajs/src/protocol/recordBatch/record/v0/decoder') as (
  decoder: unknown,
  batch: Record<string, unknown>,
) => Record<string, unknown>;
const Decoder = load('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => { readVarIntBytes(): Buffer };
const Long = load('kafkajs/src/utils/long') as { fromValue(value: number | string): unknown };

function roundTrip(record: Record<string, unknown>, batch: Record<string, unknown>) {
  const framed = new Decoder(encodeRecord(record).buffer).readVarIntBytes();
  return decodeRecord(new Decoder(framed), batch);
}

describe('kafkajs record decoder (patched)', () => {
  it('reads every header once, and a repeated header key as an array in order', () => {
    const headers = { traceparent: '00-abc-01', 'x-id': ['one', 'two', 'three'], empty: '' };
    const record = roundTrip(
      { key: Buffer.from('k'), value: Buffer.from('v'), headers },
      { firstOffset: '0', firstTimestamp: '0' },
    );
    const text = (value: unknown) => (Array.isArray(value) ? value.map(String) : String(value));
    expect(
      Object.fromEntries(Object.entries(record.headers as object).map(([k, v]) => [k, text(v)])),
    ).toEqual(headers);
  });

  it('adds the deltas to the batch offset and timestamp exactly, below 2^53 and beyond it', () => {
    const small = roundTrip(
      { offsetDelta: 7, timestampDelta: Long.fromValue(-5), value: Buffer.from('v') },
      { firstOffset: '41', firstTimestamp: '1795447659012' },
    );
    expect([small.offset, small.timestamp]).toEqual(['48', '1795447659007']);
    const huge = roundTrip(
      { offsetDelta: 3, timestampDelta: Long.fromValue(1), value: Buffer.from('v') },
      { firstOffset: '9007199254740993', firstTimestamp: '9223372036854775806' },
    );
    expect([huge.offset, huge.timestamp]).toEqual(['9007199254740996', '9223372036854775807']);
  });

  it('takes the broker-set time of a log-append-time batch', () => {
    const record = roundTrip(
      { timestampDelta: Long.fromValue(9), value: Buffer.from('v') },
      { firstOffset: '0', firstTimestamp: '100', timestampType: 1, maxTimestamp: '555' },
    );
    expect(record.timestamp).toBe('555');
  });
});
