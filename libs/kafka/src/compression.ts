import { promisify } from 'node:util';
import { constants, zstdCompress, zstdDecompress } from 'node:zlib';
import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { CompressionCodec } from './kafka-port';
import { MAX_PRODUCE_REQUEST_BYTES } from './request-size';

/** Record batch compression a service may produce with (KAFKA_COMPRESSION). */
export const KAFKA_COMPRESSIONS = ['zstd', 'gzip', 'none'] as const;
export type KafkaCompression = (typeof KAFKA_COMPRESSIONS)[number];

const CODECS: Record<KafkaCompression, CompressionCodec> = {
  zstd: CompressionCodec.ZSTD,
  gzip: CompressionCodec.GZIP,
  none: CompressionCodec.None,
};

export function compressionType(name: KafkaCompression): CompressionCodec {
  return CODECS[name];
}

/**
 * Each compressed record batch costs a fixed slice of CPU on the event loop (zlib builds a
 * fresh compression context per call) before any byte is saved. Small batches, the ones a
 * lightly loaded service sends, would pay that on every hop and lose latency
 * (docs/performance-log.md); so only batches this large are compressed,
 * the ones where bytes, not calls, are the cost.
 */
export const MIN_COMPRESSED_BATCH_BYTES = 128 * 1024;

/** The compression for one produce request of `bytes` key and value bytes. */
export function compressionFor(
  configured: CompressionCodec,
  bytes: number,
  minBytes = MIN_COMPRESSED_BATCH_BYTES,
): CompressionCodec {
  return bytes >= minBytes ? configured : CompressionCodec.None;
}

const compress = promisify(zstdCompress);
const decompress = promisify(zstdDecompress);
// Level 1: the box is CPU-bound long before it is bandwidth-bound, and on events' JSON level 1
// already shrinks a batch about as much as the default level 3, for three quarters of the CPU.
const ZSTD_OPTIONS = { params: { [constants.ZSTD_c_compressionLevel]: 1 } };
// zlib hands decompressed output back in chunks of `chunkSize` (16 KB by default), a callback and
// a buffer each: a 400 KB batch took ~25 of them, 0.7 ms of event-loop CPU, against 0.2 ms when
// it comes back whole, as a batch of Switchyard's producers always does.
const UNZSTD_OPTIONS = { chunkSize: MAX_PRODUCE_REQUEST_BYTES };

/**
 * kafkajs ships no Zstandard codec; Node's zlib has one, which runs on libuv's thread pool, off
 * the event loop. Compressed batches shrink what kafkajs checksums and copies and what the
 * broker writes (CRC32C and buffer copies of plain batches were a large share of ingest's CPU). The codec
 * table is kafkajs's own, one per process, so registering it once lets every client in the
 * process read and write ZSTD batches.
 */
export function registerZstdCodec(): void {
  CompressionCodecs[CompressionTypes.ZSTD] = () => ({
    compress: (encoder: { buffer: Buffer }) => compress(encoder.buffer, ZSTD_OPTIONS),
    decompress: (buffer: Buffer) => decompress(buffer, UNZSTD_OPTIONS),
  });
}
