import pino from 'pino';
import { PeriodicOffsetCommits } from './periodic-offset-commits';

type Commit = { topic: string; partition: number; offset: string }[];

/** A consumer whose commitOffsets records each request, and fails while `failing` is set. */
function recordingConsumer() {
  const requests: Commit[] = [];
  const consumer = {
    failing: false,
    requests,
    commitOffsets: async (offsets: Commit) => {
      if (consumer.failing) throw new Error('coordinator not available');
      requests.push(offsets);
    },
  };
  return consumer;
}

const position = (partition: number, nextOffset: number, topic = 'events') => ({ topic, partition, nextOffset: String(nextOffset) });

describe('PeriodicOffsetCommits', () => {
  const logger = pino({ level: 'silent' });

  it('commits the latest position of every partition in one request, and nothing when nothing moved', async () => {
    const consumer = recordingConsumer();
    const commits = new PeriodicOffsetCommits(consumer, 60_000, logger);
    commits.mark(position(0, 10));
    commits.mark(position(1, 5));
    commits.mark(position(0, 20));
    await commits.flush();
    await commits.flush();
    expect(consumer.requests).toEqual([
      [
        { topic: 'events', partition: 0, offset: '20' },
        { topic: 'events', partition: 1, offset: '5' },
      ],
    ]);
  });

  it('keeps a failed position for the next flush, unless a later one of its partition arrived', async () => {
    const consumer = recordingConsumer();
    const commits = new PeriodicOffsetCommits(consumer, 60_000, logger);
    commits.mark(position(0, 10));
    commits.mark(position(1, 5));
    consumer.failing = true;
    const failed = commits.flush();
    commits.mark(position(0, 30));
    await failed;
    consumer.failing = false;
    await commits.stop();
    expect(consumer.requests).toEqual([
      [
        { topic: 'events', partition: 0, offset: '30' },
        { topic: 'events', partition: 1, offset: '5' },
      ],
    ]);
  });

  it('drops the positions of partitions a rebalance took away', async () => {
    const consumer = recordingConsumer();
    const commits = new PeriodicOffsetCommits(consumer, 60_000, logger);
    commits.mark(position(0, 10));
    commits.mark(position(1, 5));
    commits.mark(position(0, 7, 'audiences'));
    commits.keepOnly({ events: [1], audiences: [] });
    await commits.stop();
    expect(consumer.requests).toEqual([[{ topic: 'events', partition: 1, offset: '5' }]]);
  });

  it('commits on its interval once started', async () => {
    const consumer = recordingConsumer();
    const commits = new PeriodicOffsetCommits(consumer, 10, logger);
    commits.start();
    commits.mark(position(2, 42));
    while (consumer.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await commits.stop();
    expect(consumer.requests).toEqual([[{ topic: 'events', partition: 2, offset: '42' }]]);
  });
});
