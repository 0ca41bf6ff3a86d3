import { HmacKey } from './hmac';

/** The headers of the Standard Webhooks scheme (www.standardwebhooks.com), lower-cased as sent. */
export const STANDARD_WEBHOOKS_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export const STANDARD_SECRET_PREFIX = 'whsec_';
/** The key sizes the specification allows: 24 to 64 random bytes. */
export const STANDARD_SECRET_MIN_BYTES = 24;
export const STANDARD_SECRET_MAX_BYTES = 64;

const STANDARD_SECRET_PATTERN = /^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SIGNATURE_VERSION = 'v1,';

/**
 * The key bytes of a Standard Webhooks secret (`whsec_` and padded standard base64 of 24 to 64
 * bytes), or undefined when `secret` is not one. Verifier libraries decode it the same way, so a
 * secret accepted here is one they accept.
 */
export function standardSecretKey(secret: string): Buffer | undefined {
  if (!STANDARD_SECRET_PATTERN.test(secret)) return undefined;
  const key = Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64');
  return key.length >= STANDARD_SECRET_MIN_BYTES && key.length <= STANDARD_SECRET_MAX_BYTES ? key : undefined;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`: one entry of the webhook-signature header. */
export function standardSignature(
  key: HmacKey,
  messageId: string,
  timestampSeconds: number,
  body: Buffer,
): string {
  const signed = Buffer.from(`${messageId}.${timestampSeconds}.`, 'utf8');
  return SIGNATURE_VERSION + key.digest([signed, body], 'base64');
}
