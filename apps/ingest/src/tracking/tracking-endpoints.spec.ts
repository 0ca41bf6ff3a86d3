import { trackingEndpoint, trackingRouteLabel } from './tracking-endpoints';

describe('tracking endpoints', () => {
  it('reads each call type by name and by initial, and a batch under batch, import and b', () => {
    expect(['track', 't', 'import', 'b', 'nope'].map(trackingEndpoint)).toEqual([
      'track',
      'track',
      'batch',
      'batch',
      undefined,
    ]);
  });

  it('labels metrics with the known endpoints by path and every other path by its route pattern', () => {
    expect(trackingRouteLabel('/v1/:endpoint', { endpoint: 'track' })).toBe('/v1/track');
    expect(trackingRouteLabel('/v1/:endpoint', { endpoint: 't' })).toBe('/v1/t');
    expect(trackingRouteLabel('/v1/:endpoint', { endpoint: 'anything-a-scanner-tries' })).toBe(
      '/v1/:endpoint',
    );
    expect(trackingRouteLabel('/admin/v1/deletions', {})).toBe('/admin/v1/deletions');
  });
});
