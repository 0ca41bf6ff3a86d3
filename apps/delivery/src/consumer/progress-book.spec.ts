import { ProgressBook } from './progress-book';

describe('ProgressBook', () => {
  it('offers each partition its lowest unfinished offset, once, until it moves', () => {
    const book = new ProgressBook();
    const p0 = book.of('deliveries', 0);
    p0.take(10);
    p0.take(11);
    p0.finish(11);
    book.of('retry.1', 3).take(5);
    expect(book.due()).toEqual([
      { topic: 'deliveries', partition: 0, offset: '10' },
      { topic: 'retry.1', partition: 3, offset: '5' },
    ]);
    book.committed(book.due());
    expect(book.due()).toEqual([]);
    p0.finish(10);
    expect(book.due()).toEqual([{ topic: 'deliveries', partition: 0, offset: '12' }]);
  });

  it('keeps a topic name with colons whole', () => {
    const book = new ProgressBook();
    book.of('ns:with:colons.deliveries', 1).take(0);
    expect(book.due()).toEqual([{ topic: 'ns:with:colons.deliveries', partition: 1, offset: '0' }]);
  });

  it('starts over after a rebalance: a commit answered for the old generation marks nothing', () => {
    const book = new ProgressBook();
    book.of('deliveries', 0).take(3);
    const due = book.due();
    book.reset();
    book.of('deliveries', 0).take(3);
    book.committed(due);
    expect(book.due()).toEqual([{ topic: 'deliveries', partition: 0, offset: '3' }]);
  });
});
