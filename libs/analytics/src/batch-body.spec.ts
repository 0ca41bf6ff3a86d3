import { batchBody, nextBatchSize } from './batch-body';
import type { EncodedMessage } from './message-encoding';

const message = (bytes: number, id = 'm'): EncodedMessage => {
  const json = JSON.stringify({ messageId: id, pad: 'x'.repeat(Math.max(0, bytes - 25)) });
  return { messageId: id, json, bytes: Buffer.byteLength(json) };
};

describe('batchBody', () => {
  it('is the Tracking API batch, with sentAt', () => {
    const body = batchBody([message(30, 'a'), message(30, 'b')], new Date('2025-01-01T00:00:00Z'));
    expect(JSON.parse(body)).toEqual({
      batch: [expect.objectContaining({ messageId: 'a' }), expect.objectContaining({ messageId: 'b' })],
      sentAt: '2025-01-01T00:00:00.000Z',
    });
  });
});

describe('nextBatchSize', () => {
  it('takes at most maxMessages', () => {
    expect(
      nextBatchSize(
        Array.from({ length: 50 }, () => message(100)),
        20,
        500 * 1024,
      ),
    ).toBe(20);
  });

  it('takes no more than fit in maxBodyBytes, counting envelope and commas', () => {
    const queue = Array.from({ length: 10 }, () => message(1000));
    const count = nextBatchSize(queue, 100, 3500);
    expect(count).toBe(3);
    expect(Buffer.byteLength(batchBody(queue.slice(0, count), new Date()))).toBeLessThanOrEqual(3500);
    expect(Buffer.byteLength(batchBody(queue.slice(0, count + 1), new Date()))).toBeGreaterThan(3500);
  });

  it('always takes the head message, so the queue cannot stall', () => {
    expect(nextBatchSize([message(5000)], 20, 1000)).toBe(1);
    expect(nextBatchSize([], 20, 1000)).toBe(0);
  });
});
