import { Workspace } from '@switchyard/config';
import { DELIVERY_RECORD_HEADERS as H } from '@switchyard/contracts';
import {
  job,
  startDeliveryWorld,
  TestCleanups,
  WebhookDestination,
  workspaceConfig,
} from '../test-support/delivery-harness';

const cleanups = new TestCleanups();
const receiver = cleanups.receiver.bind(cleanups);
/** One delivery service whose every request reaches its receiver (no circuit breaking), and readers of its retry and dead-letter topics. */
const world = (destinations: WebhookDestination[], env: Record<string, string> = {}) =>
  startDeliveryWorld(cleanups, 'policy', destinations, {
    DELIVERY_BREAKER_FAILURE_THRESHOLD: '1000',
    ...env,
  });

const of = (destinationId: string) => (r: { headers: Record<string, string> }) =>
  r.headers[H.destinationId] === destinationId;

describe("a destination's own retry policy and rate limit (real Kafka, real receivers)", () => {
  it('dead-letters a destination with a 10 s window at its window while one on the default keeps retrying', async () => {
    const short = await receiver(() => 503);
    const long = await receiver(() => 503);
    const w = await world(
      [
        { id: 'short', webhooks: [{ url: short.url }], retry: { windowMs: 10_000, scheduleMs: [200, 500] } },
        { id: 'default', webhooks: [{ url: long.url }] },
      ],
      { DELIVERY_RETRY_SCHEDULE_MS: '100,500', DELIVERY_RETRY_WINDOW_MS: '600000' },
    );
    await w.producer.send(job('short'), job('default', 2));

    const [dead] = await w.dead.waitFor(1, of('short'), 60_000);
    expect(dead.headers[H.failure]).toBe('window-spent');
    expect(dead.headers[H.lastError]).toContain('retry window of 10000 ms');
    // The short destination's own delays: none shorter than its 200 ms, none past its window.
    const first = Date.parse(dead.headers[H.firstAttemptAt]);
    for (const r of w.retries.records.filter(of('short'))) {
      const notBefore = Date.parse(r.headers[H.notBefore]);
      expect(notBefore - Date.parse(r.headers[H.lastAttemptAt])).toBeGreaterThanOrEqual(200);
      expect(notBefore - first).toBeLessThanOrEqual(10_000);
    }
    // The other keeps its service window: it is scheduled past 10 s, and is not dead.
    await w.retries.waitFor(
      1,
      (r) =>
        of('default')(r) &&
        Date.parse(r.headers[H.notBefore]) - Date.parse(r.headers[H.firstAttemptAt]) > 10_000,
      60_000,
    );
    expect(w.dead.records.filter(of('default'))).toHaveLength(0);
  }, 120_000);

  it('dead-letters the waiting retries of a deleted and of a disabled destination, each with its reason', async () => {
    const hook = await receiver(() => 503);
    const destinations: WebhookDestination[] = [
      { id: 'deleted', webhooks: [{ url: hook.url }] },
      { id: 'disabled', webhooks: [{ url: hook.url }] },
    ];
    // Retries wait a few seconds, so both jobs are in a retry topic when the workspace changes.
    const w = await world(destinations, { DELIVERY_RETRY_SCHEDULE_MS: '3000,3000' });
    const sent = [job('deleted'), job('disabled', 2)];
    await w.producer.send(...sent);
    await w.retries.waitFor(1, of('deleted'));
    await w.retries.waitFor(1, of('disabled'));

    const changed = new Promise<void>((resolve) => w.app.get(Workspace).onChange(() => resolve()));
    w.workspace.update(workspaceConfig([{ ...destinations[1], enabled: false }]));
    await changed;

    const dead = await w.dead.waitFor(2);
    const failureOf = (id: string) => dead.find(of(id))?.headers;
    expect(failureOf('deleted')).toMatchObject({
      [H.failure]: 'destination-deleted',
      [H.messageId]: sent[0].messageId,
      [H.lastError]: 'destination deleted is not in the workspace configuration',
    });
    expect(failureOf('disabled')).toMatchObject({
      [H.failure]: 'destination-disabled',
      [H.messageId]: sent[1].messageId,
      [H.lastError]: 'destination disabled is disabled',
    });
  }, 60_000);

  it('sends nothing to a receiver for the 2 s its 429 asked, then delivers everything', async () => {
    const hook = await receiver((i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : 200));
    const w = await world([{ id: 'busy', webhooks: [{ url: hook.url }] }]);
    await w.producer.send(job('busy'));
    // The retry is written after delivery read the 429, so every later job meets the slow-down.
    await w.retries.waitFor(1);
    await w.producer.send(...[2, 3, 4, 5, 6].map((n) => job('busy', n)));

    const requests = await hook.waitForRequests(7);
    const refusedAt = requests[0].at;
    for (const later of requests.slice(1)) expect(later.at - refusedAt).toBeGreaterThanOrEqual(2000);
    expect(w.dead.records).toHaveLength(0);
  }, 60_000);
});
