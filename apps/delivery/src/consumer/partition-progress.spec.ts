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
});
