import { DeliveryAttempt } from '@switchyard/contracts';
import { AttemptIndex } from './attempt-index';
import { CallSample } from './call-sample';
import { DeadLetterIndex } from './dead-letter-index';
import { destinationHealth } from './destination-health';
import { FifoList } from './fifo-list';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const attempt = (overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  destinationId: 'd1',
  messageId: 'm1',
  sourceId: 's1',
  userId: 'u1',
  type: 'track',
  event: 'E',
  urlIndex: 0,
  urlHost: 'a.example',
  status: 200,
  durationMs: 10,
  attempt: 1,
  at: (clock += 1000),
  outcome: 'delivered',
  ...overrides,
});

describe('AttemptIndex', () => {
  it('holds at most its limit: the oldest records leave every lookup and are counted', () => {
    const index = new AttemptIndex(3);
    for (let i = 1; i <= 5; i++) index.add(attempt({ messageId: `m${i}`, userId: i % 2 ? 'odd' : 'even' }));
    expect(index.size).toBe(3);
    expect(index.evicted).toBe(2);
    expect(index.message('m1')).toEqual([]);
    expect(index.message('m2')).toEqual([]);
    expect(index.message('m3')).toHaveLength(1);
    expect(index.messagesOfUser('odd', 10).map((m) => m.messageId)).toEqual(['m5', 'm3']);
    expect(index.attemptsOf('d1', {}, 10).map((a) => a.messageId)).toEqual(['m5', 'm4', 'm3']);
  });

  it('forgets a destination and a user once all their records are evicted', () => {
    const index = new AttemptIndex(1);
    index.add(attempt({ destinationId: 'gone', outcome: 'dead-lettered', status: 404 }));
    index.add(attempt({ destinationId: 'd2', userId: 'other' }));
    expect(index.destinationIds()).toEqual(['d2']);
    expect(index.messagesOfUser('u1', 10)).toEqual([]);
    expect(index.jobAttempts('m1', 'gone')).toEqual([]);
  });

  it('gives one message its attempts across URLs and retries, oldest first, found by userId or anonymousId', () => {
    const index = new AttemptIndex(100);
    index.add(attempt({ status: 500, outcome: 'next-url', anonymousId: 'anon-1' }));
    index.add(attempt({ urlIndex: 1, status: 200, anonymousId: 'anon-1' }));
    const [byId] = index.message('m1');
    expect(byId.attempts.map((a) => [a.urlIndex, a.status, a.outcome])).toEqual([
      [0, 500, 'next-url'],
      [1, 200, 'delivered'],
    ]);
    expect(index.messagesOfUser('anon-1', 10)).toEqual([byId]);
  });

  it('filters a destination by outcome, status and a half-open time range', () => {
    const index = new AttemptIndex(100);
    const first = attempt({ status: 503, outcome: 'retry-scheduled' });
    index.add(first);
    index.add(attempt({ status: 200 }));
    const at = first.at;
    expect(index.attemptsOf('d1', { outcome: 'retry-scheduled' }, 10).map((a) => a.status)).toEqual([503]);
    expect(index.attemptsOf('d1', { status: 200 }, 10)).toHaveLength(1);
    expect(index.attemptsOf('d1', { from: at, to: at + 1 }, 10).map((a) => a.status)).toEqual([503]);
    expect(index.attemptsOf('d1', {}, 1)).toHaveLength(1);
  });

  it("gives one job's attempts, its replay's included, apart from the message's other destinations", () => {
    const index = new AttemptIndex(100);
    index.add(attempt({ status: 404, outcome: 'dead-lettered' }));
    index.add(attempt({ destinationId: 'd2', status: 200 }));
    index.add(attempt({ status: 200, outcome: 'delivered' }));
    expect(index.jobAttempts('m1', 'd1').map((a) => [a.status, a.outcome])).toEqual([
      [404, 'dead-lettered'],
      [200, 'delivered'],
    ]);
  });
});

