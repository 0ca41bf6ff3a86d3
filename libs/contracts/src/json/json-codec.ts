import { parseJson, scanJson } from './json-text';

/** Record values are JSON. Decoding failures are returned, not thrown, so a consumer can dead-letter them. */
export function encodeJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

export function decodeJson<T>(buffer: Buffer | null | undefined): Decoded<T> {
  if (!buffer || buffer.length === 0) return { ok: false, reason: 'record has no value' };
  try {
    // Integers beyond 2^53 that ingest kept exact stay exact through the router too.
    const { wideNumbers } = scanJson(buffer, Number.POSITIVE_INFINITY);
    return { ok: true, value: parseJson(buffer.toString('utf8'), wideNumbers) as T };
  } catch (error) {
    return { ok: false, reason: `value is not JSON: ${(error as Error).message}` };
  }
}
