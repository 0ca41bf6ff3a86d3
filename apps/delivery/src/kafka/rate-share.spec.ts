import { partitionShare } from './rate-share';

describe('partitionShare', () => {
  const counts = { 'ns.deliveries.v1': 6, 'ns.deliveries.retry.1.v1': 6, 'ns.deliveries.retry.2.v1': 6 };

  it('adds up to 1 over the members of a group, however the partitions are spread', () => {
    const members: Array<Record<string, number[]>> = [
      { 'ns.deliveries.v1': [0, 1, 2], 'ns.deliveries.retry.1.v1': [0, 1] },
      { 'ns.deliveries.v1': [3, 4, 5], 'ns.deliveries.retry.2.v1': [0, 1, 2, 3] },
      { 'ns.deliveries.retry.1.v1': [2, 3, 4, 5], 'ns.deliveries.retry.2.v1': [4, 5] },
    ];
    const shares = members.map((m) => partitionShare(m, counts));
    expect(shares.map((s) => s * 18)).toEqual([5, 7, 6]);
    expect(shares.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
  });

  it('ignores topics outside the group and is 0 without partitions', () => {
    expect(partitionShare({ other: [0, 1] }, counts)).toBe(0);
    expect(partitionShare({}, {})).toBe(0);
  });
});
