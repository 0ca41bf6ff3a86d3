import { manualClock } from '../../test-support/manual-clock';
import { Admission, RateGate } from './rate-gate';

const options = { maxWaitInMemoryMs: 1000, maxDeferMs: 60_000 };
const sendTimes = (admissions: Admission[], now: number) =>
  admissions.map((a) => (a.kind === 'go' ? now + a.waitMs : a.untilMs));

describe('RateGate', () => {
  it('lets a burst go at once, then paces at the limit, deferring slots more than a second away', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, options);
    const limit = { perSecond: 10, burst: 3 };
    const admissions = Array.from({ length: 20 }, () => gate.admit('d', limit));
    expect(sendTimes(admissions, 0)).toEqual([
      0, 0, 0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700,
    ]);
    expect(admissions.slice(0, 13).every((a) => a.kind === 'go')).toBe(true);
    expect(admissions[13]).toEqual({ kind: 'defer', untilMs: 1100, reserved: true });
  });

  it('never lets more than perSecond × elapsed + burst through, however jobs arrive', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, options);
    const sends: number[] = [];
    for (let t = 0; t < 5000; t += 7) {
      clock.advance(7);
      for (let i = 0; i < 3; i++) sends.push(...sendTimes([gate.admit('d', { perSecond: 50, burst: 5 })], t));
    }
    sends.sort((a, b) => a - b);
    for (let i = 0; i < sends.length; i++)
      for (let j = i; j < sends.length; j += 97)
        expect(j - i + 1).toBeLessThanOrEqual((50 * (sends[j] - sends[i])) / 1000 + 5 + 1e-9);
  });

  it('keeps the requests that leave within perSecond × elapsed + burst when jobs reach their slots late, together', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, options);
    const limit = { perSecond: 50, burst: 5 };
    // Slots reserved 20 ms apart; the jobs holding them arrive in lumps (late timers, a retry topic fetched late).
    const slots = Array.from({ length: 150 }, () => sendTimes([gate.admit('d', limit)], 0)[0]);
    let waiting = slots.map((slot) => slot - (slot % 700) + 700);
    const sent: number[] = [];
    for (let t = 0; waiting.length > 0; t += 1) {
      clock.advance(t === 0 ? 0 : 1);
      waiting = waiting.filter((ready) => ready > t || gate.sendWait('d', limit) > 0 || !sent.push(t));
    }
    expect(sent).toHaveLength(150);
    for (let i = 0; i < sent.length; i++)
      for (let j = i; j < sent.length; j++)
        expect(j - i + 1).toBeLessThanOrEqual((50 * (sent[j] - sent[i])) / 1000 + 5 + 1e-9);
  });

  it('lets a request leave at once when nothing was sent to the destination lately, or it has no limit', () => {
    const gate = new RateGate(manualClock(0), options);
    expect(gate.sendWait('d', { perSecond: 1, burst: 1 })).toBe(0);
    expect(gate.sendWait('d', { perSecond: 1, burst: 1 })).toBe(1000);
    expect(gate.sendWait('unlimited', undefined)).toBe(0);
  });

  it('gives each instance its share of the limit and the burst', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, options);
    gate.setShare(1 / 3);
    const admissions = Array.from({ length: 4 }, () => gate.admit('d', { perSecond: 30, burst: 6 }));
    // 10/s and a burst of 2 here.
    expect(sendTimes(admissions, 0)).toEqual([0, 0, 100, 200]);
  });

  it('holds a destination for its Retry-After and restarts it at the steady rate, without a burst', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, options);
    gate.slowDown('d', 2000);
    expect(gate.admit('unlimited', undefined)).toEqual({ kind: 'go', waitMs: 0 });
    expect(gate.admit('d', undefined)).toEqual({ kind: 'defer', untilMs: 2000, reserved: false });
    clock.advance(1500);
    expect(gate.admit('d', undefined)).toEqual({ kind: 'go', waitMs: 500 });
    const limited = [1, 2, 3].map(() => gate.admit('d', { perSecond: 10, burst: 10 }));
    // The slow-down halved the rate, which has been climbing back by 1/30 of it a second: 5.5/s from the end of the pause.
    const [first, second, third] = sendTimes(limited, 1500);
    expect(first).toBe(2000);
    expect(second - first).toBeCloseTo(1000 / 5.5, 6);
    expect(third - second).toBeCloseTo(1000 / 5.5, 6);
  });

  it('recovers the full rate once the receiver stops asking to slow down', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, options);
    gate.slowDown('d', 0);
    clock.advance(60_000);
    const admissions = [1, 2].map(() => gate.admit('d', { perSecond: 10, burst: 1 }));
    expect(sendTimes(admissions, 60_000)).toEqual([60_000, 60_100]);
  });

  it('lets a job that holds a slot go without taking another, but not through a pause', () => {
    const clock = manualClock(5000);
    const gate = new RateGate(clock, options);
    const limit = { perSecond: 1, burst: 1 };
    expect(gate.admit('d', limit)).toEqual({ kind: 'go', waitMs: 0 });
    expect(gate.admit('d', limit, 5000)).toEqual({ kind: 'go', waitMs: 0 });
    gate.slowDown('d', 3000);
    expect(gate.admit('d', limit, 5000)).toEqual({ kind: 'defer', untilMs: 8000, reserved: true });
  });

  it('asks a job to come back after the longest tier rather than reserve a slot further away', () => {
    const clock = manualClock(0);
    const gate = new RateGate(clock, { maxWaitInMemoryMs: 1000, maxDeferMs: 5000 });
    const limit = { perSecond: 1, burst: 1 };
    const admissions = Array.from({ length: 8 }, () => gate.admit('d', limit));
    expect(admissions[5]).toEqual({ kind: 'defer', untilMs: 5000, reserved: true });
    expect(admissions.slice(6)).toEqual(Array(2).fill({ kind: 'defer', untilMs: 5000, reserved: false }));
    // Those two took no slot: once they are back, the next free one is a second after the last held.
    clock.advance(5000);
    expect(gate.admit('d', limit)).toEqual({ kind: 'go', waitMs: 1000 });
  });
});
