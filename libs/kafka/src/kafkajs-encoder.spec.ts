import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, producer side: the encoder writes varints straight into its buffer
 * and encodes a small varlong (a record's timestamp delta) as a varint, without Long objects.
 * Both must write exactly the bytes of the Kafka protocol's zigzag varints, which these compute
 * independently with BigInt.
 */
const load = createRequire(__filename);
interface Encoder {
  writeVarInt(value: number): Encoder;
  writeVarLong(value: unknown): Encoder;
  buffer: Buffer;
}
const Encoder = load('kafkajs/src/protocol/encoder') as {
  new (): Encoder;
  sizeOfVarInt(value: number): number;
  sizeOfVarLong(value: unknown): number;
};
const Long = load('kafkajs/src/utils/long') as { fromValue(value: number | string): unknown };

/** The protocol's bytes: zigzag over `bits`, then 7 bits per byte, low first. */
function expectedVarint(value: bigint, bits: bigint): Buffer {
  let zigzag = BigInt.asUintN(Number(bits), (value << 1n) ^ (value >> (bits - 1n)));
  const bytes: number[] = [];
  while (zigzag >= 0x80n) {
    bytes.push(Number(zigzag & 0x7fn) | 0x80);
    zigzag >>= 7n;
  }
  bytes.push(Number(zigzag));
  return Buffer.from(bytes);
}

const EDGES = [0, 1, -1, 63, -64, 64, -65, 8191, 8192, 2 ** 20, -(2 ** 20)];
const INT32_VALUES = [...EDGES, 2 ** 30 - 1, -(2 ** 30), 2 ** 30, -(2 ** 30) - 1, 2 ** 31 - 1, -(2 ** 31)];
const INT64_VALUES = [...INT32_VALUES, 2 ** 31, -(2 ** 31) - 1, 2 ** 40, -(2 ** 45), Number.MAX_SAFE_INTEGER];

describe('kafkajs encoder (patched)', () => {
  it.each(INT32_VALUES)('writes varint %d as the protocol does, in as many bytes as it sizes', (value) => {
    const written = new Encoder().writeVarInt(value).buffer;
    expect(written).toEqual(expectedVarint(BigInt(value), 32n));
    expect(Encoder.sizeOfVarInt(value)).toBe(written.length);
  });

  it.each(INT64_VALUES)('writes varlong %d as the protocol does, given as a number or a Long', (value) => {
    const expected = expectedVarint(BigInt(value), 64n);
    for (const given of [value, Long.fromValue(value)]) {
      const written = new Encoder().writeVarLong(given).buffer;
      expect(written).toEqual(expected);
      expect(Encoder.sizeOfVarLong(given)).toBe(expected.length);
    }
  });

  it('keeps earlier bytes when varints grow the buffer', () => {
    const encoder = new Encoder();
    const values = Array.from({ length: 500 }, (_, i) => (i % 2 ? -1 : 1) * i * 9973);
    for (const value of values) encoder.writeVarInt(value).writeVarLong(value);
    const expected = Buffer.concat(
      values.flatMap((v) => [expectedVarint(BigInt(v), 32n), expectedVarint(BigInt(v), 64n)]),
    );
    expect(encoder.buffer).toEqual(expected);
  });
});
