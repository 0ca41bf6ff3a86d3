import { hash } from 'node:crypto';

/** SHA-1's block size: HMAC pads its key to this many bytes. */
const BLOCK_BYTES = 64;
/** Padded keys of the secrets in use; a workspace has one per destination, so this rarely fills. */
const MAX_CACHED_KEYS = 1_000;
const paddedKeys = new Map<string, { inner: Buffer; outer: Buffer }>();

/**
 * Hex HMAC-SHA1 (RFC 2104): H((K ^ opad) || H((K ^ ipad) || message)), with two one-shot
 * `crypto.hash` calls over keys padded once per secret.
 *
 * The same digest as `createHmac('sha1', key).update(message).digest('hex')` (a test compares
 * them over thousands of random keys and messages), at a fraction of the cost: building an Hmac
 * object per webhook was a visible share of delivery's CPU (docs/performance-log.md).
 */
export function hmacSha1Hex(key: string, message: Buffer | string): string {
  const { inner, outer } = padded(key);
  const innerDigest = hash(
    'sha1',
    Buffer.concat([inner, typeof message === 'string' ? Buffer.from(message, 'utf8') : message]),
    'buffer',
  );
  return hash('sha1', Buffer.concat([outer, innerDigest]), 'hex');
}

function padded(key: string): { inner: Buffer; outer: Buffer } {
  let pads = paddedKeys.get(key);
  if (pads) return pads;
  const bytes = Buffer.from(key, 'utf8');
  // Keys longer than a block are hashed first; shorter ones are zero-filled to a block.
  const block = Buffer.alloc(BLOCK_BYTES);
  (bytes.length > BLOCK_BYTES ? hash('sha1', bytes, 'buffer') : bytes).copy(block);
  pads = { inner: Buffer.alloc(BLOCK_BYTES), outer: Buffer.alloc(BLOCK_BYTES) };
  for (let i = 0; i < BLOCK_BYTES; i++) {
    pads.inner[i] = block[i] ^ 0x36;
    pads.outer[i] = block[i] ^ 0x5c;
  }
  if (paddedKeys.size >= MAX_CACHED_KEYS) paddedKeys.clear();
  paddedKeys.set(key, pads);
  return pads;
}
