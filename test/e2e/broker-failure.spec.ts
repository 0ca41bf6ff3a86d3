import { topicNames } from '@switchyard/contracts';
import { rawTestKafka } from '../../libs/kafka/src/testing';
import { loadWhileKillingBroker, threeBrokerEnv } from '../support/broker-kill';
import { eventually, freshNamespace } from '../support/kafka-test-kit';
import { LocalKafka } from '../support/local-kafka';
import { PIPELINE_MODES, PipelineProcesses } from '../support/pipeline-processes';
import {
  CallOutcome,
  longestGapWithout200,
  runTrackLoad,
  statusCounts,
  trackCall,
} from '../support/track-load';
import { WebhookReceiver } from '../support/webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from '../support/workspace-file';

/** What of these calls reached the receiver, against what ingest acknowledged. */
function deliveryReport(receiver: WebhookReceiver, outcomes: CallOutcome[]) {
  const sent = new Set(outcomes.map((o) => o.messageId));
  const delivered = receiver.received.map((h) => String(h.body.messageId)).filter((id) => sent.has(id));
  const unique = new Set(delivered);
  const acked = outcomes.filter((o) => o.status === 200).map((o) => o.messageId);
  return {
    sent: outcomes.length,
    statuses: statusCounts(outcomes),
    deliveredUnique: unique.size,
    duplicates: delivered.length - unique.size,
    missingAmongAcknowledged: acked.filter((id) => !unique.has(id)),
    deliveredWithout200: outcomes.filter((o) => o.status !== 200 && unique.has(o.messageId)).length,
  };
}

/**
 * Waits until every call ingest acknowledged has its event at the receiver (or gives up after
 * 240 s), prints what arrived under `heading` as the run's record, with the services' last lines
 * if any is missing, and returns the report for the test to judge.
 */
async function awaitDeliveries(
  receiver: WebhookReceiver,
  outcomes: CallOutcome[],
  pipeline: PipelineProcesses,
  heading: string,
) {
  await eventually(
    () => deliveryReport(receiver, outcomes).missingAmongAcknowledged.length === 0,
    240_000,
    'every acknowledged event at the receiver',
  ).catch(() => undefined);
  const report = deliveryReport(receiver, outcomes);
  console.log(
    heading,
    JSON.stringify({ ...report, missingAmongAcknowledged: report.missingAmongAcknowledged.length }),
  );
  if (report.missingAmongAcknowledged.length > 0) console.log(pipeline.tails());
  return report;
}

/** The brokers and the pipeline a describe block starts, stopped after its tests. */
function stoppedAfterAll(): { kafka?: LocalKafka; pipeline?: PipelineProcesses } {
  const started: { kafka?: LocalKafka; pipeline?: PipelineProcesses } = {};
  afterAll(async () => {
    await started.pipeline?.stop();
    await started.kafka?.stop();
  }, 60_000);
  return started;
}

/**
 * Brokers die under Switchyard. Every broker here is the suite's own (scripts/kafka/kafka.sh
 * cluster, in a temporary dir on free ports), never the shared test broker. The counts are
 * printed as the run's record; timing is printed, never asserted.
 */
