import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/*
 * The services' heaps grow with their load (libs/service/src/heap-growth.ts): the governor sets
 * V8's growth while the process runs, which V8 must take up. A process that promotes garbage
 * fast, governed to grow its heap under load, must run far fewer full collections than the same
 * process held at rest.
 */
describe('the heap growth governor in a running process', () => {
  function fullCollections(underLoadPercent: number): { percent: number; fullCollections: number } {
    const script = `
      const { PerformanceObserver, constants } = require('node:perf_hooks');
      const { governHeapGrowth } = require('./libs/service/src/heap-growth');
      const governor = governHeapGrowth({ restingPercent: 30, underLoadPercent: ${underLoadPercent} }, []);
      let fullCollections = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections++;
      }).observe({ entryTypes: ['gc'] });
      const live = Array.from({ length: 50000 }, (_, i) => ({ i, s: 'live ' + i }));
      // Each array outlives two young-generation collections, so every one is promoted garbage.
      const ring = new Array(30000);
      let next = 0;
      async function churn(rounds) {
        for (let r = 0; r < rounds; r++) {
          for (let k = 0; k < 10000; k++) ring[next++ % ring.length] = new Array(50).fill(k);
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      (async () => {
        await churn(100);
        const before = fullCollections;
        await churn(100);
        process.stdout.write(JSON.stringify({ percent: governor.currentPercent, fullCollections: fullCollections - before, live: live.length }));
      })();`;
    const output = execFileSync(
      process.execPath,
      ['--max-old-space-size=512', '--max-semi-space-size=4', '-r', '@swc-node/register', '-e', script],
      { cwd: ROOT, encoding: 'utf8' },
    );
    return JSON.parse(output) as { percent: number; fullCollections: number };
  }

  it('grows the heap under load, and V8 collects less often for it', () => {
    const atRest = fullCollections(30);
    const governed = fullCollections(300);
    expect(governed.percent).toBe(300);
    expect(atRest.fullCollections).toBeGreaterThan(2 * governed.fullCollections);
  });
});
