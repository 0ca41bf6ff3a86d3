import pino from 'pino';
import { deferred } from '../../../../test/support/deferred';
import { manualClock } from '../../test-support/manual-clock';
import { InFlightJobs } from './in-flight-jobs';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('InFlightJobs', () => {
  const gauge = () => ({
    value: 0,
    inc() {
      this.value++;
    },
    dec() {
      this.value--;
    },
  });

  it('counts running jobs on its gauge and calls onDone only for a job that completed; after close a failed job is left unfinished', async () => {
    const g = gauge();
    const jobs = new InFlightJobs(manualClock(), g, pino({ level: 'silent' }));
    const [a, b] = [deferred(), deferred()];
    const done: string[] = [];
    jobs.track(
      () => a.promise,
      () => done.push('a'),
    );
    jobs.track(
      () => b.promise,
      () => done.push('b'),
    );
    expect([jobs.count, g.value]).toEqual([2, 2]);
    a.resolve();
    jobs.close();
    b.reject(new Error('stopped'));
    await settle();
    expect(done).toEqual(['a']);
    expect([jobs.count, g.value]).toEqual([0, 0]);
  });

  it('runs a job that failed before close again after a pause, until its outcome is written', async () => {
    const clock = manualClock();
    const g = gauge();
    const jobs = new InFlightJobs(clock, g, pino({ level: 'silent' }));
    const attempts = [deferred(), deferred()];
    let started = 0;
    const done: string[] = [];
    jobs.track(
      () => attempts[started++].promise,
      () => done.push('job'),
    );
    attempts[0].reject(new Error('unexpected'));
    await settle();
    expect([started, jobs.count, g.value]).toEqual([1, 1, 1]);
    clock.advance(1_000);
    expect(started).toBe(2);
    attempts[1].resolve();
    await settle();
    expect(done).toEqual(['job']);
    expect([jobs.count, g.value]).toEqual([0, 0]);
  });

  it('drains: true once the last job ends, false when the grace ends first', async () => {
    const clock = manualClock();
    const jobs = new InFlightJobs(clock, gauge(), pino({ level: 'silent' }));
    await expect(jobs.drained(1_000)).resolves.toBe(true);
    const slow = deferred();
    jobs.track(
      () => slow.promise,
      () => undefined,
    );
    const timedOut = jobs.drained(1_000);
    clock.advance(1_000);
    await expect(timedOut).resolves.toBe(false);
    const waiting = jobs.drained(1_000);
    slow.resolve();
    await expect(waiting).resolves.toBe(true);
  });
});
