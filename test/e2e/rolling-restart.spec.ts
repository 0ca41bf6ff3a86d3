import { ClientLoad } from '../support/client-load';
import { RunningPipeline, SERVICES, startReceiverPipeline } from '../support/pipeline-processes';
import { TEST_WRITE_KEY } from '../support/workspace-file';

/**
 * The shutdown promise: SIGTERM on any service stops taking work, finishes what is in flight,
 * commits and exits 0, so restarting every service in turn while events flow loses nothing.
 * Load comes from Switchyard's own client library, whose retries carry calls over ingest's restart.
 */
describe('rolling restart of every service under load', () => {
  let pipeline: RunningPipeline;

  beforeAll(async () => {
    pipeline = await startReceiverPipeline('rolling', { KAFKA_SESSION_TIMEOUT_MS: '6000' });
  }, 120_000);

  afterAll(() => pipeline?.stop());

  it('delivers every accepted event while ingest, router and delivery are each restarted with SIGTERM', async () => {
    const { receiver, processes } = pipeline;
    // A restarted ingest listens on the same port.
    const load = new ClientLoad(processes.ingest.url, TEST_WRITE_KEY, {
      maxAttempts: 20,
      initialDelayMs: 100,
      maxDelayMs: 1000,
    });

    const exitCodes: Record<string, number | string> = {};
    for (const name of SERVICES) {
      await receiver.waitFor(load.sent.size > 50 ? Math.floor(load.sent.size / 2) : 1);
      exitCodes[name] = await processes.stopOne(name, 'SIGTERM');
      await processes.startAgain(name);
    }
    await load.stop();

    expect(exitCodes).toEqual({ ingest: 0, router: 0, delivery: 0 });
    expect(load.failures).toEqual([]);
    expect(await load.missingAt(receiver)).toEqual([]);
    expect(load.sent.size).toBeGreaterThan(300);
  }, 240_000);
});
