import { maskSecret } from './masking';
import { keepMaskedSecrets, mapDestinationSecrets } from './secret-fields';

const destination = {
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: {
    sharedSecret: 'shared-secret-0001',
    previousSecret: 'previous-secret-0001',
    previousSecretExpiresAt: '2026-07-01T00:00:00Z',
    webhooks: [
      { url: 'https://a.example/hook', headers: { Authorization: 'Bearer token-0123456789' } },
      { url: 'https://b.example/hook' },
    ],
  },
};

describe('mapDestinationSecrets', () => {
  it('passes the shared and previous secrets and every header value through the mapper, and nothing else', () => {
    const seen: string[] = [];
    const masked = mapDestinationSecrets(
      destination,
      (secret, path) => (seen.push(path), maskSecret(secret)),
    );
    expect(seen).toEqual([
      'settings.sharedSecret',
      'settings.previousSecret',
      'settings.webhooks[0].headers.Authorization',
    ]);
    expect(JSON.stringify(masked)).not.toContain('shared-secret-0001');
    expect(JSON.stringify(masked)).not.toContain('previous-secret-0001');
    expect(JSON.stringify(masked)).not.toContain('token-0123456789');
    expect(masked).toMatchObject({
      id: 'hooks',
      settings: {
        previousSecretExpiresAt: '2026-07-01T00:00:00Z',
        webhooks: [{ url: 'https://a.example/hook' }, {}],
      },
    });
    expect(destination.settings.sharedSecret).toBe('shared-secret-0001');
  });
});

describe('keepMaskedSecrets', () => {
  it('puts the stored secret back where a mask was sent, and keeps new secrets', () => {
    const masked = mapDestinationSecrets(destination, maskSecret) as typeof destination;
    const edited = { ...masked, settings: { ...masked.settings, sharedSecret: 'a-new-shared-secret' } };
    const kept = keepMaskedSecrets(edited, destination) as typeof destination;
    expect(kept.settings.sharedSecret).toBe('a-new-shared-secret');
    expect(kept.settings.previousSecret).toBe('previous-secret-0001');
    expect(kept.settings.webhooks[0].headers).toEqual({ Authorization: 'Bearer token-0123456789' });
  });
});
