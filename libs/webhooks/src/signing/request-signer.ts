import { HmacKey } from './hmac';
import { STANDARD_WEBHOOKS_HEADERS, standardSecretKey, standardSignature } from './standard-webhooks';
import { NEXT_SIGNATURE_HEADER, SIGNATURE_HEADER } from './webhook-signature';

export const SIGNATURE_SCHEMES = ['segment', 'standard-webhooks', 'both'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'segment';

/** The destination settings that decide how its requests are signed. */
export interface SigningSettings {
  signature?: SignatureScheme;
  sharedSecret?: string;
  previousSecret?: string;
  /** ISO 8601; until then the previous secret signs too. */
  previousSecretExpiresAt?: string;
}

/** Adds a destination's signature headers to one request's headers. */
export interface RequestSigner {
  sign(headers: Record<string, string>, messageId: string, body: Buffer, nowMs: number): void;
}

const SEGMENT = SIGNATURE_HEADER.toLowerCase();
const SEGMENT_NEXT = NEXT_SIGNATURE_HEADER.toLowerCase();

/** A secret as each scheme keys it: X-Signature with its text, Standard Webhooks with its decoded bytes. */
interface SigningSecret {
  segmentKey: HmacKey;
  standardKey?: HmacKey;
}

class DestinationSigner implements RequestSigner {
  private readonly segment: boolean;
  private readonly standard: boolean;
  private readonly current: SigningSecret;
  private readonly previous?: SigningSecret;
  private readonly previousUntilMs: number;

  constructor(settings: SigningSettings & { sharedSecret: string }) {
    const scheme = settings.signature ?? DEFAULT_SIGNATURE_SCHEME;
    this.segment = scheme !== 'standard-webhooks';
    this.standard = scheme !== 'segment';
    this.current = signingSecret(settings.sharedSecret);
    this.previous = settings.previousSecret ? signingSecret(settings.previousSecret) : undefined;
    this.previousUntilMs = Date.parse(settings.previousSecretExpiresAt ?? '') || 0;
  }

  sign(headers: Record<string, string>, messageId: string, body: Buffer, nowMs: number): void {
    const previous = nowMs < this.previousUntilMs ? this.previous : undefined;
    if (this.segment) {
      // During a rotation X-Signature keeps the secret receivers already hold, so none breaks
      // before the grace period ends; the new secret's signature rides beside it.
      headers[SEGMENT] = (previous ?? this.current).segmentKey.digest([body], 'hex');
      if (previous) headers[SEGMENT_NEXT] = this.current.segmentKey.digest([body], 'hex');
    }
    if (this.standard && this.current.standardKey) {
      const timestamp = Math.floor(nowMs / 1000);
      let signatures = standardSignature(this.current.standardKey, messageId, timestamp, body);
      if (previous?.standardKey)
        signatures += ' ' + standardSignature(previous.standardKey, messageId, timestamp, body);
      headers[STANDARD_WEBHOOKS_HEADERS.id] = messageId;
      headers[STANDARD_WEBHOOKS_HEADERS.timestamp] = String(timestamp);
      headers[STANDARD_WEBHOOKS_HEADERS.signature] = signatures;
    }
  }
}

function signingSecret(text: string): SigningSecret {
  const key = standardSecretKey(text);
  return {
    segmentKey: new HmacKey('sha1', Buffer.from(text, 'utf8')),
    standardKey: key && new HmacKey('sha256', key),
  };
}

const UNSIGNED: RequestSigner = { sign: () => undefined };
/** Keyed by the settings object: a changed destination is a new object, so it gets a new signer. */
const signers = new WeakMap<SigningSettings, RequestSigner>();

/**
 * The signer for a destination's settings, built once per settings object so that decoding
 * secrets and padding keys stays off the per-request path. Without a shared secret nothing is signed.
 */
export function requestSigner(settings: SigningSettings): RequestSigner {
  let signer = signers.get(settings);
  if (!signer) {
    const { sharedSecret } = settings;
    signer = sharedSecret ? new DestinationSigner({ ...settings, sharedSecret }) : UNSIGNED;
    signers.set(settings, signer);
  }
  return signer;
}
