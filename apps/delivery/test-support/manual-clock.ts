import { Clock } from '../src/clock';

/** A clock tests move by hand: `advance` runs every timer that falls due, in order. */
export function manualClock(start = 0): Clock & { advance(ms: number): void } {
  let now = start;
  let timers: Array<{ at: number; fn: () => void }> = [];
  return {
    now: () => now,
    schedule(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      timers = timers.filter((t) => t.at > now);
      for (const timer of due) timer.fn();
    },
  };
}
