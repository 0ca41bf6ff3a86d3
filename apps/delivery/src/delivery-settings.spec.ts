import { deliverySettingsFromEnv } from './delivery-settings';

const base = { WORKSPACE_CONFIG: '/tmp/workspace.yaml' };

describe('delivery settings', () => {
  it('defaults to a 5 s timeout, 4 h window, Switchyard user agent, SSRF guard off', () => {
    const settings = deliverySettingsFromEnv(base);
    expect(settings).toMatchObject({
      port: 8082,
      userAgentToken: 'Switchyard',
      requestTimeoutMs: 5000,
      retryWindowMs: 4 * 3600 * 1000,
      retryScheduleMs: [10_000, 60_000, 300_000, 1_800_000, 3_600_000],
      blockPrivateAddresses: false,
      attemptsTopic: true,
    });
  });

  it('reads a compressed schedule for tests', () => {
    const settings = deliverySettingsFromEnv({
      ...base,
      DELIVERY_RETRY_SCHEDULE_MS: '50,100',
      DELIVERY_RETRY_WINDOW_MS: '1000',
      DELIVERY_BLOCK_PRIVATE_ADDRESSES: 'true',
    });
    expect(settings).toMatchObject({
      retryScheduleMs: [50, 100],
      retryWindowMs: 1000,
      blockPrivateAddresses: true,
    });
  });

  it.each([
    [
      { DELIVERY_REQUEST_TIMEOUT_MS: '10' },
      'DELIVERY_REQUEST_TIMEOUT_MS must be a whole number from 50 to 60000',
    ],
    [{ DELIVERY_REQUEST_TIMEOUT_MS: 'soon' }, 'DELIVERY_REQUEST_TIMEOUT_MS must be'],
    [{ DELIVERY_RETRY_JITTER: '2' }, 'DELIVERY_RETRY_JITTER must be a number from 0 to 1'],
    [{ DELIVERY_RETRY_SCHEDULE_MS: '100,x' }, 'DELIVERY_RETRY_SCHEDULE_MS must be a comma-separated list'],
    [{ DELIVERY_RETRY_SCHEDULE_MS: '100,50' }, 'delays must not decrease'],
    [{ DELIVERY_RETRY_WINDOW_MS: '5000' }, 'longer than the first retry delay'],
    [{ DELIVERY_USER_AGENT: 'Bad Agent' }, 'DELIVERY_USER_AGENT must be an HTTP token'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters'],
    [{ DELIVERY_BLOCK_PRIVATE_ADDRESSES: 'maybe' }, 'DELIVERY_BLOCK_PRIVATE_ADDRESSES must be true or false'],
    [{ DELIVERY_ATTEMPTS_TOPIC: 'sometimes' }, 'DELIVERY_ATTEMPTS_TOPIC must be true or false'],
    [{ SWITCHYARD_COMMIT: 'main' }, 'SWITCHYARD_COMMIT must be a git commit id'],
  ])('refuses %p, naming %s', (env, field) => {
    expect(() => deliverySettingsFromEnv({ ...base, ...env })).toThrow(field);
  });
});
