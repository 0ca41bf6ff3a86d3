import { register } from 'prom-client';
import { retryBacklog } from './consumer/retry-backlog';
import { DeliveryMetrics, UNCONFIGURED_DESTINATION } from './delivery-metrics';
import { NextStep } from './delivery-vocabulary';

/** Samples named `name`; a histogram's `_bucket`, `_sum` and `_count` samples are read from its family. */
async function values(
  name: string,
): Promise<Array<{ labels: Record<string, string | number>; value: number }>> {
  const family =
    register.getSingleMetric(name) ?? register.getSingleMetric(name.replace(/_(bucket|sum|count)$/, ''))!;
  return (await family.get()).values
    .filter((v) => ((v as { metricName?: string }).metricName ?? name) === name)
    .map(({ labels, value }) => ({ labels: labels as Record<string, string | number>, value }));
}

async function value(name: string, labels: Record<string, string>): Promise<number | undefined> {
  return (await values(name)).find((v) => Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l))
    ?.value;
}

const state = { attempt: 1, replays: 0 };

describe('DeliveryMetrics', () => {
  const metrics = new DeliveryMetrics();
  beforeAll(() => metrics.configure(['shop', 'crm'], 2));

  it('starts every counter of every configured destination at 0: outcomes, failures and retry tiers', async () => {
    for (const destination of ['shop', 'crm', UNCONFIGURED_DESTINATION]) {
      for (const outcome of ['delivered', 'retry', 'dead'])
        expect(await value('switchyard_delivery_jobs_total', { destination, outcome })).toBe(0);
      for (const failure of [
        'permanent',
        'window-spent',
        'destination-deleted',
        'destination-disabled',
        'unreadable',
      ])
        expect(await value('switchyard_delivery_dead_letters_total', { destination, failure })).toBe(0);
      for (const tier of ['1', '2'])
        expect(await value('switchyard_delivery_retries_total', { destination, tier })).toBe(0);
    }
  });

  it('labels jobs of destinations outside the configuration as (unconfigured), so Kafka cannot add series', async () => {
    const dead: NextStep = { kind: 'dead', failure: 'destination-disabled', state };
    metrics.jobFinished('removed-long-ago', dead, undefined);
    metrics.jobFinished('crm', { kind: 'retry', tier: 2, state }, undefined);
    expect(
      await value('switchyard_delivery_dead_letters_total', {
        destination: UNCONFIGURED_DESTINATION,
        failure: 'destination-disabled',
      }),
    ).toBe(1);
    expect(await value('switchyard_delivery_retries_total', { destination: 'crm', tier: '2' })).toBe(1);
    expect(
      (await values('switchyard_delivery_jobs_total')).some(
        (v) => v.labels.destination === 'removed-long-ago',
      ),
    ).toBe(false);
  });

  it("observes a delivered job's age, a call from a skewed clock as 0, and no age for failures", async () => {
    metrics.jobFinished('shop', { kind: 'delivered', state }, 0.2);
    metrics.jobFinished('shop', { kind: 'delivered', state }, -0.05);
    metrics.jobFinished('shop', { kind: 'delivered', state }, undefined);
    metrics.jobFinished('shop', { kind: 'retry', tier: 1, state }, 3);
    expect(await value('switchyard_delivery_event_age_seconds_count', { destination: 'shop' })).toBe(2);
    expect(await value('switchyard_delivery_event_age_seconds_sum', { destination: 'shop' })).toBeCloseTo(
      0.2,
    );
    expect(
      await value('switchyard_delivery_event_age_seconds_bucket', { destination: 'shop', le: '0.01' }),
    ).toBe(1);
    expect(await value('switchyard_delivery_jobs_total', { destination: 'shop', outcome: 'delivered' })).toBe(
      3,
    );
  });

  it('starts the counters of a destination a workspace edit adds', async () => {
    metrics.configure(['shop', 'crm', 'added'], 2);
    expect(
      await value('switchyard_delivery_dead_letters_total', { destination: 'added', failure: 'permanent' }),
    ).toBe(0);
    metrics.jobFinished('added', { kind: 'dead', failure: 'permanent', state }, undefined);
    expect(
      await value('switchyard_delivery_dead_letters_total', { destination: 'added', failure: 'permanent' }),
    ).toBe(1);
  });
});

describe('retryBacklog', () => {
  it("sums the group's lag over each tier's partitions, tier 1 first, and ignores other topics", () => {
    const lag = [
      { groupId: 'g', topic: 'ns.deliveries.v1', partition: 0, lag: 7 },
      { groupId: 'g', topic: 'ns.deliveries.retry.1.v1', partition: 0, lag: 2 },
      { groupId: 'g', topic: 'ns.deliveries.retry.1.v1', partition: 1, lag: 3 },
    ];
    expect(retryBacklog(lag, ['ns.deliveries.retry.1.v1', 'ns.deliveries.retry.2.v1'])).toEqual([
      { tier: 1, jobs: 5 },
      { tier: 2, jobs: 0 },
    ]);
  });
});
