import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** A sealed value could not be opened: its key is not configured, or it was altered. */
export class SecretCipherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretCipherError';
  }
}

/**
 * Encrypts workspace secrets at rest with AES-256-GCM. The first key seals; every key opens,
 * so a key is rotated by putting the new one first, re-writing the records, then dropping the
 * old one. A sealed value names its key: `enc:v1:<keyId>:<iv>:<ciphertext>:<tag>` (base64url).
 */
export class SecretCipher {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly sealingKeyId: string;

  constructor(keys: ReadonlyArray<{ id: string; key: Buffer }>) {
    if (keys.length === 0) throw new SecretCipherError('at least one encryption key is required');
    for (const { id, key } of keys) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
        throw new SecretCipherError(`key id "${id}" may hold letters, digits, _ and - (1-32)`);
      if (key.length !== KEY_BYTES)
        throw new SecretCipherError(`key "${id}" must be ${KEY_BYTES} bytes (base64 of 32 random bytes)`);
    }
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
    this.sealingKeyId = keys[0].id;
  }

  /** Parses `id:base64key[,id:base64key…]`, the sealing key first. */
  static fromSetting(setting: string): SecretCipher {
    const keys = setting
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const colon = entry.indexOf(':');
        if (colon < 1) throw new SecretCipherError('each key must be written id:base64key');
        return { id: entry.slice(0, colon), key: Buffer.from(entry.slice(colon + 1), 'base64') };
      });
    return new SecretCipher(keys);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.sealingKeyId)!, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
    return `${PREFIX}${this.sealingKeyId}:${parts.join(':')}`;
  }

  open(sealed: string): string {
    if (!isSealed(sealed)) throw new SecretCipherError('value is not sealed');
    const [keyId, iv, body, tag] = sealed.slice(PREFIX.length).split(':');
    const key = this.keys.get(keyId);
    if (!key) throw new SecretCipherError(`sealed with key "${keyId}", which is not configured`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretCipherError(`value sealed with key "${keyId}" does not authenticate`);
    }
  }
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}