describe('AttemptIndex: filtered calls', () => {
  /** As the router writes it: no URL, no request, the rule that kept the call away. */
  const filtered = (destinationId: string, rule: string) =>
    attempt({
      destinationId,
      urlIndex: undefined,
      urlHost: undefined,
      status: undefined,
      durationMs: 0,
      attempt: 0,
      outcome: 'filtered',
      filter: { rule, action: 'drop' },
    });

  it("shows a filtered call in the message's timeline with its rule, beside its deliveries", () => {
    const index = new AttemptIndex(100);
    index.add(filtered('d2', 'no test events'));
    index.add(attempt());
    const [timeline] = index.message('m1');
    expect(timeline.attempts.map((a) => [a.destinationId, a.outcome, a.filter?.rule])).toEqual([
      ['d2', 'filtered', 'no test events'],
      ['d1', 'delivered', undefined],
    ]);
    expect(index.attemptsOf('d2', { outcome: 'filtered' }, 10)).toHaveLength(1);
  });

  it('does not count a filtered call as a request in destination health', () => {
    const index = new AttemptIndex(100);
    index.add(attempt());
    index.add(filtered('d1', 'sample'));
    expect(destinationHealth(index.attemptsOf('d1', {}, 10))).toMatchObject({ requests: 1, successRate: 1 });
  });
});

describe('DeadLetterIndex', () => {
  it('holds at most its limit, newest first, counting evictions', () => {
    const index = new DeadLetterIndex(2);
    for (const n of [1, 2, 3])
      index.add({
        id: `0:${n}`,
        destinationId: n === 2 ? 'd2' : 'd1',
        failure: 'permanent',
        reason: 'HTTP 404',
        attempts: 1,
        replays: 0,
      });
    expect(index.latest(undefined, 10).map((d) => d.id)).toEqual(['0:3', '0:2']);
    expect(index.latest('d1', 10).map((d) => d.id)).toEqual(['0:3']);
    expect([index.size, index.evicted]).toEqual([2, 1]);
  });
});

describe('CallSample', () => {
  it('keeps the last calls of known sources only, newest first, counting evictions', () => {
    const sample = new CallSample(2, (id) => id === 's1');
    for (const n of [1, 2, 3]) sample.add({ sourceId: 's1', call: { n } });
    expect(sample.add({ sourceId: 'unknown', call: {} })).toBe(false);
    expect(sample.latest('s1', 10).map((c) => c.call.n)).toEqual([3, 2]);
    expect([sample.size, sample.evicted]).toEqual([2, 1]);
  });
});

describe('destinationHealth', () => {
  it('rates requests made, with nearest-rank p50/p99 and each URL circuit as last seen', () => {
    const newestFirst = [
      attempt({
        urlIndex: 1,
        status: undefined,
        errorKind: 'circuit-open',
        durationMs: 0,
        outcome: 'retry-scheduled',
      }),
      attempt({ urlIndex: 0, status: 500, durationMs: 30, outcome: 'next-url' }),
      attempt({ urlIndex: 0, status: 200, durationMs: 10 }),
      attempt({ urlIndex: 1, status: 200, durationMs: 20 }),
    ].map((a) => ({ ...a, at: new Date(a.at).toISOString(), atMs: a.at }));
    expect(destinationHealth(newestFirst)).toMatchObject({
      requests: 3,
      successRate: 2 / 3,
      p50Ms: 20,
      p99Ms: 30,
      circuits: [
        { urlIndex: 0, state: 'closed' },
        { urlIndex: 1, state: 'open' },
      ],
    });
    expect(destinationHealth([])).toMatchObject({
      requests: 0,
      successRate: null,
      p50Ms: null,
      circuits: [],
    });
  });
});

describe('FifoList', () => {
  it('shifts in order and compacts without losing items', () => {
    const list = new FifoList<number>();
    for (let i = 0; i < 5000; i++) list.push(i);
    for (let i = 0; i < 3000; i++) expect(list.shift()).toBe(i);
    expect([list.size, list.peek(), list.last(), [...list.newestFirst()][0]]).toEqual([
      2000, 3000, 4999, 4999,
    ]);
  });
});
