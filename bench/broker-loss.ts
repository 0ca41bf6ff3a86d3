/**
 * What losing one broker of three costs: a three-node cluster of scripts/kafka/kafka.sh (its own
 * ports, never the shared broker; replication 3, min.insync.replicas 2) under a steady load, the
 * leader of the events topic's first partition (or node `--node`) SIGKILLed, and the longest
 * stretch without an acknowledged call and without a delivered webhook printed. Every node is also
 * a KRaft controller; killing each in turn finds the active one's longer gap. The broker settings
 * in effect are those `kafka.sh cluster` writes (docs/operations.md, Kafka outages).
 *
 *   npm run bench:broker-loss -- [--node 1|2|3]
 */
import { parseArgs } from 'node:util';
import { topicNames } from '@switchyard/contracts';
import { rawTestKafka } from '../libs/kafka/src/testing';
import { loadWhileKillingBroker, threeBrokerEnv } from '../test/support/broker-kill';
import { eventually, freshNamespace } from '../test/support/kafka-test-kit';
import { LocalKafka } from '../test/support/local-kafka';
import { PipelineProcesses } from '../test/support/pipeline-processes';
import { longestGapWithout200, trackCall } from '../test/support/track-load';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from '../test/support/workspace-file';

/** The longest time from `since` without an arrival, in ms. */
function longestGap(arrivals: number[], since: number, until: number): number {
  let last = since;
  let longest = 0;
  for (const at of [...arrivals.filter((a) => a >= since), until].sort((a, b) => a - b)) {
    longest = Math.max(longest, at - last);
    last = at;
  }
  return longest;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { node: { type: 'string' } } });
  const node = values.node === undefined ? undefined : Number(values.node);
  if (node !== undefined && ![1, 2, 3].includes(node)) throw new Error('--node must be 1, 2 or 3');
  const arrivals: number[] = [];
  const receiver = await WebhookReceiver.start();
  receiver.respond = () => (arrivals.push(Date.now()), 200);
  const workspace = new WorkspaceFile(simpleWorkspace([receiver.url()]));
  const cluster = await LocalKafka.cluster(3);
  const namespace = freshNamespace('broker-loss');
  let pipeline: PipelineProcesses | undefined;
  try {
    pipeline = await PipelineProcesses.start({
      ...threeBrokerEnv(cluster, namespace, workspace.path),
      INGEST_PRODUCE_TIMEOUT_MS: '5000',
    });
    const ingestUrl = pipeline.ingest.url;
    await eventually(
      async () => (await trackCall(ingestUrl, TEST_WRITE_KEY, 'warm-up')).status === 200,
      60_000,
      'ingest writing',
    );
    const admin = rawTestKafka(cluster.brokers.split(','), 'broker-loss-bench').admin();
    await admin.connect();
    const { topics } = await admin.fetchTopicMetadata({ topics: [topicNames(namespace).events] });
    await admin.disconnect();
    const victim = node ?? topics[0].partitions.find((p) => p.partitionId === 0)!.leader;

    const total = 1500;
    const { outcomes, killedAt } = await loadWhileKillingBroker({
      ingestUrl,
      cluster,
      victim,
      total,
      killAfter: Math.floor(total / 4),
      prefix: 'loss',
    });
    const acknowledged = outcomes.filter((o) => o.status === 200).length;
    await eventually(() => arrivals.length >= acknowledged, 120_000, 'deliveries').catch(() => undefined);
    const lastAnswer = Math.max(...outcomes.map((o) => o.answeredAt));
    console.log(
      JSON.stringify({
        victim,
        calls: total,
        acknowledged,
        longestGapWithoutAcknowledgedCallMs: longestGapWithout200(outcomes, killedAt),
        longestGapWithoutDeliveryMs: longestGap(arrivals, killedAt, lastAnswer),
      }),
    );
  } finally {
    await pipeline?.stop();
    await cluster.stop();
    await receiver.stop();
    workspace.remove();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
