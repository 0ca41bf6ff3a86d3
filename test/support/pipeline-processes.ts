import { freshNamespace, testBrokers } from './kafka-test-kit';
import { freePort, ServiceProcess } from './service-process';
import { WebhookReceiver } from './webhook-receiver';
import { WorkspaceFile } from './workspace-file';

export interface RunningPipeline {
  receiver: WebhookReceiver;
  ingestUrl: string;
  stop(): Promise<void>;
}

export interface PipelineSource {
  writeKey: string;
  allowedOrigins?: string[];
}

/**
 * The whole system as a user runs it: ingest, router and delivery, each its own process, on a
 * fresh namespace, delivering the sources' calls (signed with `sharedSecret`) to a real receiver.
 */
export async function startPipeline(label: string, sharedSecret: string, sources: PipelineSource[]): Promise<RunningPipeline> {
  const receiver = await WebhookReceiver.start();
  const ids = sources.map((_, i) => `source-${i}`);
  const workspace = new WorkspaceFile({
    sources: sources.map((source, i) => ({ id: ids[i], name: ids[i], ...source })),
    destinations: [{ id: 'hooks', type: 'Webhooks', enabled: true, sources: ids, settings: { sharedSecret, webhooks: [{ url: receiver.url('/hooks') }] } }],
  });
  const env = { KAFKA_BROKERS: testBrokers(), TOPIC_NAMESPACE: freshNamespace(label), TOPIC_PARTITIONS: '2', WORKSPACE_CONFIG: workspace.path, DELIVERY_RETRY_SCHEDULE_MS: '100,200' };
  const services: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(services.map((s) => s.stop()));
    await receiver.stop();
    workspace.remove();
  };
  try {
    // One after the other: each creates the topics it needs before the next consumes them.
    for (const name of ['ingest', 'router', 'delivery'] as const) services.push(await ServiceProcess.start(name, await freePort(), env));
  } catch (error) {
    await stop();
    throw error;
  }
  return { receiver, ingestUrl: services[0].url, stop };
}
