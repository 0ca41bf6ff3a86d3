import { BinaryToTextEncoding, hash } from 'node:crypto';

/** The block size of SHA-1 and SHA-256 alike: HMAC pads its key to this many bytes. */
const BLOCK_BYTES = 64;
/** Padded keys of the secrets in use; a workspace has one per destination, so this rarely fills. */
const MAX_CACHED_KEYS = 1_000;
const sha1Keys = new Map<string, HmacKey>();

export type HmacAlgorithm = 'sha1' | 'sha256';

/**
 * An HMAC key (RFC 2104) padded once: each digest is H((K ^ opad) || H((K ^ ipad) || message))
 * with two one-shot `crypto.hash` calls. The same digest as `createHmac` (a test compares them
 * over thousands of random keys and messages), at a fraction of the cost of building an Hmac
 * object per webhook (docs/performance-log.md).
 */
export class HmacKey {
  private readonly inner = Buffer.alloc(BLOCK_BYTES);
  private readonly outer = Buffer.alloc(BLOCK_BYTES);

  constructor(
    private readonly algorithm: HmacAlgorithm,
    key: Buffer,
  ) {
    // Keys longer than a block are hashed first; shorter ones are zero-filled to a block.
    const block = Buffer.alloc(BLOCK_BYTES);
    (key.length > BLOCK_BYTES ? hash(algorithm, key, 'buffer') : key).copy(block);
    for (let i = 0; i < BLOCK_BYTES; i++) {
      this.inner[i] = block[i] ^ 0x36;
      this.outer[i] = block[i] ^ 0x5c;
    }
  }

  /** The digest of the concatenated `parts`, without concatenating them twice. */
  digest(parts: readonly Buffer[], encoding: BinaryToTextEncoding): string {
    const innerDigest = hash(this.algorithm, Buffer.concat([this.inner, ...parts]), 'buffer');
    return hash(this.algorithm, Buffer.concat([this.outer, innerDigest]), encoding);
  }
}

/** Hex HMAC-SHA1 keyed with the UTF-8 bytes of `key`. */
export function hmacSha1Hex(key: string, message: Buffer | string): string {
  return sha1Key(key).digest([typeof message === 'string' ? Buffer.from(message, 'utf8') : message], 'hex');
}

function sha1Key(key: string): HmacKey {
  let padded = sha1Keys.get(key);
  if (padded) return padded;
  padded = new HmacKey('sha1', Buffer.from(key, 'utf8'));
  if (sha1Keys.size >= MAX_CACHED_KEYS) sha1Keys.clear();
  sha1Keys.set(key, padded);
  return padded;
}
