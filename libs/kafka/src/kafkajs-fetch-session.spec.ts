import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, the bookkeeping of an incremental fetch session: what each fetch
 * sends, given what the broker holds. The broker's side is proven by
 * kafkajs-fetch-session.integration.spec.ts.
 */
type PartitionRequest = { partition: number; fetchOffset: string; maxBytes: number };
type TopicRequest = { topic: string; partitions: PartitionRequest[] };
type Sent = {
  sessionId: number;
  sessionEpoch: number;
  topics: TopicRequest[];
  forgottenTopics: { topic: string; partitions: number[] }[];
  exchange: unknown;
};
type Session = {
  epoch: number;
  request(topics: TopicRequest[]): Sent;
  answered(exchange: unknown, response: { errorCode: number; sessionId: number }): boolean;
  failed(exchange: unknown): void;
};
const FetchSession = createRequire(__filename)('kafkajs/src/broker/fetchSession') as new () => Session;

const fetchOf = (offsets: Record<string, string[]>): TopicRequest[] =>
  Object.entries(offsets).map(([topic, fetchOffsets]) => ({
    topic,
    partitions: fetchOffsets.map((fetchOffset, partition) => ({ partition, fetchOffset, maxBytes: 1024 })),
  }));
const named = (topics: TopicRequest[]) =>
  topics.map(
    ({ topic, partitions }) =>
      `${topic}: ${partitions.map((p) => `${p.partition}@${p.fetchOffset}`).join(' ')}`,
  );

/** A session the broker opened as 42, after a full fetch of `offsets`. */
const openSession = (offsets: Record<string, string[]>) => {
  const session = new FetchSession();
  const sent = session.request(fetchOf(offsets));
  expect(sent).toMatchObject({ sessionId: 0, sessionEpoch: 0, forgottenTopics: [] });
  expect(session.answered(sent.exchange, { errorCode: 0, sessionId: 42 })).toBe(false);
  return session;
};

describe('kafkajs incremental fetch session', () => {
  it('names only the partitions whose offset moved, and those no longer wanted as forgotten', () => {
    const session = openSession({ jobs: ['0', '0', '0'], retry: ['5', '5'] });

    const idle = session.request(fetchOf({ jobs: ['0', '0', '0'], retry: ['5', '5'] }));
    expect(idle).toMatchObject({ sessionId: 42, sessionEpoch: 1, topics: [], forgottenTopics: [] });
    session.answered(idle.exchange, { errorCode: 0, sessionId: 42 });

    const moved = session.request(fetchOf({ jobs: ['0', '3', '0'], retry: ['5'] }));
    expect(moved.sessionEpoch).toBe(2);
    expect(named(moved.topics)).toEqual(['jobs: 1@3']);
    expect(moved.forgottenTopics).toEqual([{ topic: 'retry', partitions: [1] }]);
    session.answered(moved.exchange, { errorCode: 0, sessionId: 42 });

    const back = session.request(fetchOf({ jobs: ['0', '3', '0'], retry: ['5', '7'] }));
    expect(named(back.topics)).toEqual(['retry: 1@7']);
    expect(back.forgottenTopics).toEqual([]);
  });

  it('sends what the broker does not hold again when a request went unanswered', () => {
    const session = openSession({ jobs: ['0', '0'] });
    const lost = session.request(fetchOf({ jobs: ['4', '0'] }));
    session.failed(lost.exchange);

    const next = session.request(fetchOf({ jobs: ['4', '0'] }));
    expect(next).toMatchObject({ sessionId: 42, sessionEpoch: 0, forgottenTopics: [] });
    expect(named(next.topics)).toEqual(['jobs: 0@4 1@0']);
  });

  it('starts over in full when the broker lost the session, and stays full without one', () => {
    const session = openSession({ jobs: ['0'] });
    const stale = session.request(fetchOf({ jobs: ['1'] }));
    expect(session.answered(stale.exchange, { errorCode: 70, sessionId: 0 })).toBe(true);

    const full = session.request(fetchOf({ jobs: ['1'] }));
    expect(full).toMatchObject({ sessionId: 0, sessionEpoch: 0 });
    expect(session.answered(full.exchange, { errorCode: 0, sessionId: 0 })).toBe(false);
    expect(session.request(fetchOf({ jobs: ['1'] }))).toMatchObject({ sessionId: 0, sessionEpoch: 0 });
  });

  it('throws any other error of the whole answer, and fetches in full after it', () => {
    const session = openSession({ jobs: ['0'] });
    const sent = session.request(fetchOf({ jobs: ['0'] }));
    expect(() => session.answered(sent.exchange, { errorCode: 3, sessionId: 42 })).toThrow(/does not host/);
    expect(session.request(fetchOf({ jobs: ['0'] }))).toMatchObject({ sessionId: 42, sessionEpoch: 0 });
  });

  it('sends a fetch made while another waits without the session, and leaves the session as it was', () => {
    const session = openSession({ jobs: ['0'] });
    const first = session.request(fetchOf({ jobs: ['2'] }));
    const second = session.request(fetchOf({ jobs: ['2'] }));
    expect(second).toMatchObject({ sessionId: 0, sessionEpoch: -1, exchange: null });
    expect(named(second.topics)).toEqual(['jobs: 0@2']);
    session.answered(second.exchange, { errorCode: 0, sessionId: 0 });

    session.answered(first.exchange, { errorCode: 0, sessionId: 42 });
    expect(session.request(fetchOf({ jobs: ['2'] }))).toMatchObject({
      sessionId: 42,
      sessionEpoch: 2,
      topics: [],
    });
  });

  it('wraps its epoch to 1 after the largest', () => {
    const session = openSession({ jobs: ['0'] });
    session.epoch = 2147483647;
    const last = session.request(fetchOf({ jobs: ['0'] }));
    session.answered(last.exchange, { errorCode: 0, sessionId: 42 });
    expect(session.epoch).toBe(1);
  });
});
