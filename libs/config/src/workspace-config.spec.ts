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
