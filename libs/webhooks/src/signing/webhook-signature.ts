import { timingSafeEqual } from 'node:crypto';
import { hmacSha1Hex } from './hmac';

/** Header that carries the signature of a webhook request (as Segment documents it). */
export const SIGNATURE_HEADER = 'X-Signature';
/**
 * While a secret is rotated, X-Signature stays signed with the previous secret and this header
 * carries the same digest under the new one; after the grace period only X-Signature remains,
 * signed with the new secret.
 */
export const NEXT_SIGNATURE_HEADER = 'X-Signature-Next';

/**
 * Hex HMAC-SHA1 of the request body, keyed with the destination's shared secret. Sign the exact
 * bytes that go on the wire: re-serialising a parsed body could reorder keys or change escapes.
 */
export function signBody(sharedSecret: string, body: Buffer | string): string {
  return hmacSha1Hex(sharedSecret, body);
}

/**
 * For receivers: true when `signature` is the HMAC of `body` under `sharedSecret`. Compare in
 * constant time so the answer's timing reveals nothing about the expected digest. Pass the raw
 * body bytes as received; `JSON.stringify` of the parsed body also works for Switchyard's own
 * bodies (they are serialised the same way), but not for every producer's.
 */
export function verifySignature(
  sharedSecret: string,
  body: Buffer | string,
  signature: string | undefined,
): boolean {
  if (!signature || !/^[0-9a-f]{40}$/i.test(signature)) return false;
  const expected = Buffer.from(signBody(sharedSecret, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
