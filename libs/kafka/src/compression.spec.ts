import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { compressionType, registerZstdCodec } from './compression';

describe('compression', () => {
  it('gives kafkajs a zstd codec whose batches round-trip and shrink', async () => {
    registerZstdCodec();
    const codec = CompressionCodecs[CompressionTypes.ZSTD]();
    const records = Buffer.from(
      JSON.stringify(
        Array.from({ length: 200 }, (_, i) => ({ type: 'track', userId: `u${i}`, event: 'Order Completed' })),
      ),
    );
    const compressed: Buffer = await codec.compress({ buffer: records });
    expect(compressed.length).toBeLessThan(records.length / 4);
    expect(await codec.decompress(compressed)).toEqual(records);
  });

  it('maps each setting to its kafkajs type', () => {
    expect([compressionType('zstd'), compressionType('gzip'), compressionType('none')]).toEqual([
      CompressionTypes.ZSTD,
      CompressionTypes.GZIP,
      CompressionTypes.None,
    ]);
  });
});
