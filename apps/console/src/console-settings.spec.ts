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
    [{ CONSOLE_MAX_ATTEMPTS: 'lots' }, 'CONSOLE_MAX_ATTEMPTS must be a whole number'],
    [{ CONSOLE_MAX_ATTEMPTS: '0' }, 'CONSOLE_MAX_ATTEMPTS must be a whole number from 1 to 5000000'],
    [{ CONSOLE_CALLS_PER_SOURCE: '0' }, 'CONSOLE_CALLS_PER_SOURCE must be'],
    [{ CONSOLE_MAX_DEAD_LETTERS: '-1' }, 'CONSOLE_MAX_DEAD_LETTERS must be'],
    [{ CONSOLE_DELIVERY_URL: 'delivery:8082' }, 'CONSOLE_DELIVERY_URL must be an http(s) URL'],
    [{ CONSOLE_SESSION_TTL_MS: '10' }, 'CONSOLE_SESSION_TTL_MS must be'],
    [{ CONSOLE_SECURE_COOKIE: 'maybe' }, 'CONSOLE_SECURE_COOKIE must be true or false'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters'],
  ])('refuses %p, naming %s', (env, field) => {
    expect(() => consoleSettingsFromEnv({ ...base, ...env })).toThrow(field);
  });
});
