import { consoleSettingsFromEnv } from './console-settings';

const base = { WORKSPACE_CONFIG: '/tmp/workspace.yaml' };

describe('console settings', () => {
  it('defaults to port 8083, a 100,000-attempt index and delivery on localhost', () => {
    expect(consoleSettingsFromEnv(base)).toMatchObject({
      port: 8083,
      maxAttempts: 100_000,
      maxDeadLetters: 10_000,
      callsPerSource: 100,
      deliveryUrl: 'http://127.0.0.1:8082',
      secureCookie: false,
    });
  });

  it.each([
    [{ CONSOLE_MAX_ATTEMPTS: 'lots' }, 'maxAttempts'],
    [{ CONSOLE_MAX_ATTEMPTS: '0' }, 'maxAttempts'],
    [{ CONSOLE_CALLS_PER_SOURCE: '0' }, 'callsPerSource'],
    [{ CONSOLE_MAX_DEAD_LETTERS: '-1' }, 'maxDeadLetters'],
    [{ CONSOLE_DELIVERY_URL: 'delivery:8082' }, 'deliveryUrl (CONSOLE_DELIVERY_URL)'],
    [{ CONSOLE_SESSION_TTL_MS: '10' }, 'sessionTtlMs'],
    [{ CONSOLE_SECURE_COOKIE: 'maybe' }, 'secureCookie (CONSOLE_SECURE_COOKIE)'],
    [{ ADMIN_TOKEN: 'short' }, 'adminToken'],
  ])('refuses %p, naming %s', (env, field) => {
    expect(() => consoleSettingsFromEnv({ ...base, ...env })).toThrow(field);
  });
});
