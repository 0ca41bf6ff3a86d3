import { randomBytes } from 'node:crypto';
import { isSealed, SecretCipher, SecretCipherError } from './secret-cipher';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

describe('SecretCipher', () => {
  it('seals a secret so that it does not appear in the sealed text, and opens it again', () => {
    const cipher = SecretCipher.fromSetting(`a:${keyA}`);
    const sealed = cipher.seal('my-shared-secret');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('my-shared-secret');
    expect(sealed).not.toContain(Buffer.from('my-shared-secret').toString('base64'));
    expect(cipher.open(sealed)).toBe('my-shared-secret');
    expect(cipher.seal('my-shared-secret')).not.toBe(sealed);
  });

  it('rotates: the first key seals, every listed key opens, a dropped key cannot', () => {
    const old = SecretCipher.fromSetting(`a:${keyA}`);
    const sealedWithA = old.seal('s3cret');
    const rotating = SecretCipher.fromSetting(`b:${keyB}, a:${keyA}`);
    expect(rotating.open(sealedWithA)).toBe('s3cret');
    const sealedWithB = rotating.seal('s3cret');
    expect(rotating.open(sealedWithB)).toBe('s3cret');
    expect(() => old.open(sealedWithB)).toThrow('sealed with key "b", which is not configured');
    expect(() => SecretCipher.fromSetting(`b:${keyB}`).open(sealedWithA)).toThrow(
      'sealed with key "a", which is not configured',
    );
  });

  it('refuses an altered value and badly written keys', () => {
    const cipher = SecretCipher.fromSetting(`a:${keyA}`);
    const sealed = cipher.seal('s3cret');
    const altered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    expect(() => cipher.open(altered)).toThrow(SecretCipherError);
    expect(() => SecretCipher.fromSetting('')).toThrow('at least one encryption key');
    expect(() => SecretCipher.fromSetting('nokey')).toThrow('id:base64key');
    expect(() => SecretCipher.fromSetting(`a:${randomBytes(16).toString('base64')}`)).toThrow('32 bytes');
  });
});
