import { Analytics as SegmentAnalytics } from '@segment/analytics-node';
import {
  ConformanceBench,
  expectStandardCalls,
  NodeClient,
  sendStandardCalls,
  TEST_WRITE_KEY,
} from './conformance-kit';
// Legacy SDK (analytics-node 6.x) ships CommonJS without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const LegacyAnalytics = require('analytics-node') as new (key: string, options: object) => LegacyClient;

type LegacyClient = NodeClient & { flush(): Promise<unknown> };

describe('real Segment Node SDKs against ingest', () => {
  let bench: ConformanceBench;
  beforeAll(async () => {
    bench = await ConformanceBench.start('conf-node');
  });
  afterAll(() => bench.stop());

  it('legacy analytics-node (6.x) lands identify, track, page, screen, group and alias', async () => {
    const userId = 'legacy-node-user';
    const client = new LegacyAnalytics(TEST_WRITE_KEY, {
      host: bench.ingest.url,
      flushAt: 20,
      flushInterval: 60_000,
      errorHandler: (e: Error) => {
        throw e;
      },
    });
    sendStandardCalls(client, userId);
    await client.flush();

    const calls = await bench.callsFor(userId, 6);
    expectStandardCalls(calls, userId, ['identify', 'track', 'page', 'screen', 'group', 'alias']);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
    expect(calls.alias.timestamp).toBe('2015-01-02T10:04:05.000Z');
    expect(calls.identify.context).toMatchObject({ library: { name: 'analytics-node' } });
  });

  it('@segment/analytics-node lands identify, track, page, screen, group and alias', async () => {
    const userId = 'segment-node-user';
    const client = new SegmentAnalytics({
      writeKey: TEST_WRITE_KEY,
      host: bench.ingest.url,
      maxEventsInBatch: 20,
      flushInterval: 60_000,
    });
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    sendStandardCalls(client, userId);
    await client.closeAndFlush({ timeout: 20_000 });

    expect(errors).toEqual([]);
    const calls = await bench.callsFor(userId, 6);
    expectStandardCalls(calls, userId, ['identify', 'track', 'page', 'screen', 'group', 'alias']);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
    expect(calls.alias.timestamp).toBe('2015-01-02T10:04:05.000Z');
    expect(calls.identify.context).toMatchObject({ library: { name: '@segment/analytics-node' } });
  });
});
