import { createHmac } from 'node:crypto';
import { signBody, verifySignature } from './webhook-signature';

describe('webhook signature', () => {
  const secret = 'hush';
  const body = Buffer.from('{"type":"track","event":"Signed Up","userId":"u1"}');

  it('is the hex HMAC-SHA1 of the exact body bytes under the shared secret', () => {
    expect(signBody(secret, body)).toBe(createHmac('sha1', secret).update(body).digest('hex'));
    expect(signBody(secret, body)).toMatch(/^[0-9a-f]{40}$/);
  });

  it('signs a string and its UTF-8 bytes alike', () => {
    const text = '{"name":"Zoë"}';
    expect(signBody(secret, text)).toBe(signBody(secret, Buffer.from(text, 'utf8')));
  });

  it('verifies a matching signature, in either letter case', () => {
    const signature = signBody(secret, body);
    expect(verifySignature(secret, body, signature)).toBe(true);
    expect(verifySignature(secret, body, signature.toUpperCase())).toBe(true);
  });

  it('refuses a signature made with another secret, over another body, or malformed', () => {
    expect(verifySignature(secret, body, signBody('other', body))).toBe(false);
    expect(verifySignature(secret, Buffer.from('{}'), signBody(secret, body))).toBe(false);
    expect(verifySignature(secret, body, 'not-hex')).toBe(false);
    expect(verifySignature(secret, body, undefined)).toBe(false);
  });
});
