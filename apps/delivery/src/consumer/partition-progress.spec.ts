import { PartitionProgress } from './partition-progress';

describe('PartitionProgress', () => {
  it('has nothing to commit before it took a record', () => {
    expect(new PartitionProgress().commitDue()).toBeUndefined();
  });

  it('commits only below the lowest unfinished job, whatever order jobs finish in', () => {
    const progress = new PartitionProgress();
    [10, 11, 12, 13].forEach((o) => progress.take(o));
    progress.finish(12);
    progress.finish(13);
    expect(progress.commitDue()).toBe(10);
    progress.markCommitted(10);
    expect(progress.commitDue()).toBeUndefined();
    progress.finish(10);
    expect(progress.commitDue()).toBe(11);
    progress.finish(11);
    expect(progress.commitDue()).toBe(14);
    expect(progress.size).toBe(0);
  });

  it('counts the bytes of unfinished jobs', () => {
    const progress = new PartitionProgress();
    progress.take(1, 300);
    progress.take(2, 500);
    progress.finish(1);
    expect(progress.bytes).toBe(500);
    progress.finish(2);
    expect(progress.bytes).toBe(0);
  });

  it('has room below both bounds, and always when nothing is unfinished', () => {
    const progress = new PartitionProgress();
    expect(progress.hasRoom(2, 100)).toBe(true);
    progress.take(1, 5000); // one record larger than the byte bound is still taken
    expect(progress.hasRoom(2, 100)).toBe(false);
    progress.finish(1);
    progress.take(2, 10);
    expect(progress.hasRoom(2, 100)).toBe(true);
    progress.take(3, 10);
    expect(progress.hasRoom(2, 100)).toBe(false); // two jobs: the count bound
    expect(progress.hasRoom(3, 100)).toBe(true);
  });
});
