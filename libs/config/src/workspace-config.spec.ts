import { checkResource, checkWorkspace, Destination, Source } from './workspace-config';

const destination = {
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: { sharedSecret: 'a-shared-secret', webhooks: [{ url: 'https://example.com/hook' }] },
};
const source = { id: 'web', name: 'Website', writeKey: 'write-key-0001' };

describe('checkResource', () => {
  it('accepts a valid destination and source', () => {
    expect(checkResource(Destination, destination).problems).toEqual([]);
    expect(checkResource(Source, { ...source, previousWriteKey: 'write-key-0000' }).problems).toEqual([]);
  });

  it('names a misspelt field instead of dropping it, at any depth', () => {
    const { sharedSecret, ...rest } = destination.settings;
    const misspelt = { ...destination, colour: 'red', settings: { ...rest, sharedSecert: sharedSecret } };
    expect(checkResource(Destination, misspelt).problems).toEqual([
      'colour: unknown field',
      'settings.sharedSecert: unknown field',
    ]);
    expect(
      checkResource(Destination, {
        ...destination,
        settings: { webhooks: [{ url: 'https://a.b', hedaers: {} }] },
      }).problems,
    ).toEqual(['settings.webhooks[0].hedaers: unknown field']);
  });

  it('lists every broken rule with its field, and refuses what is not an object', () => {
    const problems = checkResource(Destination, {
      ...destination,
      enabled: 'yes',
      settings: { webhooks: Array(6).fill({ url: 'ftp://example.com' }) },
    }).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'enabled: enabled must be true or false',
        'settings.webhooks: webhooks may list at most 5 URLs',
        'settings.webhooks[0].url: url must be a full http or https URL, protocol included',
      ]),
    );
    expect(checkResource(Source, [source]).problems).toEqual(['body: must be an object']);
  });
});

describe('checkWorkspace', () => {
  it('refuses a key used by two sources, the retiring one included, and unknown sources', () => {
    const problems = checkWorkspace({
      sources: [
        source,
        { id: 'app', name: 'App', writeKey: 'write-key-0002', previousWriteKey: 'write-key-0001' },
      ],
      destinations: [{ ...destination, sources: ['web', 'missing'] }],
    }).problems;
    expect(problems).toEqual([
      'sources: a writeKey is used by two sources',
      'destinations[0].sources: unknown source "missing"',
    ]);
  });
});

describe('a destination rate limit and retry policy', () => {
  const withSettings = (extra: object) => ({
    ...destination,
    settings: { ...destination.settings, ...extra },
  });

  it('accepts a limit and a policy within their bounds', () => {
    const valid = withSettings({
      rateLimit: { perSecond: 0.5, burst: 3 },
      retry: { windowMs: 72 * 3_600_000, scheduleMs: [1000, 5000, 5000] },
    });
    expect(checkWorkspace({ sources: [source], destinations: [valid] }).problems).toEqual([]);
  });

  it('names each field that breaks its bound', () => {
    const problems = checkResource(
      Destination,
      withSettings({
        rateLimit: { perSecond: 0, burst: 1.5, perMinute: 3 },
        retry: { windowMs: 72 * 3_600_000 + 1, scheduleMs: [5] },
      }),
    ).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'settings.rateLimit.perSecond: perSecond must be at least 0.01',
        'settings.rateLimit.burst: burst must be a whole number',
        'settings.rateLimit.perMinute: unknown field',
        'settings.retry.windowMs: windowMs must be at most 259200000 (72 h)',
        'settings.retry.scheduleMs: scheduleMs entries must be at least 10',
      ]),
    );
  });

  it('refuses a decreasing schedule and a window no longer than its first delay', () => {
    const problems = checkWorkspace({
      sources: [source],
      destinations: [withSettings({ retry: { windowMs: 1000, scheduleMs: [2000, 1000] } })],
    }).problems;
    expect(problems).toEqual([
      'destinations[0].settings.retry.scheduleMs: delays must not decrease',
      'destinations[0].settings.retry.windowMs: must be longer than the first delay of scheduleMs, or nothing is retried',
    ]);
  });
});
