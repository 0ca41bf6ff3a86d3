import { createHmac, timingSafeEqual } from 'node:crypto';

/** How a request's signature is checked. */
export type WebhookSignatureScheme = 'segment' | 'standard-webhooks';

/** Why a request was refused; the same names as the Go client's errors. */
export type WebhookRefusal =
  'missing-signature' | 'signature-mismatch' | 'invalid-timestamp' | 'timestamp-out-of-tolerance';

export type WebhookVerification = { valid: true } | { valid: false; reason: WebhookRefusal };

export interface VerifyWebhookOptions {
  /**
   * The scheme to check. By default it follows the secret: a `whsec_` secret checks the Standard
   * Webhooks headers, any other checks X-Signature. Deciding from the secret (never from the
   * request) stops a forger from stripping the timestamped headers to fall back to X-Signature.
   */
  scheme?: WebhookSignatureScheme;
  /** How far webhook-timestamp may be from now, either way. Default: 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The current time in milliseconds; for tests. */
  now?: () => number;
}

/** Request headers as Node, fastify, express or fetch hold them. */
export type WebhookHeaders =
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const STANDARD_SECRET_PREFIX = 'whsec_';
const SHA1_HEX = /^[0-9a-f]{40}$/i;
const EPOCH_SECONDS = /^\d{1,15}$/;

/**
 * Checks that a webhook request came from Switchyard with `secret`: the `X-Signature` scheme
 * (HMAC-SHA1 of the body; `X-Signature-Next` too, so a receiver holding the new secret passes
 * during a rotation) or the Standard Webhooks scheme (HMAC-SHA256 of id.timestamp.body, any of
 * the space-separated `v1,` signatures, timestamp within the tolerance). Digests are compared in
 * constant time.
 *
 * Pass the body exactly as received, before any JSON parsing: re-serialising a parsed body is
 * not byte-exact across languages, so a signature checked over it can fail for a genuine request.
 */
export function verifyWebhook(
  rawBody: Buffer | Uint8Array | string,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookVerification {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const header = headerReader(headers);
  const scheme =
    options.scheme ?? (secret.startsWith(STANDARD_SECRET_PREFIX) ? 'standard-webhooks' : 'segment');
  return scheme === 'segment'
    ? verifySegment(body, header, secret)
    : verifyStandard(body, header, secret, options);
}

function verifySegment(body: Uint8Array, header: HeaderReader, secret: string): WebhookVerification {
  const signatures = [header('x-signature'), header('x-signature-next')].filter((s) => s !== undefined);
  if (signatures.length === 0) return refused('missing-signature');
  const expected = createHmac('sha1', secret).update(body).digest();
  const matches = signatures.some(
    (s) => SHA1_HEX.test(s) && timingSafeEqual(expected, Buffer.from(s, 'hex')),
  );
  return matches ? { valid: true } : refused('signature-mismatch');
}

function verifyStandard(
  body: Uint8Array,
  header: HeaderReader,
  secret: string,
  options: VerifyWebhookOptions,
): WebhookVerification {
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) return refused('missing-signature');
  if (!EPOCH_SECONDS.test(timestamp)) return refused('invalid-timestamp');
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    return refused('timestamp-out-of-tolerance');
  const key = Buffer.from(
    secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret,
    'base64',
  );
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(expected, given);
  });
  return matches ? { valid: true } : refused('signature-mismatch');
}

type HeaderReader = (name: string) => string | undefined;

/** A case-insensitive lookup of a header's first value. */
function headerReader(headers: WebhookHeaders): HeaderReader {
  if (typeof headers.get === 'function') {
    const fetchHeaders = headers as { get(name: string): string | null };
    return (name) => fetchHeaders.get(name) ?? undefined;
  }
  const lowerCased = new Map<string, string>();
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) lowerCased.set(name.toLowerCase(), first);
  }
  return (name) => lowerCased.get(name);
}

const refused = (reason: WebhookRefusal): WebhookVerification => ({ valid: false, reason });
