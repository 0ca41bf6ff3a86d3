import { DeliveryAttempt, TopicNames, topicNames } from '@switchyard/contracts';
import { eventually, freshNamespace, testBrokers, TopicReader } from '../support/kafka-test-kit';
import { PipelineProcesses } from '../support/pipeline-processes';
import { sampleValue, scrape } from '../support/prometheus-text';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { WorkspaceFile } from '../support/workspace-file';

const FIRST_KEY = 'filters-first-key-0001';
const REPLAY_KEY = 'filters-replay-key-0001';
const CALLS = 1000;
const SAMPLE_PERCENT = 30;
const BATCH = 100;

/** Four kinds of call, in turn: dropped, sampled, allow-listed, and plain (one property removed). */
const KINDS = ['Test Event', 'Sampled', 'Allowed', 'Plain'] as const;
const kindOf = (i: number) => KINDS[i % KINDS.length];
const messageIdOf = (i: number) => `filters-message-${i}`;

/** The destination's rules, as a user writes them in the workspace file. */
const FILTERS = [
  { name: 'drop tests', if: { field: 'event', prefix: 'Test ' }, then: { drop: true } },
  {
    name: 'sample',
    if: {
      and: [
        { field: 'type', equals: 'track' },
        { field: 'properties.group', in: ['sampled'] },
      ],
    },
    then: { sample: SAMPLE_PERCENT },
  },
  {
    name: 'keep only what is needed',
    if: { field: 'event', equals: 'Allowed' },
    then: { allowProperties: ['keep'] },
  },
  { name: 'no emails', then: { removeProperties: ['email'] } },
];

/**
 * Destination filters through the whole pipeline: ingest, router and delivery as their own
 * processes, a workspace file whose destination carries rules, and a real receiver. Every call
 * ends as a webhook or as a `filtered` record on the attempts topic, so the test awaits both.
 */
describe('destination filters end to end', () => {
  let receiver: WebhookReceiver;
  let workspace: WorkspaceFile;
  let processes: PipelineProcesses;
  let topics: TopicNames;
  let attempts: TopicReader<DeliveryAttempt[]>;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const sources = [
      { id: 'first', name: 'first', writeKey: FIRST_KEY },
      { id: 'replay', name: 'replay', writeKey: REPLAY_KEY },
    ];
    workspace = new WorkspaceFile({
      sources,
      destinations: [
        {
          id: 'filtered-hooks',
          type: 'Webhooks',
          enabled: true,
          sources: ['first', 'replay'],
          settings: { webhooks: [{ url: receiver.url('/hooks') }] },
          filters: FILTERS,
        },
      ],
    });
    const namespace = freshNamespace('filters');
    topics = topicNames(namespace);
    processes = await PipelineProcesses.start({
      KAFKA_BROKERS: testBrokers(),
      TOPIC_NAMESPACE: namespace,
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: workspace.path,
    });
    attempts = await TopicReader.start<DeliveryAttempt[]>([topics.deliveryAttempts]);
  }, 120_000);

  afterAll(async () => {
    await attempts?.stop();
    await processes?.stop();
    await receiver?.stop();
    workspace?.remove();
  });

  /** Sends the CALLS calls (same messageIds each round) through `/v1/batch`, marking the round in their context. */
  async function sendRound(writeKey: string, round: number): Promise<void> {
    for (let start = 0; start < CALLS; start += BATCH) {
      const batch = Array.from({ length: BATCH }, (_, j) => {
        const i = start + j;
        return {
          type: 'track',
          messageId: messageIdOf(i),
          userId: `user-${i % 17}`,
          event: kindOf(i),
          properties: {
            group: kindOf(i) === 'Sampled' ? 'sampled' : 'other',
            keep: i,
            email: `u${i}@example.com`,
          },
          context: { round },
        };
      });
      const response = await fetch(`${processes.ingest.url}/v1/batch`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
        },
        body: JSON.stringify({ batch }),
      });
      expect(response.status).toBe(200);
    }
  }

  /** messageIds the router filtered for calls of `sourceId`, with the rule that did it. */
  const filteredOf = (sourceId: string) =>
    new Map(
      attempts.records
        .flatMap((r) => r.value)
        .filter((a) => a.outcome === 'filtered' && a.sourceId === sourceId)
        .map((a) => [a.messageId, a.filter!.rule]),
    );
  const deliveredIn = (round: number) =>
    new Map(
      receiver.received
        .filter((h) => (h.body.context as { round?: number }).round === round)
        .map((h) => [h.body.messageId as string, h]),
    );

  /** Resolves once every call of the round is accounted for: delivered, or recorded as filtered. */
  async function settle(round: number, sourceId: string): Promise<Map<string, ReceivedWebhook>> {
    const accounted = () => deliveredIn(round).size + filteredOf(sourceId).size;
    await eventually(
      () => accounted() >= CALLS,
      90_000,
      `${CALLS} calls of round ${round} delivered or filtered`,
    );
    expect(accounted()).toBe(CALLS);
    return deliveredIn(round);
  }

  it('drops exactly the matching calls, samples within tolerance, and applies the property lists', async () => {
    await sendRound(FIRST_KEY, 1);
    const delivered = await settle(1, 'first');
    const filtered = filteredOf('first');

    const ids = (kind: string) =>
      Array.from({ length: CALLS }, (_, i) => i)
        .filter((i) => kindOf(i) === kind)
        .map(messageIdOf);
    for (const id of ids('Test Event')) expect(filtered.get(id)).toBe('drop tests');
    for (const kind of ['Allowed', 'Plain']) for (const id of ids(kind)) expect(delivered.has(id)).toBe(true);

    // Each sampled call is delivered or filtered by the sample rule, never both.
    const sampled = ids('Sampled');
    const kept = sampled.filter((id) => delivered.has(id));
    for (const id of sampled) expect(delivered.has(id)).toBe(filtered.get(id) !== 'sample');
    // Binomial: n calls kept with probability p each; within five standard deviations of n·p.
    const n = sampled.length;
    const p = SAMPLE_PERCENT / 100;
    expect(Math.abs(kept.length - n * p)).toBeLessThanOrEqual(5 * Math.sqrt(n * p * (1 - p)));

    for (const id of ids('Allowed'))
      expect(delivered.get(id)!.body.properties).toEqual({ keep: expect.any(Number) });
    for (const id of ids('Plain'))
      expect(delivered.get(id)!.body.properties).toEqual({ group: 'other', keep: expect.any(Number) });

    const metrics = await scrape(processes.services.router.url);
    const counted = (rule: string, action: string) =>
      sampleValue(metrics, 'switchyard_router_calls_filtered_total', {
        destination: 'filtered-hooks',
        rule,
        action,
      });
    // At least once: a redelivered input may count a call twice, never fewer.
    expect(counted('drop tests', 'drop')).toBeGreaterThanOrEqual(ids('Test Event').length);
    expect(counted('sample', 'sample')).toBeGreaterThanOrEqual(n - kept.length);
  });

  it('decides the same again when the same messageIds come back', async () => {
    const firstDelivered = new Set(deliveredIn(1).keys());
    await sendRound(REPLAY_KEY, 2);
    const delivered = await settle(2, 'replay');
    expect(new Set(delivered.keys())).toEqual(firstDelivered);
    expect(filteredOf('replay')).toEqual(filteredOf('first'));
  });
});
