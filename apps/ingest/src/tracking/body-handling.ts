import { createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  deflate: createInflate,
};

/**
 * Request bodies: `Content-Encoding: gzip` (analytics-python) and `deflate` are inflated as they
 * stream in, and Fastify's body limit counts the inflated bytes, so a gzip bomb stops at the
 * request limit instead of filling memory. Any other encoding is refused with a 415.
 */
export function registerBodyHandling(fastify: FastifyInstance): void {
  // Only JSON bodies: Fastify's default text/plain parser would hand a string to the Tracking API.
  fastify.removeContentTypeParser('text/plain');
  fastify.addHook('preParsing', async (request, reply, payload) => {
    const encoding = String(request.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (encoding === 'identity' || encoding === '') return payload;
    const decoder = DECODERS[encoding];
    if (!decoder) {
      const error = new Error(
        `Content-Encoding "${encoding}" is not supported; send identity, gzip or deflate`,
      ) as Error & { statusCode: number };
      error.statusCode = 415;
      throw error;
    }
    // The compressed length no longer bounds the body; Fastify's limit now applies to what is inflated.
    delete request.headers['content-length'];
    const inflated = payload.pipe(decoder());
    payload.on('error', (e) => inflated.emit('error', e));
    return Object.assign(inflated, { receivedEncodedLength: 0 }) as unknown as typeof payload;
  });
}
