import { deliverySettingsFromEnv } from './delivery-settings';

const base = { WORKSPACE_CONFIG: '/tmp/workspace.yaml' };

describe('delivery settings', () => {
  it("defaults to Segment's documented 5 s timeout and 4 h window, Switchyard user agent, SSRF guard off", () => {
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
    [{ DELIVERY_REQUEST_TIMEOUT_MS: '10' }, 'requestTimeoutMs'],
    [{ DELIVERY_REQUEST_TIMEOUT_MS: 'soon' }, 'requestTimeoutMs'],
    [{ DELIVERY_RETRY_SCHEDULE_MS: '100,x' }, 'retryScheduleMs'],
    [{ DELIVERY_RETRY_SCHEDULE_MS: '100,50' }, 'delays must not decrease'],
    [{ DELIVERY_RETRY_WINDOW_MS: '5000' }, 'longer than the first retry delay'],
    [{ DELIVERY_USER_AGENT: 'Bad Agent' }, 'userAgentToken'],
    [{ ADMIN_TOKEN: 'short' }, 'adminToken'],
    [{ DELIVERY_BLOCK_PRIVATE_ADDRESSES: 'maybe' }, 'blockPrivateAddresses'],
    [{ DELIVERY_ATTEMPTS_TOPIC: 'sometimes' }, 'attemptsTopic (DELIVERY_ATTEMPTS_TOPIC)'],
    [{ SWITCHYARD_COMMIT: 'main' }, 'buildCommit (SWITCHYARD_COMMIT)'],
  ])('refuses %p, naming %s', (env, field) => {
    expect(() => deliverySettingsFromEnv({ ...base, ...env })).toThrow(field);
  });
});
