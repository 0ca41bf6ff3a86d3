import pino from 'pino';
import type { RecordBatch } from './kafka-port';
import { CommitPosition, CommitTimer, MarkedPositions, OffsetCommitter } from './offset-committer';
import { recordBatch } from './record-batch';

/** A consumer whose commitOffsets records each request; fails while `failing` is set, or waits for `release` while `holding`. */
function recordingConsumer() {
  const consumer = {
    failing: false,
    holding: false,
    release: () => {},
    requests: [] as CommitPosition[][],
    inFlight: 0,
    maxInFlight: 0,
    commitOffsets: async (offsets: CommitPosition[]) => {
      consumer.inFlight++;
      consumer.maxInFlight = Math.max(consumer.maxInFlight, consumer.inFlight);
      try {
        if (consumer.holding) await new Promise<void>((resolve) => (consumer.release = resolve));
        if (consumer.failing) throw new Error('coordinator not available');
        consumer.requests.push(offsets.map((o) => ({ ...o })));
      } finally {
        consumer.inFlight--;
      }
    },
  };
  return consumer;
}

/** A timer moved by hand: `fire` runs what is scheduled. */
function handTimer(): CommitTimer & { fire(): void; scheduled: number } {
  let pending: (() => void) | undefined;
  const timer = {
    scheduled: 0,
    schedule(_ms: number, fn: () => void) {
      timer.scheduled++;
      pending = fn;
      return () => (pending = undefined);
    },
    fire() {
      const fn = pending;
      pending = undefined;
      fn?.();
    },
  };
  return timer;
}

const position = (partition: number, offset: number, topic = 'events'): CommitPosition => ({
  topic,
  partition,
  offset: String(offset),
});
const settle = () => new Promise((resolve) => setImmediate(resolve));
const logger = pino({ level: 'silent' });

