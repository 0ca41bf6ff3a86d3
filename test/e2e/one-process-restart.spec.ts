import { ClientLoad } from '../support/client-load';
import { RunningPipeline, startReceiverPipeline } from '../support/pipeline-processes';
import { TEST_WRITE_KEY } from '../support/workspace-file';

/**
 * The one process small deployments run is restarted whole: its container is stopped (SIGTERM) or
 * killed (SIGKILL, an out-of-memory kill or a lost node) and started again while calls keep coming.
 * A SIGTERM closes ingest first, then the router and delivery, and exits 0; after a SIGKILL,
 * whatever was acknowledged but not yet delivered is delivered by the next start. Either way every
 * call the client library was told was accepted reaches the webhook (some twice: at least once).
 */
describe('the one process restarted whole under load', () => {
  let pipeline: RunningPipeline;

  beforeAll(async () => {
    pipeline = await startReceiverPipeline(
      'one-process-restart',
      // The killed process's consumers stay members until their session expires: short, so the
      // next start's consumers are assigned the partitions soon.
      { KAFKA_SESSION_TIMEOUT_MS: '6000' },
      'all-in-one',
    );
  }, 120_000);

  afterAll(() => pipeline?.stop());

  it('delivers every accepted call across a SIGTERM and a SIGKILL of the whole process', async () => {
    const { receiver, processes } = pipeline;
    // The restarted process listens on the same port; the retries wait out a restart from source
    // on a loaded machine.
    const load = new ClientLoad(processes.ingest.url, TEST_WRITE_KEY, {
      maxAttempts: 20,
      initialDelayMs: 100,
      maxDelayMs: 3000,
    });
    // A call made now, once delivered, shows the pipeline flowing end to end; a hundred more
    // deliveries after it, that the restart comes with calls in flight at every stage.
    const flowing = async () => {
      const marker = load.track('marker', 'Marker');
      await receiver.waitFor(1, (h) => h.body.messageId === marker, 90_000);
      await receiver.waitFor(receiver.received.length + 100);
    };
    const exits: Record<string, number | string> = {};
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      await flowing();
      exits[signal] = await processes.restartOneProcess(signal);
    }
    await flowing();
    await load.stop();

    expect(exits).toEqual({ SIGTERM: 0, SIGKILL: 'SIGKILL' });
    expect(load.failures).toEqual([]);
    const missing = await load.missingAt(receiver);
    if (missing.length > 0) console.log(processes.tails());
    expect(missing).toEqual([]);
    expect(load.sent.size).toBeGreaterThan(300);
  }, 240_000);
});
