import { manualClock } from '../../test-support/manual-clock';
import { CircuitBreakers } from './circuit-breaker';
import { DestinationLimiter } from './destination-limiter';

describe('DestinationLimiter', () => {
  it('runs at most N tasks per destination and queues the rest in order, without holding up other destinations', async () => {
    const limiter = new DestinationLimiter(2);
    const order: string[] = [];
    const gates: Array<() => void> = [];
    const task = (name: string) => () =>
      new Promise<void>((resolve) => gates.push(() => (order.push(name), resolve())));
    const a = [1, 2, 3, 4].map((i) => limiter.run('slow', task(`slow${i}`)));
    const other = limiter.run('fast', async () => order.push('fast'));
    await other;
    expect(order).toEqual(['fast']);
    expect(limiter.inFlight('slow')).toBe(2);
    expect(limiter.queued('slow')).toBe(2);
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise(setImmediate);
    }
    await Promise.all(a);
    expect(order).toEqual(['fast', 'slow1', 'slow2', 'slow3', 'slow4']);
    expect(limiter.inFlight('slow')).toBe(0);
  });
});

describe('CircuitBreakers', () => {
  it('opens after the threshold, fails fast while open, then lets exactly one probe through', () => {
    const clock = manualClock();
    const breakers = new CircuitBreakers(3, 1000, clock);
    const url = 'https://dead.example/hook';
    for (let i = 0; i < 2; i++) breakers.recordFailure(url, 'HTTP 503');
    expect(breakers.allow(url)).toBe(true);
    breakers.recordFailure(url, 'HTTP 503');
    expect(breakers.allow(url)).toBe(false);
    expect(breakers.openReason(url)).toBe('circuit open after 3 consecutive failures (last: HTTP 503)');
    expect(breakers.allow('https://other.example/')).toBe(true);
    expect(breakers.state(url)).toBe('open');
    expect(breakers.state('https://other.example/')).toBe('closed');
    clock.advance(1000);
    expect(breakers.state(url)).toBe('half-open');
    expect(breakers.allow(url)).toBe(true);
    expect(breakers.allow(url)).toBe(false);
    breakers.recordFailure(url, 'HTTP 503');
    expect(breakers.state(url)).toBe('open');
    expect(breakers.allow(url)).toBe(false);
    clock.advance(1000);
    expect(breakers.allow(url)).toBe(true);
    breakers.recordSuccess(url);
    expect(breakers.allow(url)).toBe(true);
    expect(breakers.openReason(url)).toBeUndefined();
    expect(breakers.state(url)).toBe('closed');
  });
});
