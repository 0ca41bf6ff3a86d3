import { routerSettingsFromEnv } from './router-settings';

describe('router settings', () => {
  const base = { WORKSPACE_CONFIG: 'config/workspace.example.yaml' };

  it('commits routed offsets every 200 ms unless told otherwise', () => {
    expect(routerSettingsFromEnv(base).commitIntervalMs).toBe(200);
    expect(routerSettingsFromEnv({ ...base, ROUTER_COMMIT_INTERVAL_MS: '1000' }).commitIntervalMs).toBe(1000);
  });

  it.each(['abc', '5', '120000'])(
    'refuses ROUTER_COMMIT_INTERVAL_MS=%s at start-up, naming the variable',
    (value) => {
      expect(() => routerSettingsFromEnv({ ...base, ROUTER_COMMIT_INTERVAL_MS: value })).toThrow(
        /ROUTER_COMMIT_INTERVAL_MS must be a whole number from 10 to 60000/,
      );
    },
  );
});
