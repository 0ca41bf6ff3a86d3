import { manualClock } from '../../test-support/manual-clock';
import { PartitionHolds } from './partition-holds';

function recordingConsumer() {
  const calls: string[] = [];
  return {
    calls,
    pause: (topics: Array<{ topic: string; partitions?: number[] }>) =>
      void calls.push(`pause ${topics[0].topic}/${topics[0].partitions}`),
    seek: ({ topic, partition, offset }: { topic: string; partition: number; offset: string }) =>
      void calls.push(`seek ${topic}/${partition}@${offset}`),
    resume: (topics: Array<{ topic: string; partitions?: number[] }>) =>
      void calls.push(`resume ${topics[0].topic}/${topics[0].partitions}`),
  };
}

describe('PartitionHolds', () => {
  it('pauses a partition at its first untaken record and resumes it when the wait is over', () => {
    const consumer = recordingConsumer();
    const clock = manualClock();
    const holds = new PartitionHolds(consumer, clock);
    holds.hold('retry.1', 2, '40', 1_000);
    clock.advance(999);
    expect(consumer.calls).toEqual(['pause retry.1/2', 'seek retry.1/2@40']);
    clock.advance(1);
    expect(consumer.calls.at(-1)).toBe('resume retry.1/2');
  });

  it('resumes a partition held for room only when a job finishes and there is room', () => {
    const consumer = recordingConsumer();
    const holds = new PartitionHolds(consumer, manualClock());
    holds.hold('deliveries', 0, '7');
    holds.releaseIfRoom('deliveries', 0, false);
    holds.releaseIfRoom('deliveries', 1, true);
    expect(consumer.calls.filter((c) => c.startsWith('resume'))).toEqual([]);
    holds.releaseIfRoom('deliveries', 0, true);
    expect(consumer.calls.filter((c) => c.startsWith('resume'))).toEqual(['resume deliveries/0']);
  });

  it('does not release a timed hold early because room appeared', () => {
    const consumer = recordingConsumer();
    const holds = new PartitionHolds(consumer, manualClock());
    holds.hold('retry.1', 0, '3', 5_000);
    holds.releaseIfRoom('retry.1', 0, true);
    expect(consumer.calls.filter((c) => c.startsWith('resume'))).toEqual([]);
  });

  it('replaces an earlier hold of the same partition, cancelling its timer', () => {
    const consumer = recordingConsumer();
    const clock = manualClock();
    const holds = new PartitionHolds(consumer, clock);
    holds.hold('retry.1', 0, '3', 1_000);
    holds.hold('retry.1', 0, '3', 5_000);
    clock.advance(1_000);
    expect(consumer.calls.filter((c) => c.startsWith('resume'))).toEqual([]);
    clock.advance(4_000);
    expect(consumer.calls.filter((c) => c.startsWith('resume'))).toEqual(['resume retry.1/0']);
  });

  it('resumes every hold after a rebalance, and none once closed', () => {
    const consumer = recordingConsumer();
    const clock = manualClock();
    const holds = new PartitionHolds(consumer, clock);
    holds.hold('deliveries', 0, '1');
    holds.hold('retry.1', 1, '2', 1_000);
    holds.resumeAll();
    expect(consumer.calls.filter((c) => c.startsWith('resume')).sort()).toEqual([
      'resume deliveries/0',
      'resume retry.1/1',
    ]);
    holds.hold('retry.1', 1, '2', 1_000);
    holds.close();
    clock.advance(1_000);
    holds.resumeAll();
    expect(consumer.calls.filter((c) => c.startsWith('resume'))).toHaveLength(2);
  });
});
