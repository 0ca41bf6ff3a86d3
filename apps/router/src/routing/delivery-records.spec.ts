import { checkResource, Destination } from '@switchyard/config';
import { Call, decodeDeliveryAttempts, topicNames } from '@switchyard/contracts';
import { routeCall, routedRecords } from './delivery-records';

const topics = topicNames('ns');

function destination(id: string, filters?: object[]): Destination {
  const check = checkResource(Destination, {
    id,
    type: 'Webhooks',
    enabled: true,
    sources: ['src'],
    settings: { webhooks: [{ url: 'http://127.0.0.1:9/' }] },
    ...(filters ? { filters } : {}),
  });
  if (!check.value) throw new Error(check.problems.join('; '));
  return check.value;
}

const call: Call = {
  type: 'track',
  messageId: 'm-1',
  userId: 'u-1',
  event: 'Test Event',
  properties: { plan: 'pro', email: 'a@example.com' },
  context: {},
  integrations: {},
  timestamp: '2026-01-01T00:00:00.000Z',
  receivedAt: '2026-01-01T00:00:00.000Z',
};

describe('routeCall with destination filters', () => {
  const plain = destination('plain');
  const stripped = destination('stripped', [{ name: 'no email', then: { removeProperties: ['email'] } }]);
  const dropping = destination('dropping', [
    { name: 'no tests', if: { field: 'event', prefix: 'Test' }, then: { drop: true } },
  ]);

  it('sends each destination its own body and records the one its filters kept the call from', () => {
    const routed = routeCall(topics, [plain, stripped, dropping], 'src', call, 1_700_000_000_000);
    expect(routed.jobs.map((j) => j.headers?.['x-switchyard-destination-id'])).toEqual(['plain', 'stripped']);
    const bodies = routed.jobs.map((j) => JSON.parse(String(j.value)) as { properties: object });
    expect(bodies[0].properties).toEqual({ plan: 'pro', email: 'a@example.com' });
    expect(bodies[1].properties).toEqual({ plan: 'pro' });
    expect(routed.jobs.every((j) => j.topic === topics.deliveries)).toBe(true);

    expect(routed.filtered).toHaveLength(1);
    expect(routed.filtered[0].topic).toBe(topics.deliveryAttempts);
    const { attempts, refused } = decodeDeliveryAttempts(routed.filtered[0].value as string);
    expect(refused).toEqual([]);
    expect(attempts).toEqual([
      {
        destinationId: 'dropping',
        messageId: 'm-1',
        sourceId: 'src',
        userId: 'u-1',
        type: 'track',
        event: 'Test Event',
        attempt: 0,
        durationMs: 0,
        at: 1_700_000_000_000,
        outcome: 'filtered',
        filter: { rule: 'no tests', action: 'drop' },
      },
    ]);
    expect(routedRecords(routed)).toEqual([...routed.jobs, ...routed.filtered]);
  });

  it('destinations without rules share one serialised body', () => {
    const routed = routeCall(topics, [plain, destination('other')], 'src', call);
    expect(routed.jobs).toHaveLength(2);
    expect(routed.jobs[0].value).toBe(routed.jobs[1].value);
    expect(routed.filtered).toEqual([]);
  });

  it('writes nothing to the attempts topic when no rule stopped the call', () => {
    const routed = routeCall(topics, [stripped], 'src', { ...call, event: 'Order Completed' });
    expect(routed.jobs).toHaveLength(1);
    expect(routedRecords(routed)).toEqual(routed.jobs);
  });
});
