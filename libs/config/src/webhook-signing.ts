import {
  DEFAULT_SIGNATURE_SCHEME,
  STANDARD_SECRET_MAX_BYTES,
  STANDARD_SECRET_MIN_BYTES,
  standardSecretKey,
} from '@switchyard/webhooks';
import type { WebhooksSettings } from './workspace-config';

export const STANDARD_SECRET_RULE = `whsec_ and the padded base64 of ${STANDARD_SECRET_MIN_BYTES}-${STANDARD_SECRET_MAX_BYTES} random bytes`;

/** The secrets a destination's signature scheme needs, and a rotation's fields set together. */
export function signingProblems(settings: WebhooksSettings, prefix: string): string[] {
  const problems: string[] = [];
  const scheme = settings.signature ?? DEFAULT_SIGNATURE_SCHEME;
  const { sharedSecret, previousSecret, previousSecretExpiresAt } = settings;
  if (scheme !== 'segment') {
    if (sharedSecret === undefined)
      problems.push(`${prefix}sharedSecret: required with signature "${scheme}"`);
    else if (!standardSecretKey(sharedSecret))
      problems.push(
        `${prefix}sharedSecret: with signature "${scheme}" it must be a Standard Webhooks secret: ${STANDARD_SECRET_RULE}`,
      );
  }
  if (previousSecret !== undefined) {
    if (previousSecretExpiresAt === undefined)
      problems.push(`${prefix}previousSecretExpiresAt: required with previousSecret`);
    if (sharedSecret === undefined)
      problems.push(`${prefix}previousSecret: needs a sharedSecret, the secret it rotates to`);
    else if (previousSecret === sharedSecret)
      problems.push(`${prefix}previousSecret: must differ from sharedSecret`);
    if (scheme === 'standard-webhooks' && !standardSecretKey(previousSecret))
      problems.push(
        `${prefix}previousSecret: with signature "standard-webhooks" it must be a Standard Webhooks secret: ` +
          `${STANDARD_SECRET_RULE} (to move from an X-Signature secret, rotate with signature "both")`,
      );
  } else if (previousSecretExpiresAt !== undefined) {
    problems.push(`${prefix}previousSecretExpiresAt: set only together with previousSecret`);
  }
  return problems;
}
