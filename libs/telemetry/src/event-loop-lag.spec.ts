import { Registry } from 'prom-client';
import { EVENT_LOOP_LAG_METRICS, LAG_SAMPLE_MS } from './event-loop-lag';
import { metricsRegistry } from './metrics';

/** Keeps the thread busy, as a long synchronous task in a service would. */
function blockLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy on purpose
  }
}

/** A gauge's value as a scrape of `registry` writes it. */
async function scraped(registry: Registry, name: string): Promise<number> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

/** Resolves once `count` more samples are due: a sample waits its period plus any delay. */
function samplesElapse(count: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, count * LAG_SAMPLE_MS + 20));
}

describe('event-loop lag metrics', () => {
  it("keep prom-client's names, each registered once", async () => {
    const text = await metricsRegistry().metrics();
    for (const name of EVENT_LOOP_LAG_METRICS) {
      expect(text.match(new RegExp(`^# TYPE ${name} gauge$`, 'gm'))).toHaveLength(1);
    }
  });

  it('show a block of the loop as the delay of the sample due during it', async () => {
    const registry = metricsRegistry();
    await registry.metrics(); // starts a fresh sampling interval
    await samplesElapse(1);
    // Whenever it starts, a block longer than the period holds back the sample due during it by
    // at least the block's length less one period.
    const blockMs = 2.5 * LAG_SAMPLE_MS;
    blockLoop(blockMs);
    await samplesElapse(1);
    const max = await scraped(registry, 'nodejs_eventloop_lag_max_seconds');
    expect(max).toBeGreaterThanOrEqual((blockMs - LAG_SAMPLE_MS) / 1000);
    // That scrape began the next interval: no block since.
    expect(await scraped(registry, 'nodejs_eventloop_lag_max_seconds')).toBeLessThan(max);
  });
});
