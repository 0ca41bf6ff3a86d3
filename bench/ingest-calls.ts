import { fillerText } from './bench-kit';

/** The write key of config/workspace.example.yaml's demo source, which the ingest benchmarks send to. */
const WRITE_KEY = 'demo-website-write-key';

/** The Basic authorization header of the demo source's write key. */
export const DEMO_SOURCE_AUTH = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;

/**
 * The ~470-byte track call the ingest benchmarks send; `i` varies its ids and its filler text.
 * The calls of `users` users in turn: the user is the record's key, so one user puts every call
 * in one partition, as a source importing one user's history does.
 */
export function benchTrackCall(i: number, users = 5000) {
  return {
    type: 'track',
    userId: `user-${i % users}`,
    event: 'Order Completed',
    properties: {
      orderId: `order-${i}`,
      revenue: 42.5,
      currency: 'EUR',
      items: [{ sku: 'sku-1', qty: 2 }],
      note: fillerText(220, i),
    },
    context: { ip: '203.0.113.7', library: { name: 'bench', version: '1.0.0' } },
  };
}
