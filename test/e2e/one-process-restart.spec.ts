import { Analytics } from '@switchyard/analytics';
import { eventually, freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { PipelineProcesses } from '../support/pipeline-processes';
import { WebhookReceiver } from '../support/webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from '../support/workspace-file';

/**
 * The one process small deployments run is restarted whole: its container is stopped (SIGTERM) or
 * killed (SIGKILL, an out-of-memory kill or a lost node) and started again while calls keep coming.
 * A SIGTERM closes ingest first, then the router and delivery, and exits 0; after a SIGKILL,
 * whatever was acknowledged but not yet delivered is delivered by the next start. Either way every
 * call the client library was told was accepted reaches the webhook (some twice: at least once).
 */
describe('the one process restarted whole under load', () => {
  let receiver: WebhookReceiver;
  let workspace: WorkspaceFile;
  let processes: PipelineProcesses | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    workspace = new WorkspaceFile(simpleWorkspace([receiver.url()]));
    processes = await PipelineProcesses.start(
      {
        KAFKA_BROKERS: testBrokers(),
        TOPIC_NAMESPACE: freshNamespace('one-process-restart'),
        TOPIC_PARTITIONS: '2',
        WORKSPACE_CONFIG: workspace.path,
        // The killed process's consumers stay members until their session expires: short, so the
        // next start's consumers are assigned the partitions soon.
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      },
      'all-in-one',
    );
  }, 120_000);

  afterAll(async () => {
    await processes?.stop();
    await receiver?.stop();
    workspace?.remove();
  });

  it('delivers every accepted call across a SIGTERM and a SIGKILL of the whole process', async () => {
    const pipeline = processes!;
    const client = new Analytics(TEST_WRITE_KEY, {
      // The restarted process listens on the same port.
      endpoint: pipeline.ingest.url,
      flushAt: 20,
      flushAfter: 20,
      // Enough to wait out a restart from source on a loaded machine.
      retry: { maxAttempts: 20, initialDelayMs: 100, maxDelayMs: 3000 },
    });
    const failures: unknown[] = [];
    client.on('error', (e) => failures.push(e));
    const sent = new Set<string>();
    let sending = true;
    const load = (async () => {
      for (let i = 0; sending; i++) {
        sent.add(client.track({ userId: `user-${i % 50}`, event: 'Tick', properties: { i } }));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    // A call made now, once delivered, shows the pipeline flowing end to end; a hundred more
    // deliveries after it, that the restart comes with calls in flight at every stage.
    const flowing = async () => {
      const marker = client.track({ userId: 'marker', event: 'Marker' });
      sent.add(marker);
      await receiver.waitFor(1, (h) => h.body.messageId === marker, 90_000);
      await receiver.waitFor(receiver.received.length + 100);
    };
    const exits: Record<string, number | string> = {};
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      await flowing();
      exits[signal] = await pipeline.restartOneProcess(signal);
    }
    await flowing();
    sending = false;
    await load;
    await client.close();

    expect(exits).toEqual({ SIGTERM: 0, SIGKILL: 'SIGKILL' });
    expect(failures).toEqual([]);
    const missing = () => {
      const delivered = new Set(receiver.received.map((h) => String(h.body.messageId)));
      return [...sent].filter((id) => !delivered.has(id));
    };
    await eventually(() => missing().length === 0, 90_000, 'every sent call at the receiver').catch(
      () => undefined,
    );
    if (missing().length > 0) console.log(pipeline.tails());
    expect(missing()).toEqual([]);
    expect(sent.size).toBeGreaterThan(300);
  }, 240_000);
});
