import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { requestSigner, SigningSettings } from './request-signer';
import { standardSecretKey } from './standard-webhooks';
import { verifySignature } from './webhook-signature';

interface SignedVector {
  name: string;
  settings: SigningSettings;
  messageId: string;
  body: string;
  sentAtMs: number;
  headers: Record<string, string>;
}

const vectors: SignedVector[] = JSON.parse(
  readFileSync(join(__dirname, '../../../../clients/go/testdata/webhook-signatures.json'), 'utf8'),
).requests;

const NEW = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const OLD = 'whsec_' + Buffer.alloc(32, 9).toString('base64');
const body = Buffer.from('{"type":"identify","userId":"u1"}');
const EXPIRY = '2026-03-01T12:00:00Z';
const expiryMs = Date.parse(EXPIRY);

function signed(settings: SigningSettings, nowMs: number, messageId = 'm1'): Record<string, string> {
  const headers: Record<string, string> = {};
  requestSigner(settings).sign(headers, messageId, body, nowMs);
  return headers;
}

describe('requestSigner', () => {
  it.each(vectors.map((v) => [v.name, v]))('signs the shared test vector "%s"', (_name, vector) => {
    const headers: Record<string, string> = {};
    requestSigner(vector.settings).sign(headers, vector.messageId, Buffer.from(vector.body), vector.sentAtMs);
    expect(headers).toEqual(vector.headers);
  });

  it('signs nothing without a shared secret, whatever the scheme', () => {
    expect(signed({ signature: 'both' }, 0)).toEqual({});
  });

  it('sends only X-Signature for the default scheme', () => {
    const headers = signed({ sharedSecret: 'plain' }, 0);
    expect(Object.keys(headers)).toEqual(['x-signature']);
    expect(verifySignature('plain', body, headers['x-signature'])).toBe(true);
  });

  it('stamps the time of the attempt, so each retry carries a fresh timestamp', () => {
    const settings: SigningSettings = { signature: 'standard-webhooks', sharedSecret: NEW };
    expect(signed(settings, 1_000_999)['webhook-timestamp']).toBe('1000');
    expect(signed(settings, 2_000_000)['webhook-timestamp']).toBe('2000');
    expect(signed(settings, 0, 'msg-7')['webhook-id']).toBe('msg-7');
  });

  it('signs with both secrets until the previous one expires, then with the new one only', () => {
    const settings: SigningSettings = {
      signature: 'both',
      sharedSecret: NEW,
      previousSecret: OLD,
      previousSecretExpiresAt: EXPIRY,
    };
    const during = signed(settings, expiryMs - 1);
    expect(during['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifySignature(OLD, body, during['x-signature'])).toBe(true);
    expect(verifySignature(NEW, body, during['x-signature-next'])).toBe(true);

    const after = signed(settings, expiryMs);
    expect(after['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifySignature(NEW, body, after['x-signature'])).toBe(true);
    expect(after).not.toHaveProperty('x-signature-next');
  });

  it('leaves a previous secret that is not a whsec_ secret out of webhook-signature', () => {
    const settings: SigningSettings = {
      signature: 'both',
      sharedSecret: NEW,
      previousSecret: 'legacy-secret',
      previousSecretExpiresAt: EXPIRY,
    };
    const headers = signed(settings, expiryMs - 1);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifySignature('legacy-secret', body, headers['x-signature'])).toBe(true);
  });

  it('makes signatures the standardwebhooks library accepts under either secret during a rotation', () => {
    const nowMs = Date.now();
    const settings: SigningSettings = {
      signature: 'standard-webhooks',
      sharedSecret: NEW,
      previousSecret: OLD,
      previousSecretExpiresAt: new Date(nowMs + 60_000).toISOString(),
    };
    const headers = signed(settings, nowMs);
    for (const secret of [NEW, OLD])
      expect(new Webhook(secret).verify(body.toString(), headers)).toEqual({
        type: 'identify',
        userId: 'u1',
      });
  });

  it('builds one signer per settings object', () => {
    const settings: SigningSettings = { sharedSecret: 'x' };
    expect(requestSigner(settings)).toBe(requestSigner(settings));
    expect(requestSigner({ ...settings })).not.toBe(requestSigner(settings));
  });
});

describe('standardSecretKey', () => {
  it.each([
    ['24 bytes', 'whsec_' + Buffer.alloc(24).toString('base64'), 24],
    ['64 bytes', 'whsec_' + Buffer.alloc(64).toString('base64'), 64],
    ['32 bytes with padding', 'whsec_' + Buffer.alloc(32).toString('base64'), 32],
  ])('decodes a secret of %s', (_what, secret, bytes) => {
    expect(standardSecretKey(secret)?.length).toBe(bytes);
  });

  it.each([
    ['no prefix', Buffer.alloc(32).toString('base64')],
    ['too short a key', 'whsec_' + Buffer.alloc(23).toString('base64')],
    ['too long a key', 'whsec_' + Buffer.alloc(65).toString('base64')],
    ['URL-safe base64', 'whsec_' + Buffer.alloc(32, 0xfb).toString('base64url')],
    ['missing padding', 'whsec_' + Buffer.alloc(32).toString('base64').replace(/=+$/, '')],
    ['spaces', 'whsec_ ' + Buffer.alloc(32).toString('base64')],
  ])('refuses %s', (_what, secret) => {
    expect(standardSecretKey(secret)).toBeUndefined();
  });
});
