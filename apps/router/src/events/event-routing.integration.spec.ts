import { Call } from '@switchyard/contracts';
import { RouterHarness, source, trackCall, webhooks } from '../../test-support/router-harness';

jest.setTimeout(90_000);

describe('router: events → delivery jobs (real Kafka)', () => {
  let harness: RouterHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('produces a job for exactly the calls the integrations object allows, under every rule', async () => {
    harness = await RouterHarness.start({
      sources: [source('web')],
      destinations: [webhooks('hooks', ['web'])],
    });
    const cases: Array<[Call['integrations'], boolean]> = [
      [{}, true],
      [{ Webhooks: true }, true],
      [{ Webhooks: false }, false],
      [{ All: false }, false],
      [{ All: false, Webhooks: true }, true],
      [{ All: true, Webhooks: false }, false],
      [{ webhooks: false }, true],
      [{ All: false, webhooks: true }, false],
      [{ All: false, Webhooks: { option: 1 } }, true],
      [{ All: false, Webhooks: 'yes' }, false],
    ];
    const calls = cases.map(([integrations]) => trackCall({ integrations }));
    // The same user throughout: one partition, so once the last call's job is out all were routed.
    const last = trackCall();
    await harness.sendCalls('web', [...calls, last]);
    await harness.outputs.waitFor(1, (r) => r.value.messageId === last.messageId);

    const routed = calls.map((call) => harness!.jobsFor(call.messageId).length);
    expect(routed).toEqual(cases.map(([, expected]) => (expected ? 1 : 0)));
    const [job] = harness.jobsFor(calls[0].messageId);
    expect(job).toEqual({
      jobId: `${calls[0].messageId}:hooks`,
      destinationId: 'hooks',
      sourceId: 'web',
      messageId: calls[0].messageId,
      body: expect.objectContaining({
        version: 1,
        type: 'track',
        event: 'Order Completed',
        userId: 'u-1',
        messageId: calls[0].messageId,
      }),
    });
    const record = harness.outputs.records.find((r) => r.value.messageId === calls[0].messageId);
    expect(record?.key).toBe('hooks:web:u-1');
  });

  it('routes the calls of two connected sources to one destination, and none of an unconnected source', async () => {
    harness = await RouterHarness.start({
      sources: [source('web'), source('ios'), source('backend')],
      destinations: [webhooks('hooks', ['web', 'ios'])],
    });
    const web = trackCall({ userId: 'u-web' });
    const ios = trackCall({ userId: 'u-ios' });
    const backend = trackCall({ userId: 'u-backend' });
    await harness.sendCalls('web', [web]);
    await harness.sendCalls('ios', [ios]);
    await harness.sendCalls('backend', [backend]);

    const jobs = await harness.outputs.waitFor(2, (r) =>
      [web.messageId, ios.messageId].includes(r.value.messageId),
    );
    expect(jobs.map((r) => [r.key, r.value.sourceId, r.value.destinationId]).sort()).toEqual([
      ['hooks:ios:u-ios', 'ios', 'hooks'],
      ['hooks:web:u-web', 'web', 'hooks'],
    ]);
    await harness.eventsHandled();
    expect(harness.jobsFor(backend.messageId)).toHaveLength(0);
  });

  it('stops producing jobs while the destination is switched off and resumes when it is switched on', async () => {
    const sources = [source('web')];
    harness = await RouterHarness.start({ sources, destinations: [webhooks('hooks', ['web'])] });
    const before = trackCall();
    await harness.sendCalls('web', [before]);
    await harness.outputs.waitFor(1, (r) => r.value.messageId === before.messageId);

    await harness.rewriteWorkspace(
      { sources, destinations: [webhooks('hooks', ['web'], false)] },
      (store) => store.destination('hooks')?.enabled === false,
    );
    const whileOff = trackCall();
    await harness.sendCalls('web', [whileOff]);

    await harness.rewriteWorkspace(
      { sources, destinations: [webhooks('hooks', ['web'], true)] },
      (store) => store.destination('hooks')?.enabled === true,
    );
    const afterOn = trackCall();
    await harness.sendCalls('web', [afterOn]);
    await harness.outputs.waitFor(1, (r) => r.value.messageId === afterOn.messageId);
    // Same user, same partition: the call sent while off was handled before the one after.
    expect(harness.jobsFor(whileOff.messageId)).toHaveLength(0);
  });

  it('dead-letters an unreadable and an invalid record with their reasons, and the partition keeps flowing', async () => {
    harness = await RouterHarness.start({
      sources: [source('web')],
      destinations: [webhooks('hooks', ['web'])],
    });
    const key = 'web:u-1';
    const after = trackCall();
    await harness.producer.send({
      topic: harness.topics.events,
      acks: -1,
      messages: [
        { key, value: '{not json' },
        { key, value: JSON.stringify({ sourceId: 'web', call: { type: 'track', userId: 'u-1' } }) },
        { key, value: JSON.stringify({ sourceId: 'web', call: after }) },
      ],
    });
    await harness.outputs.waitFor(1, (r) => r.value.messageId === after.messageId);
    const dead = await harness.outputs.waitFor(2, (r) => r.topic === harness!.topics.eventsDead);
    const reasons = dead.map((r) => r.value as unknown as { reason: string; value: string });
    expect(reasons[0]).toMatchObject({
      reason: expect.stringContaining('value is not JSON'),
      value: '{not json',
      topic: harness.topics.events,
    });
    expect(reasons[1].reason).toContain('event is required for track');
    expect(dead[0].headers['x-switchyard-dead-reason']).toContain('not JSON');
    expect(dead.every((r) => r.key === key)).toBe(true);
  });

  it('routes the same way with transactions (ROUTER_TRANSACTIONAL=true)', async () => {
    harness = await RouterHarness.start(
      { sources: [source('web')], destinations: [webhooks('hooks', ['web'])] },
      { transactional: true },
    );
    const call = trackCall();
    await harness.sendCalls('web', [call]);
    await harness.outputs.waitFor(1, (r) => r.value.messageId === call.messageId);
    expect(harness.jobsFor(call.messageId)).toHaveLength(1);
  });
});
