import pino from 'pino';
import { metricsRegistry } from '@switchyard/telemetry';
import { ClientAvailability } from './client-availability';

/** The counter's value for `client`, read as a scrape reads it. */
async function counted(name: string, client: string): Promise<number> {
  const metric = metricsRegistry().getSingleMetric(name);
  const { values } = await metric!.get();
  return values.find((v) => v.labels.client === client)?.value ?? 0;
}

function capture() {
  const lines: Array<{ level: number; msg: string; outageSeconds?: number }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe('ClientAvailability', () => {
  it('counts an outage’s seconds as they pass, and stops at the recovery it logs at info', async () => {
    let now = 10_000;
    const { lines, logger } = capture();
    const client = new ClientAvailability('outage-a', logger, () => now);
    expect(await counted('switchyard_kafka_unavailable_seconds_total', 'outage-a')).toBe(0);

    expect(client.failed(9_000)).toBe(true);
    expect(client.available).toBe(false);
    now = 12_000;
    expect(client.failed()).toBe(false);
    expect(await counted('switchyard_kafka_unavailable_seconds_total', 'outage-a')).toBe(3);

    now = 14_500;
    client.recovered();
    expect(client.available).toBe(true);
    now = 20_000;
    expect(await counted('switchyard_kafka_unavailable_seconds_total', 'outage-a')).toBe(5.5);
    expect(lines).toEqual([
      expect.objectContaining({ level: pino.levels.values.info, client: 'outage-a', outageSeconds: 5.5 }),
    ]);
  });

  it('logs no recovery and counts nothing when there was no outage', async () => {
    const { lines, logger } = capture();
    const client = new ClientAvailability('outage-b', logger);
    client.recovered();
    client.restarted();
    expect(lines).toEqual([]);
    expect(await counted('switchyard_kafka_unavailable_seconds_total', 'outage-b')).toBe(0);
    expect(await counted('switchyard_kafka_client_restarts_total', 'outage-b')).toBe(1);
  });
});
