import { Analytics } from '@switchyard/analytics';
import { ConformanceBench, expectStandardCalls, sendStandardCalls, TEST_WRITE_KEY } from './conformance-kit';

describe('Switchyard TypeScript client against ingest', () => {
  let bench: ConformanceBench;
  beforeAll(async () => {
    bench = await ConformanceBench.start('conf-ts-client');
  });
  afterAll(() => bench.stop());

  it('lands identify, track, page, screen, group and alias', async () => {
    const userId = 'switchyard-ts-user';
    const client = new Analytics(TEST_WRITE_KEY, {
      endpoint: bench.ingest.url,
      flushAt: 20,
      flushAfter: 60_000,
    });
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    const aliasId = sendStandardCalls(client, userId);
    await client.close();

    expect(errors).toEqual([]);
    const calls = await bench.callsFor(userId, 6);
    expectStandardCalls(calls, userId, ['identify', 'track', 'page', 'screen', 'group', 'alias']);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
    expect(calls.alias).toMatchObject({ messageId: aliasId, timestamp: '2015-01-02T10:04:05.000Z' });
    expect(calls.identify.context).toMatchObject({ library: { name: '@switchyard/analytics' } });
    expect(calls.identify.originalTimestamp).toMatch(/Z$/);
  });
});
