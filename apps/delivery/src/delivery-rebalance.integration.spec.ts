import { topicNames } from '@switchyard/contracts';
import { freshNamespace, groupMember } from '../../../test/support/kafka-test-kit';
import {
  deliveryEnv,
  job,
  JobProducer,
  startDeliveryIn,
  TestCleanups,
} from '../test-support/delivery-harness';

const PARTITIONS = 4;

describe('delivery through a rebalance', () => {
  const cleanups = new TestCleanups();

  it('does not send again what it sent from a partition it keeps', async () => {
    const hook = await cleanups.receiver(() => ({ status: 200 }));
    const workspace = cleanups.workspace([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    const namespace = freshNamespace('rejoin');
    const topics = topicNames(namespace);
    // Nothing is committed during the test, as when the group's coordinator is lost: every job
    // sent so far lies past the committed offsets when the group changes.
    const env = deliveryEnv(namespace, workspace.path, {
      TOPIC_PARTITIONS: String(PARTITIONS),
      DELIVERY_COMMIT_INTERVAL_MS: '60000',
    });
    const { app } = await startDeliveryIn(env);
    let stopping: Promise<void> | undefined;
    const stopDelivery = () => (stopping ??= app.close());
    cleanups.add(stopDelivery);
    const producer = await JobProducer.connect(namespace);
    cleanups.add(() => producer.close());

    const partitions = [...Array(PARTITIONS).keys()];
    const before = partitions.flatMap((p) => [0, 1, 2].map((i) => job('dest-a', 10 * p + i)));
    for (const p of partitions) await producer.sendTo(p, before.slice(3 * p, 3 * p + 3));
    await hook.waitForRequests(before.length);

    // A second member joins the group (as a second replica would) and takes some partitions.
    const member = await groupMember(`${namespace}.delivery`, [
      topics.deliveries,
      topics.retry(1),
      topics.retry(2),
    ]);
    cleanups.add(member.leave);
    const kept = partitions.filter((p) => !member.taken.includes(p));
    expect(kept.length).toBeGreaterThan(0);

    // One more job on each partition delivery kept: it comes after anything read there again.
    const after = kept.map((p) => job('dest-a', 100 + p));
    for (const [i, p] of kept.entries()) await producer.sendTo(p, [after[i]]);
    await hook.waitForRequests(before.length + after.length);
    // Stopping waits for every request in flight, so a job read again would have arrived by now.
    await stopDelivery();

    const sent = hook.requests.map((r) => JSON.parse(r.rawBody.toString()).messageId as string);
    expect(sent.sort()).toEqual([...before, ...after].map((j) => j.messageId).sort());
  });
});
