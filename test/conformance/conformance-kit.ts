import { Call, IngestedEvent, topicNames } from '@switchyard/contracts';
import { freshNamespace, TopicReader } from '../support/kafka-test-kit';
import { RunningIngest, startTestIngest } from '../../apps/ingest/test-support/ingest-harness';
import { simpleWorkspace } from '../support/workspace-file';

export { TEST_WRITE_KEY } from '../support/workspace-file';

/** A running ingest on a fresh namespace, and a reader of its events topic: what every SDK case needs. */
export class ConformanceBench {
  private constructor(
    readonly ingest: RunningIngest,
    private readonly reader: TopicReader<IngestedEvent>,
  ) {}

  static async start(label: string): Promise<ConformanceBench> {
    const namespace = freshNamespace(label);
    const ingest = await startTestIngest(namespace, simpleWorkspace());
    const reader = await TopicReader.start<IngestedEvent>([topicNames(namespace).events]);
    return new ConformanceBench(ingest, reader);
  }

  /** The calls that reached Kafka for a user (as userId or, for alias, previousId), by type. */
  async callsFor(userId: string, count: number): Promise<Record<string, Call>> {
    const records = await this.reader.waitFor(count, (r) => r.value.call.userId === userId, 30_000);
    return Object.fromEntries(records.map((r) => [r.value.call.type, r.value.call]));
  }

  async stop(): Promise<void> {
    await this.reader.stop();
    await this.ingest.close();
  }
}

/** What every SDK case checks of the calls it sent, field by field. */
export function expectStandardCalls(calls: Record<string, Call>, userId: string, types: string[]): void {
  // Every SDK program sends the same data: see node-sdks.spec.ts and the Go programs' main.go.
  expect(Object.keys(calls).sort()).toEqual([...types].sort());
  expect(calls.identify).toMatchObject({ userId, traits: { name: 'Ada', plan: 'pro' } });
  expect(calls.track).toMatchObject({ userId, event: 'Order Completed', properties: { revenue: 42.5 } });
  expect(calls.page).toMatchObject({ userId, name: 'Home', properties: PAGE_PROPERTIES });
  expect(calls.group).toMatchObject({ userId, groupId: 'g-1', traits: { name: 'Acme' } });
  expect(calls.alias).toMatchObject({ userId, previousId: expect.stringMatching(/-anon$/) });
  if (types.includes('screen')) expect(calls.screen).toMatchObject({ userId, name: 'Dashboard' });
  for (const call of Object.values(calls)) {
    expect(call.messageId).toEqual(expect.any(String));
    expect(call.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(call.receivedAt).toMatch(/Z$/);
  }
}

/** The page properties every client case sends (the Go programs and Python/Java ones send the same). */
export const PAGE_PROPERTIES = {
  url: 'https://example.com/',
  title: 'Home',
  path: '/',
  referrer: 'https://example.org/',
};

/** What a Node client offers: the six calls, each taking one message object. */
export interface NodeClient {
  identify(message: object): unknown;
  track(message: object): unknown;
  page(message: object): unknown;
  screen(message: object): unknown;
  group(message: object): unknown;
  alias(message: object): unknown;
}

/** Sends the six calls expectStandardCalls checks; track only to Webhooks, alias with a historical timestamp. Returns what alias returned. */
export function sendStandardCalls(client: NodeClient, userId: string): unknown {
  client.identify({ userId, traits: { name: 'Ada', plan: 'pro' } });
  client.track({
    userId,
    event: 'Order Completed',
    properties: { revenue: 42.5 },
    integrations: { All: false, Webhooks: true },
  });
  client.page({ userId, name: 'Home', properties: PAGE_PROPERTIES });
  client.screen({ userId, name: 'Dashboard' });
  client.group({ userId, groupId: 'g-1', traits: { name: 'Acme' } });
  return client.alias({ userId, previousId: `${userId}-anon`, timestamp: new Date('2015-01-02T10:04:05Z') });
}
