import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { parseJson, scanJson } from '@switchyard/contracts';

/** A body refused before it reached a handler: a 400 whose message names the real cause. */
export class BodyError extends Error {
  readonly statusCode = 400;
}

/** Bodies whose text had a key that may read `__proto__` or `prototype`: only these are walked for prototype keys. */
const withPrototypeKeys = new WeakSet<object>();

/** Whether `parseJsonBody` saw a key in this body that may name a prototype (see `forEachPrototypeKey`). */
export function mayHoldPrototypeKeys(body: unknown): boolean {
  return typeof body === 'object' && body !== null && withPrototypeKeys.has(body);
}

/**
 * Reads a JSON request body, refusing with a reason a caller can act on: bytes that are not
 * UTF-8, nesting deeper than `maxDepth` (checked on the bytes, before anything recursive touches
 * them), malformed JSON. Integers beyond 2^53 are kept exactly. Keys named `__proto__` are plain
 * own properties here (JSON.parse never sets a prototype); the endpoints refuse bodies holding
 * them, naming each key (see `forEachPrototypeKey`).
 */
export function parseJsonBody(bytes: Buffer, maxDepth: number): unknown {
  if (bytes.length === 0) throw new BodyError('the body is empty; send a JSON object');
  if (!isUtf8(bytes)) throw new BodyError('body is not valid UTF-8');
  const shape = scanJson(bytes, maxDepth);
  if (shape.depth > maxDepth) {
    throw new BodyError(
      `body nests objects and arrays more than ${maxDepth} levels deep; the limit is ${maxDepth} (INGEST_MAX_JSON_DEPTH)`,
    );
  }
  let body: unknown;
  try {
    body = parseJson(bytes.toString('utf8'), shape.wideNumbers);
  } catch (error) {
    throw new BodyError(`body is not valid JSON: ${(error as Error).message}`);
  }
  if (shape.prototypeKeys && typeof body === 'object' && body !== null) withPrototypeKeys.add(body);
  return body;
}

/** Replaces Fastify's JSON parser (which refuses `__proto__` keys as "not valid JSON" and reads invalid UTF-8 as a length mismatch). */
export function registerJsonBody(fastify: FastifyInstance, maxDepth: number): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, bytes, done) => {
    try {
      done(null, parseJsonBody(bytes as Buffer, maxDepth));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
