import { LocalKafka } from './local-kafka';
import { CallOutcome, runTrackLoad } from './track-load';
import { TEST_WRITE_KEY } from './workspace-file';

/**
 * Settings for the pipeline on a three-node cluster of its own, as production runs it: every topic
 * with three replicas, two of them in sync for a write, and three partitions.
 */
export function threeBrokerEnv(cluster: LocalKafka, namespace: string, workspacePath: string) {
  return {
    KAFKA_BROKERS: cluster.brokers,
    KAFKA_REPLICATION_FACTOR: '3',
    KAFKA_MIN_INSYNC_REPLICAS: '2',
    TOPIC_NAMESPACE: namespace,
    TOPIC_PARTITIONS: '3',
    WORKSPACE_CONFIG: workspacePath,
  };
}

export interface BrokerKillLoad {
  ingestUrl: string;
  cluster: LocalKafka;
  /** The node to SIGKILL. */
  victim: number;
  /** Track calls in all (TEST_WRITE_KEY, 50 users, 8 senders pausing 20 ms). */
  total: number;
  /** The kill comes once this many calls were answered. */
  killAfter: number;
  prefix: string;
}

/**
 * A steady load of track calls with one broker SIGKILLed part-way; resolves once every call was
 * answered and the broker is gone, with every outcome and when the kill came.
 */
export async function loadWhileKillingBroker(
  load: BrokerKillLoad,
): Promise<{ outcomes: CallOutcome[]; killedAt: number }> {
  let killedAt = 0;
  let killing: Promise<void> | undefined;
  const outcomes = await runTrackLoad({
    ingestUrl: load.ingestUrl,
    writeKey: TEST_WRITE_KEY,
    total: load.total,
    users: 50,
    concurrency: 8,
    pauseMs: 20,
    prefix: load.prefix,
    onOutcome: (_outcome, done) => {
      if (done !== load.killAfter) return;
      killedAt = Date.now();
      killing = load.cluster.kill(load.victim);
    },
  });
  await killing;
  return { outcomes, killedAt };
}
