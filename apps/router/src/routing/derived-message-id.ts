import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from what a generated message is about. A record replayed after a
 * crash yields the same id again, so receivers de-duplicate it like any redelivery.
 */
export function derivedMessageId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  // Version 8 (custom) UUID layout: xxxxxxxx-xxxx-8xxx-Nxxx-xxxxxxxxxxxx.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
