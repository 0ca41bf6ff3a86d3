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

  it('after a rebalance, resumes each kept partition after its last job taken and still guards its unfinished ones', () => {
    const book = new ProgressBook();
    const kept = book.of('deliveries', 0);
    for (const offset of [3, 4, 5]) kept.take(offset);
    kept.finish(4);
    kept.finish(5);
    book.of('retry.1', 2).take(7);
    book.of('retry.1', 2).finish(7);
    book.of('deliveries', 1).take(9);
    expect(book.keepOnly({ deliveries: [0], 'retry.1': [2] })).toEqual([
      { topic: 'deliveries', partition: 0, offset: '6' },
      { topic: 'retry.1', partition: 2, offset: '8' },
    ]);
    expect(book.due()).toEqual([
      { topic: 'deliveries', partition: 0, offset: '3' },
      { topic: 'retry.1', partition: 2, offset: '8' },
    ]);
    kept.finish(3);
    expect(book.due()).toEqual([
      { topic: 'deliveries', partition: 0, offset: '6' },
      { topic: 'retry.1', partition: 2, offset: '8' },
    ]);
  });

  it('leaves a partition nothing was taken from to its committed offset', () => {
    const book = new ProgressBook();
    book.of('deliveries', 0);
    expect(book.keepOnly({ deliveries: [0] })).toEqual([]);
  });

  it('starts a partition a rebalance took away afresh: a commit offered before marks nothing', () => {
    const book = new ProgressBook();
    book.of('deliveries', 1).take(3);
    const due = book.due();
    expect(book.keepOnly({ deliveries: [0] })).toEqual([]);
    expect(book.due()).toEqual([]);
    book.of('deliveries', 1).take(3);
    book.committed(due);
    expect(book.due()).toEqual([{ topic: 'deliveries', partition: 1, offset: '3' }]);
  });
});
