import { topicNames } from '@switchyard/contracts';
import { committedToEnd, eventually, freshNamespace, testKafka } from '../../../test/support/kafka-test-kit';
import { freePort, ServiceProcess } from '../../../test/support/service-process';
import { deliveryEnv, job, JobProducer, TestCleanups } from '../test-support/delivery-harness';

/** Runs delivery as its own process (as in production); resolves once it is ready (group joined). */
async function spawnDelivery(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  // A short session timeout: the restarted instance gets the killed one's partitions in seconds.
  return ServiceProcess.start('delivery', await freePort(), {
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    ...env,
    LOG_LEVEL: 'info',
  });
}

describe('delivery process crashes and restarts', () => {
  const cleanups = new TestCleanups();

  /** Tells whether delivery's group has committed the deliveries topic to its end, over one admin connection. */
  async function commitWatcher(namespace: string): Promise<() => Promise<boolean>> {
    const admin = testKafka().admin();
    await admin.connect();
    cleanups.add(() => admin.disconnect());
    return () => committedToEnd(admin, `${namespace}.delivery`, topicNames(namespace).deliveries);
  }

  it('delivers every job after a SIGKILL mid-flight (at-least-once, nothing lost)', async () => {
    const jobs = Array.from({ length: 40 }, (_, i) => job('dest-a', i));
    // Slow answers keep many requests in flight when the process dies.
    const hook = await cleanups.receiver(() => ({ status: 200, afterMs: 150 }));
    const workspace = cleanups.workspace([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    const namespace = freshNamespace('crash');
    const env = deliveryEnv(namespace, workspace.path, {
      DELIVERY_REQUEST_TIMEOUT_MS: '2000',
      DELIVERY_RETRY_WINDOW_MS: '60000',
      DELIVERY_MAX_IN_FLIGHT_PER_DESTINATION: '8',
    });

    const first = await spawnDelivery(env);
    cleanups.add(() => first.stop('SIGKILL'));
    const producer = await JobProducer.connect(namespace);
    cleanups.add(() => producer.close());
    await producer.send(...jobs);
    await hook.waitForRequests(10);
    await first.stop('SIGKILL');
    const seenBeforeRestart = new Set(hook.requests.map((r) => JSON.parse(r.rawBody.toString()).messageId));
    expect(seenBeforeRestart.size).toBeLessThan(jobs.length);

    const second = await spawnDelivery(env);
    cleanups.add(() => second.stop('SIGTERM'));
    const delivered = () =>
      new Set(hook.requests.map((r) => JSON.parse(r.rawBody.toString()).messageId as string));
    while (delivered().size < jobs.length) await hook.waitForRequests(hook.requests.length + 1, 30_000);
    expect([...delivered()].sort()).toEqual(jobs.map((j) => j.messageId).sort());
  });

  it('on SIGTERM finishes in-flight requests, commits past them and exits', async () => {
    const hook = await cleanups.receiver(() => ({ status: 200, afterMs: 300 }));
    const workspace = cleanups.workspace([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    const namespace = freshNamespace('term');
    const env = deliveryEnv(namespace, workspace.path, {
      DELIVERY_REQUEST_TIMEOUT_MS: '2000',
      DELIVERY_RETRY_WINDOW_MS: '60000',
      DELIVERY_SHUTDOWN_GRACE_MS: '5000',
    });
    const jobs = Array.from({ length: 5 }, (_, i) => job('dest-a', i));

    const service = await spawnDelivery(env);
    cleanups.add(() => service.stop('SIGKILL'));
    const producer = await JobProducer.connect(namespace);
    cleanups.add(() => producer.close());
    await producer.send(...jobs);
    // Every request has arrived and none is answered yet (300 ms): SIGTERM lands mid-flight.
    await hook.waitForRequests(jobs.length);
    expect(await service.stop('SIGTERM')).toBe(0);

    const deliveriesCommitted = await commitWatcher(namespace);
    expect(await deliveriesCommitted()).toBe(true);
    expect(hook.requests).toHaveLength(jobs.length);
  });

  it('commits finished jobs while it runs, so a crash after them sends none again', async () => {
    const hook = await cleanups.receiver(() => ({ status: 200 }));
    const workspace = cleanups.workspace([{ id: 'dest-a', webhooks: [{ url: hook.url }] }]);
    const namespace = freshNamespace('commit');
    const env = deliveryEnv(namespace, workspace.path, { DELIVERY_COMMIT_INTERVAL_MS: '100' });
    const jobs = Array.from({ length: 5 }, (_, i) => job('dest-a', i));

    const first = await spawnDelivery(env);
    cleanups.add(() => first.stop('SIGKILL'));
    const producer = await JobProducer.connect(namespace);
    cleanups.add(() => producer.close());
    await producer.send(...jobs);
    await hook.waitForRequests(jobs.length);
    const deliveriesCommitted = await commitWatcher(namespace);
    await eventually(deliveriesCommitted, 20_000, 'the finished jobs committed');
    await first.stop('SIGKILL');

    const second = await spawnDelivery(env);
    cleanups.add(() => second.stop('SIGTERM'));
    const after = job('dest-a', jobs.length);
    await producer.send(after);
    await hook.waitForRequests(jobs.length + 1);
    const sent = hook.requests.map((r) => JSON.parse(r.rawBody.toString()).messageId as string);
    expect(sent.sort()).toEqual([...jobs, after].map((j) => j.messageId).sort());
  });
});
