import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

/**
 * patches/kafkajs+2.2.4.patch: the default partitioner's murmur2 in 32-bit integer arithmetic
 * instead of Long objects. A key must keep landing on the partition the Java client picks, or one
 * user's calls would split across partitions whenever producers of both kinds write a topic.
 */
const load = createRequire(__filename);
const murmur2 = load('kafkajs/src/producer/partitioners/default/murmur2') as (key: Buffer | string) => number;

/** Kafka's own expected values for its Java murmur2 (its UtilsTest). */
const JAVA_HASHES: Array<[string, number]> = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107],
];

/** The algorithm as upstream wrote it, in 64-bit BigInt steps, keeping the low 32 bits at the end. */
function murmur2In64Bits(data: Buffer): number {
  const m = 0x5bd1e995n;
  const low32 = (v: bigint) => BigInt(Number(BigInt.asIntN(32, v)) >>> 0);
  let h = BigInt.asIntN(64, 0x9747b28cn ^ BigInt(data.length));
  const length4 = Math.floor(data.length / 4);
  for (let i = 0; i < length4; i++) {
    let k = BigInt(data[i * 4] + (data[i * 4 + 1] << 8) + (data[i * 4 + 2] << 16) + (data[i * 4 + 3] << 24));
    k = BigInt.asIntN(64, k * m);
    k = k ^ (low32(k) >> 24n);
    k = BigInt.asIntN(64, k * m);
    h = BigInt.asIntN(64, h * m) ^ k;
  }
  const tail = data.length & ~3;
  const rest = data.length % 4;
  if (rest >= 3) h ^= BigInt(data[tail + 2] << 16);
  if (rest >= 2) h ^= BigInt(data[tail + 1] << 8);
  if (rest >= 1) h = BigInt.asIntN(64, (h ^ BigInt(data[tail])) * m);
  h ^= low32(h) >> 13n;
  h = BigInt.asIntN(64, h * m);
  h ^= low32(h) >> 15n;
  return Number(BigInt.asIntN(32, h));
}

describe('kafkajs murmur2 (patched)', () => {
  it.each(JAVA_HASHES)('hashes %s as the Java client does', (key, hash) => {
    expect(murmur2(key)).toBe(hash);
    expect(murmur2(Buffer.from(key))).toBe(hash);
  });

  it('agrees with the 64-bit algorithm on random keys of every length up to 80 bytes', () => {
    for (let length = 0; length <= 80; length++) {
      for (let n = 0; n < 25; n++) {
        const key = randomBytes(length);
        expect(murmur2(key)).toBe(murmur2In64Bits(key));
      }
    }
  });
});
