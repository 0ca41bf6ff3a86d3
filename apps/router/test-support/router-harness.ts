import { KafkaProducer } from '@switchyard/kafka';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  AudienceSyncBody,
  AudienceSynced,
  Call,
  DeliveryJob,
  eventKey,
  topicNames,
  TopicNames,
} from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { createLogger } from '@switchyard/telemetry';
import {
  deliveryJobView,
  eventually,
  freshNamespace,
  testKafka,
  TopicReader,
} from '../../../test/support/kafka-test-kit';
import { testServiceEnv } from '../../../test/support/service-env';
import { WorkspaceFile as WorkspaceFileOnDisk } from '../../../test/support/workspace-file';
import { routerGroupId, routerSettingsFromEnv } from '../src/router-settings';
import { startRouter } from '../src/router.app';

/** A workspace configuration as the file holds it; tests write and rewrite it. */
export interface WorkspaceFile {
  sources: Array<{ id: string; name: string; writeKey: string }>;
  destinations: Array<{
    id: string;
    type: 'Webhooks';
    name?: string;
    enabled: boolean;
    sources: string[];
    settings: { webhooks: Array<{ url: string }> };
  }>;
}

export function source(id: string): WorkspaceFile['sources'][number] {
  return { id, name: `Source ${id}`, writeKey: `wk-${id}-0123456789` };
}

export function webhooks(
  id: string,
  sources: string[],
  enabled = true,
): WorkspaceFile['destinations'][number] {
  return {
    id,
    type: 'Webhooks',
    enabled,
    sources,
    settings: { webhooks: [{ url: `https://hooks.example/${id}` }] },
  };
}

let sequence = 0;

/** A normalised call as ingest would store it; each gets its own messageId. */
export function trackCall(fields: Partial<Call> = {}): Call {
  sequence += 1;
  return {
    type: 'track',
    event: 'Order Completed',
    messageId: `m-${Date.now()}-${sequence}`,
    userId: 'u-1',
    context: {},
    integrations: {},
    timestamp: '2024-03-01T12:00:00.000Z',
    receivedAt: '2024-03-01T12:00:01.000Z',
    ...fields,
  };
}

interface RouterPlace {
  namespace: string;
  workspace: WorkspaceFileOnDisk;
  transactional: boolean;
}

async function launchRouter(place: RouterPlace): Promise<NestFastifyApplication> {
  const settings = routerSettingsFromEnv({
    ...testServiceEnv(place.namespace, place.workspace.path, 3),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    ROUTER_TRANSACTIONAL: String(place.transactional),
  });
  return startRouter(settings, createLogger('router-test', settings.logLevel));
}

/**
 * One router on a fresh topic namespace with its own workspace file, a producer for its input
 * topics and a reader of its outputs (delivery jobs and dead letters). `close` stops all of it.
 */
export class RouterHarness {
  readonly topics: TopicNames;

  private constructor(
    private readonly place: RouterPlace,
    private router: NestFastifyApplication | undefined,
    readonly producer: KafkaProducer,
    readonly outputs: TopicReader<DeliveryJob>,
  ) {
    this.topics = topicNames(place.namespace);
  }

  static async start(
    workspace: WorkspaceFile,
    options: { transactional?: boolean } = {},
  ): Promise<RouterHarness> {
    const place = {
      namespace: freshNamespace('router'),
      workspace: new WorkspaceFileOnDisk(workspace),
      transactional: options.transactional ?? false,
    };
    const router = await launchRouter(place);
    const producer = testKafka().producer();
    await producer.connect();
    const topics = topicNames(place.namespace);
    const outputs = await TopicReader.start([topics.deliveries, topics.eventsDead], deliveryJobView);
    return new RouterHarness(place, router, producer, outputs);
  }

  /** Starts the router again after `stopRouter` (same namespace, same consumer groups). */
  async restartRouter(): Promise<void> {
    await this.stopRouter();
    this.router = await launchRouter(this.place);
  }

  async stopRouter(): Promise<void> {
    await this.router?.close();
    this.router = undefined;
  }

  /** Rewrites the workspace file and waits until the router has applied it. */
  async rewriteWorkspace(workspace: WorkspaceFile, applied: (store: Workspace) => boolean): Promise<void> {
    this.place.workspace.update(workspace);
    const store = this.router!.get(Workspace);
    await eventually(() => applied(store), 10_000, 'the workspace change to be applied');
  }

  async sendCalls(sourceId: string, calls: Call[]): Promise<void> {
    await this.producer.send({
      topic: this.topics.events,
      acks: -1,
      messages: calls.map((call) => ({
        key: eventKey(sourceId, call),
        value: JSON.stringify({ sourceId, call }),
      })),
    });
  }

  /**
   * Writes an audience sync as ingest would (keyed by computation id, stamped on receipt). Tests
   * pin a partition to put a sentinel computation behind the syncs they check.
   */
  async syncAudience(body: AudienceSyncBody, receivedAt: string, partition?: number): Promise<void> {
    const value: AudienceSynced = { ...body, receivedAt };
    await this.producer.send({
      topic: this.topics.audiences,
      acks: -1,
      messages: [{ key: body.computation.id, value: JSON.stringify(value), partition }],
    });
  }

  /**
   * Resolves once the router has committed everything on the events topic so far: the way to
   * know that a call which should produce nothing has been handled.
   */
  async eventsHandled(): Promise<void> {
    const admin = testKafka().admin();
    await admin.connect();
    try {
      await eventually(
        async () => {
          const ends = await admin.fetchTopicOffsets(this.topics.events);
          const [committed] = await admin.fetchOffsets({
            groupId: routerGroupId({ topicNamespace: this.place.namespace }, 'events'),
            topics: [this.topics.events],
          });
          const at = new Map(committed.partitions.map((p) => [p.partition, BigInt(p.offset)]));
          return ends.every((end) => end.high === '0' || (at.get(end.partition) ?? -1n) >= BigInt(end.high));
        },
        20_000,
        'the router to commit every event',
      );
    } finally {
      await admin.disconnect();
    }
  }

  /** Delivery jobs seen so far for a message. */
  jobsFor(messageId: string): DeliveryJob[] {
    return this.outputs.records
      .filter((r) => r.topic === this.topics.deliveries && r.value.messageId === messageId)
      .map((r) => r.value);
  }

  async close(): Promise<void> {
    await this.stopRouter();
    await this.outputs?.stop();
    await this.producer.disconnect();
  }
}