describe('OffsetCommitter with MarkedPositions', () => {
  it('commits the latest position of every partition in one request, and nothing when nothing moved', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const committer = new OffsetCommitter(consumer, marked, 60_000, logger);
    marked.mark(position(0, 10));
    marked.mark(position(1, 5));
    marked.mark(position(0, 20));
    await committer.flush();
    await committer.flush();
    expect(consumer.requests).toEqual([[position(0, 20), position(1, 5)]]);
  });

  it('tries a failed commit again at the next flush, with a later position of its partition if one arrived', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const committer = new OffsetCommitter(consumer, marked, 60_000, logger);
    marked.mark(position(0, 10));
    marked.mark(position(1, 5));
    consumer.failing = true;
    const failed = committer.flush();
    marked.mark(position(0, 30));
    await failed;
    consumer.failing = false;
    await committer.stop();
    expect(consumer.requests).toEqual([[position(0, 30), position(1, 5)]]);
  });

  it('warns at the first of a run of failed commits, and says when commits are made again', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const lines: { level: number; msg: string }[] = [];
    const logged = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const committer = new OffsetCommitter(consumer, marked, 60_000, logged);
    marked.mark(position(0, 10));
    consumer.failing = true;
    for (let i = 0; i < 3; i++) await committer.flush();
    consumer.failing = false;
    await committer.flush();
    expect(lines.map(({ level, msg }) => [pino.levels.labels[level], msg])).toEqual([
      ['warn', 'offset commit failed; will try again'],
      ['debug', 'offset commit failed; will try again'],
      ['debug', 'offset commit failed; will try again'],
      ['info', 'offset commits made again'],
    ]);
  });

  it('drops the positions of partitions a rebalance took away, and tells where the kept ones resume', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const committer = new OffsetCommitter(consumer, marked, 60_000, logger);
    marked.mark(position(0, 10));
    marked.mark(position(1, 5));
    marked.mark(position(0, 7, 'audiences'));
    expect(marked.keepOnly({ events: [1], audiences: [] })).toEqual([position(1, 5)]);
    await committer.stop();
    expect(consumer.requests).toEqual([[position(1, 5)]]);
  });

  it('leaves out of a batch the records finished before, also once committed, on partitions it keeps', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const committer = new OffsetCommitter(consumer, marked, 60_000, logger);
    const fetched = (partition: number, offsets: number[]) =>
      recordBatch(
        'events',
        partition,
        offsets.map((offset) => ({
          key: null,
          value: null,
          headers: {},
          offset: String(offset),
          timestamp: '0',
        })),
        String(offsets.at(-1)),
        '100',
      );
    const offsetsOf = (batch: RecordBatch) => batch.messages.map((m) => Number(m.offset));
    marked.mark(position(0, 12));
    marked.mark(position(1, 3));
    await committer.flush();
    expect(offsetsOf(marked.unfinished(fetched(0, [10, 11, 12, 13])))).toEqual([12, 13]);
    expect(offsetsOf(marked.unfinished(fetched(0, [10, 11])))).toEqual([]);
    expect(offsetsOf(marked.unfinished(fetched(2, [10, 11])))).toEqual([10, 11]);
    marked.keepOnly({ events: [0] });
    expect(offsetsOf(marked.unfinished(fetched(0, [11, 12])))).toEqual([12]);
    // A partition given back after another member owned it reads what that member left.
    expect(offsetsOf(marked.unfinished(fetched(1, [1, 2, 3])))).toEqual([1, 2, 3]);
  });

  it('commits an interval after a position finishes, and sets no timer while nothing finishes', async () => {
    const consumer = recordingConsumer();
    const timer = handTimer();
    const marked = new MarkedPositions(() => committer.commitSoon());
    const committer = new OffsetCommitter(consumer, marked, 200, logger, timer);
    committer.start();
    timer.fire();
    await settle();
    expect(timer.scheduled).toBe(1);

    marked.mark(position(2, 42));
    marked.mark(position(2, 43));
    expect(timer.scheduled).toBe(2);
    timer.fire();
    await settle();
    expect(consumer.requests).toEqual([[position(2, 43)]]);
    expect(timer.scheduled).toBe(2);

    marked.mark(position(2, 44));
    timer.fire();
    await settle();
    expect(consumer.requests).toEqual([[position(2, 43)], [position(2, 44)]]);
    await committer.stop();
    marked.mark(position(2, 45));
    expect(timer.scheduled).toBe(3);
  });

  it('tries a failed commit again an interval later, without a position finishing meanwhile', async () => {
    const consumer = recordingConsumer();
    const timer = handTimer();
    const marked = new MarkedPositions(() => committer.commitSoon());
    const committer = new OffsetCommitter(consumer, marked, 200, logger, timer);
    committer.start();
    marked.mark(position(1, 7));
    consumer.failing = true;
    timer.fire();
    await settle();
    expect(timer.scheduled).toBe(2);

    consumer.failing = false;
    timer.fire();
    await settle();
    expect(consumer.requests).toEqual([[position(1, 7)]]);
    expect(timer.scheduled).toBe(2);
  });

  it('commits a position that finished while a commit was in flight', async () => {
    const consumer = recordingConsumer();
    const timer = handTimer();
    const marked = new MarkedPositions(() => committer.commitSoon());
    const committer = new OffsetCommitter(consumer, marked, 200, logger, timer);
    committer.start();
    marked.mark(position(0, 1));
    consumer.holding = true;
    timer.fire();
    await settle();
    marked.mark(position(0, 2));
    consumer.holding = false;
    consumer.release();
    await settle();
    timer.fire();
    await settle();
    expect(consumer.requests).toEqual([[position(0, 1)], [position(0, 2)]]);
  });

  it('runs one commit at a time: a flush waits for the one in flight', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const committer = new OffsetCommitter(consumer, marked, 60_000, logger);
    consumer.holding = true;
    marked.mark(position(0, 1));
    const first = committer.flush();
    await settle();
    marked.mark(position(0, 2));
    const second = committer.flush();
    await settle();
    expect(consumer.inFlight).toBe(1);
    consumer.holding = false;
    consumer.release();
    await Promise.all([first, second]);
    expect(consumer.maxInFlight).toBe(1);
    expect(consumer.requests).toEqual([[position(0, 1)], [position(0, 2)]]);
  });

  it('commits what is due on stop, so a graceful stop replays nothing', async () => {
    const consumer = recordingConsumer();
    const marked = new MarkedPositions();
    const committer = new OffsetCommitter(consumer, marked, 60_000, logger, handTimer());
    committer.start();
    marked.mark(position(3, 9));
    await committer.stop();
    expect(consumer.requests).toEqual([[position(3, 9)]]);
  });
});