describe('a broker dies', () => {
  let receiver: WebhookReceiver;
  let workspace: WorkspaceFile;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    workspace = new WorkspaceFile(simpleWorkspace([receiver.url()]));
  });

  afterAll(async () => {
    await receiver?.stop();
    workspace?.remove();
  });

  // Both shapes: the one process also hands its acknowledged writes straight to its own consumers,
  // which must stay whole while the partitions' leaders move.
  describe.each(PIPELINE_MODES)('one of three (replication 3, min.insync.replicas 2, %s)', (mode) => {
    const started = stoppedAfterAll();

    it('loses no acknowledged event, and the pipeline carries on without a restart', async () => {
      const cluster = (started.kafka = await LocalKafka.cluster(3));
      const namespace = freshNamespace(`three-${mode}`);
      const pipeline = (started.pipeline = await PipelineProcesses.start(
        threeBrokerEnv(cluster, namespace, workspace.path),
        mode,
      ));

      // The topics were created as asked: three replicas, two of them in sync for a write.
      const admin = rawTestKafka(cluster.brokers.split(','), 'broker-failure-test').admin();
      await admin.connect();
      const events = topicNames(namespace).events;
      const { topics } = await admin.fetchTopicMetadata({ topics: [events] });
      // The local cluster keeps every group's offsets in one partition (offsets.topic.num.partitions=1).
      const offsets = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
      const configs = await admin.describeConfigs({
        resources: [{ type: 2, name: events, configNames: ['min.insync.replicas'] }],
        includeSynonyms: false,
      });
      await admin.disconnect();
      expect(topics[0].partitions.map((p) => p.replicas.length)).toEqual([3, 3, 3]);
      expect(configs.resources[0].configEntries[0].configValue).toBe('2');
      // The broker that coordinates every consumer group dies, and with it the leader of one
      // partition of each topic: producers and consumers must move, and the groups go without a
      // coordinator (no commit) until the cluster elects another.
      const victim = offsets.topics[0].partitions[0].leader;
      expect(topics[0].partitions.map((p) => p.leader)).toContain(victim);

      const total = 1200;
      const { outcomes, killedAt } = await loadWhileKillingBroker({
        ingestUrl: pipeline.ingest.url,
        cluster,
        victim,
        total,
        killAfter: Math.floor(total / 3),
        prefix: `three-${mode}`,
      });

      const acked = outcomes.filter((o) => o.status === 200);
      const report = await awaitDeliveries(
        receiver,
        outcomes,
        pipeline,
        `one broker of three SIGKILLed (node ${victim}) after ${Math.floor(total / 3)} answers ` +
          `(longest gap with no 200 after the kill: ${longestGapWithout200(outcomes, killedAt)} ms):`,
      );
      expect(report.missingAmongAcknowledged).toEqual([]);
      expect(acked.length).toBeGreaterThan(total / 2);
      // At-least-once allows a few: what was in flight at the kill. Consumers that went back to
      // their committed offsets on rejoining sent again everything since the coordinator died.
      expect(report.duplicates).toBeLessThan(total / 10);

      // No service was restarted, all are ready on the two brokers left, and new events still flow.
      expect(pipeline.exited()).toEqual({});
      await eventually(
        async () =>
          JSON.stringify(await pipeline.health('ready')) ===
          JSON.stringify({ ingest: 200, router: 200, delivery: 200 }),
        60_000,
        'every service ready',
      );
      const after = await trackCall(pipeline.ingest.url, TEST_WRITE_KEY, `three-${mode}-after`);
      expect(after.status).toBe(200);
      await receiver.waitFor(1, (h) => h.body.messageId === `three-${mode}-after`, 60_000);
    }, 420_000);
  });

  describe('the only broker is not up yet when the one process starts', () => {
    const started = stoppedAfterAll();

    it('stays unready, then serves and delivers once the broker answers', async () => {
      // As in a compose file or a pod that starts beside Kafka: the broker comes up after the process.
      const broker = (started.kafka = await LocalKafka.unstartedCluster(1));
      const pipeline = (started.pipeline = await PipelineProcesses.launchAllInOne({
        KAFKA_BROKERS: broker.brokers,
        TOPIC_NAMESPACE: freshNamespace('start-down'),
        TOPIC_PARTITIONS: '2',
        WORKSPACE_CONFIG: workspace.path,
        LOG_LEVEL: 'info',
      }));
      // Ingest, the first service, is up and trying the broker (its first try spends the client's
      // retries before it says it waits, which the long-outage suite sees the router say).
      await eventually(
        () => pipeline.ingest.tail(Infinity).includes('Starting Nest application'),
        60_000,
        'the process starting its first service',
      );
      // No port may say ready (or answer at all) while there is no broker to write to.
      const statuses = Object.values(await pipeline.health('ready'));
      expect(statuses.filter((status) => status === 200)).toEqual([]);

      await broker.restart();
      await pipeline.ingest.ready(90_000);
      expect(await pipeline.health('ready')).toEqual({ ingest: 200, router: 200, delivery: 200 });
      await eventually(
        async () => (await trackCall(pipeline.ingest.url, TEST_WRITE_KEY, 'start-down-1')).status === 200,
        60_000,
        'the first call acknowledged',
      );
      await receiver.waitFor(1, (h) => h.body.messageId === 'start-down-1', 60_000);
      expect(pipeline.exited()).toEqual({});
    }, 300_000);
  });

  // Also in the one process small deployments run, whose services must go unready and come back together.
  describe.each(PIPELINE_MODES)('the only broker (%s)', (mode) => {
    /** The users the calls below come from: their keys spread the calls over both partitions. */
    const LOAD_USERS = 10;
    const started = stoppedAfterAll();

    it('answers 503 while it is down, turns every readiness 503 and back, and delivers every acknowledged event', async () => {
      const broker = (started.kafka = await LocalKafka.cluster(1));
      const pipeline = (started.pipeline = await PipelineProcesses.start(
        {
          KAFKA_BROKERS: broker.brokers,
          TOPIC_NAMESPACE: freshNamespace(`single-${mode}`),
          TOPIC_PARTITIONS: '2',
          WORKSPACE_CONFIG: workspace.path,
          // Short, so calls made while the broker is down are answered 503 soon; not so short that a
          // healthy broker on a loaded CI machine misses it (at 2 s, 4 of 60 calls did in one run).
          INGEST_PRODUCE_TIMEOUT_MS: '5000',
        },
        mode,
      ));
      // A first write to a broker that has just started (connections, metadata, leaders) took longer than
      // a 2 s produce timeout in a stressed CI run, and 28 of the 60 calls below got 503; so did the first
      // write to a partition not yet written (4 calls, in two runs). Wait until every user of the load
      // below, and so every partition, has had one call written.
      for (let user = 0; user < LOAD_USERS; user++) {
        await eventually(
          async () =>
            (
              await trackCall(
                pipeline.ingest.url,
                TEST_WRITE_KEY,
                `single-${mode}-warm-up-${user}`,
                `user-${user}`,
              )
            ).status === 200,
          60_000,
          `ingest writing user-${user}'s calls to the fresh broker`,
        );
      }
      const before = await runTrackLoad({
        ingestUrl: pipeline.ingest.url,
        writeKey: TEST_WRITE_KEY,
        total: 60,
        users: LOAD_USERS,
        concurrency: 4,
        pauseMs: 0,
        prefix: `single-${mode}-before`,
      });
      expect(statusCounts(before)).toEqual({ 200: 60 });

      await broker.kill(1);
      await eventually(
        async () =>
          JSON.stringify(await pipeline.health('ready')) ===
          JSON.stringify({ ingest: 503, router: 503, delivery: 503 }),
        30_000,
        'every service unready',
      );
      expect(await pipeline.health('live')).toEqual({ ingest: 200, router: 200, delivery: 200 });

      // Started now, the broker answers only once the session its killed self held has expired, at
      // least 30 s on (BROKER_SESSION_TIMEOUT_MS in scripts/kafka/lib.sh): the calls below, each
      // answered within ingest's produce timeout, are all answered before it is back.
      const restarted = broker.restart();
      // Calls made while the broker is down, answered before it comes back.
      const during = await runTrackLoad({
        ingestUrl: pipeline.ingest.url,
        writeKey: TEST_WRITE_KEY,
        total: 24,
        users: LOAD_USERS,
        concurrency: 8,
        pauseMs: 0,
        prefix: `single-${mode}-down`,
      });
      expect(statusCounts(during)).toEqual({ 503: 24 });
      expect(await pipeline.health('live')).toEqual({ ingest: 200, router: 200, delivery: 200 });

      await restarted;
      await eventually(
        async () =>
          JSON.stringify(await pipeline.health('ready')) ===
          JSON.stringify({ ingest: 200, router: 200, delivery: 200 }),
        90_000,
        'every service ready again',
      );
      expect(pipeline.exited()).toEqual({});

      // After recovery, as an SDK would: each call retried on 503 until it is acknowledged.
      const after: CallOutcome[] = [];
      for (let i = 0; i < 20; i++) {
        const id = `single-${mode}-after-${i}`;
        const outcome = await eventually(
          async () => {
            const o = await trackCall(pipeline.ingest.url, TEST_WRITE_KEY, id);
            return o.status === 200 && o;
          },
          60_000,
          `${id} acknowledged`,
        );
        after.push(outcome);
      }

      const outcomes = [...before, ...during, ...after];
      const report = await awaitDeliveries(
        receiver,
        outcomes,
        pipeline,
        `the only broker SIGKILLed and restarted (${mode}):`,
      );
      expect(report.missingAmongAcknowledged).toEqual([]);
    }, 420_000);
  });
});
