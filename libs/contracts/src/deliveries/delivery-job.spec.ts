import { deliveryKey, destinationIdOfKey } from './delivery-job';

describe('deliveries-topic keys', () => {
  it('give back the destination they were made for', () => {
    expect(destinationIdOfKey(deliveryKey('dest-1', 'src-1', 'user:with:colons'))).toBe('dest-1');
    expect(destinationIdOfKey('no-colon')).toBe('no-colon');
    expect(destinationIdOfKey('')).toBe('');
  });
});
