import { slices } from './batch-committer';
import { OutputRecord } from './output-record';

const record = (bytes: number): OutputRecord => ({ topic: 't', key: 'k', value: Buffer.alloc(bytes - 1) });

describe('slices', () => {
  it('keeps each slice within the byte budget, in order', () => {
    const records = [record(40), record(40), record(40), record(100), record(10)];
    expect(slices(records, 100).map((s) => s.records.length)).toEqual([2, 1, 1, 1]);
    expect(slices(records, 100).map((s) => s.bytes)).toEqual([80, 40, 100, 10]);
    expect(slices(records, 100).flatMap((s) => s.records)).toEqual(records);
  });

  it('gives nothing for nothing, and a slice of its own to a record above the budget', () => {
    expect(slices([], 100)).toEqual([]);
    expect(slices([record(500)], 100)).toHaveLength(1);
  });
});
