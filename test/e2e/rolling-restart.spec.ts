import { Analytics } from '@switchyard/analytics';
import { eventually, freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { PipelineProcesses, SERVICES } from '../support/pipeline-processes';
import { WebhookReceiver } from '../support/webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from '../support/workspace-file';

/**
 * The shutdown promise: SIGTERM on any service stops taking work, finishes what is in flight,
 * commits and exits 0, so restarting every service in turn while events flow loses nothing.
 * Load comes from Switchyard's own client library, whose retries carry calls over ingest's restart.
 */
describe('rolling restart of every service under load', () => {
  let receiver: WebhookReceiver;
  let processes: PipelineProcesses | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const workspace = new WorkspaceFile(simpleWorkspace([receiver.url()]));
    processes = await PipelineProcesses.start({
      KAFKA_BROKERS: testBrokers(),
      TOPIC_NAMESPACE: freshNamespace('rolling'),
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: workspace.path,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
  }, 120_000);

  afterAll(async () => {
    await processes?.stop();
    await receiver?.stop();
  });

  it('delivers every accepted event while ingest, router and delivery are each restarted with SIGTERM', async () => {
    const pipeline = processes!;
    const client = new Analytics(TEST_WRITE_KEY, {
      // A restarted ingest listens on the same port.
      endpoint: pipeline.ingest.url,
      flushAt: 20,
      flushAfter: 20,
      retry: { maxAttempts: 20, initialDelayMs: 100, maxDelayMs: 1000 },
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

    const exitCodes: Record<string, number | string> = {};
    for (const name of SERVICES) {
      await receiver.waitFor(sent.size > 50 ? Math.floor(sent.size / 2) : 1);
      exitCodes[name] = await pipeline.stopOne(name, 'SIGTERM');
      await pipeline.startAgain(name);
    }
    sending = false;
    await load;
    await client.close();

    expect(exitCodes).toEqual({ ingest: 0, router: 0, delivery: 0 });
    expect(failures).toEqual([]);
    // At-least-once: a restart may deliver some events twice, so wait for every distinct id.
    const missing = () => {
      const delivered = new Set(receiver.received.map((h) => String(h.body.messageId)));
      return [...sent].filter((id) => !delivered.has(id));
    };
    await eventually(() => missing().length === 0, 90_000, 'every sent event at the receiver').catch(
      () => undefined,
    );
    expect(missing()).toEqual([]);
    expect(sent.size).toBeGreaterThan(300);
  }, 240_000);
});
