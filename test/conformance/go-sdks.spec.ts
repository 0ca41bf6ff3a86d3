import { join } from 'node:path';
import { ConformanceBench, expectStandardCalls, TEST_WRITE_KEY } from './conformance-kit';
import { runProgram } from './sdk-programs';

const root = join(__dirname, '..', '..');

/** Runs one Go program (compiled by `go run`, modules from the Go module proxy) against ingest. */
function runGoProgram(dir: string, pkg: string, endpoint: string, prefix: string): Promise<string> {
  return runProgram(
    'go',
    ['run', pkg, '-endpoint', endpoint, '-write-key', TEST_WRITE_KEY, '-user-prefix', prefix],
    {
      toolchain: 'The Go toolchain (go)',
      cwd: join(root, dir),
    },
  );
}

const ALL = ['identify', 'track', 'page', 'screen', 'group', 'alias'];

describe('real Go clients against ingest', () => {
  let bench: ConformanceBench;
  beforeAll(async () => {
    bench = await ConformanceBench.start('conf-go');
  });
  afterAll(() => bench.stop());

  it("Switchyard's own Go client (clients/go) lands every call", async () => {
    await runGoProgram('clients/go', './cmd/switchyard-conformance', bench.ingest.url, 'sy-go');
    const calls = await bench.callsFor('sy-go-user', 6);
    expectStandardCalls(calls, 'sy-go-user', ALL);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
    expect(calls.identify.timestamp).toBe('2015-01-02T10:04:05.000Z');
    expect(calls.identify.messageId).toBe('sy-go-identify');
  }, 300_000);

  it('segmentio/analytics-go v3 lands every call', async () => {
    await runGoProgram('test/conformance/go-segment', '.', bench.ingest.url, 'seg-go3');
    const calls = await bench.callsFor('seg-go3-user', 6);
    expectStandardCalls(calls, 'seg-go3-user', ALL);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
  }, 300_000);

  it('segmentio/analytics-go v2 (the deprecated library Segment documents) lands its five calls', async () => {
    await runGoProgram('test/conformance/go-segment-v2', '.', bench.ingest.url, 'seg-go2');
    const calls = await bench.callsFor('seg-go2-user', 5);
    expectStandardCalls(calls, 'seg-go2-user', ['identify', 'track', 'page', 'group', 'alias']);
  }, 300_000);

  it('segmentio/analytics-go v1 posts to /v1/import with -0700 timestamps and lands every call', async () => {
    await runGoProgram('test/conformance/go-segment-v1', '.', bench.ingest.url, 'seg-go1');
    const calls = await bench.callsFor('seg-go1-user', 6);
    expectStandardCalls(calls, 'seg-go1-user', ALL);
  }, 300_000);
});
