import { trackingRouteLabel } from './tracking.controller';

describe('trackingRouteLabel', () => {
  it('names the known tracking endpoints and keeps every other path under its route pattern', () => {
    expect(trackingRouteLabel('/v1/:endpoint', { endpoint: 'track' })).toBe('/v1/track');
    expect(trackingRouteLabel('/v1/:endpoint', { endpoint: 'import' })).toBe('/v1/import');
    expect(trackingRouteLabel('/v1/:endpoint', { endpoint: 'anything-a-scanner-tries' })).toBe('/v1/:endpoint');
    expect(trackingRouteLabel('/admin/v1/deletions', {})).toBe('/admin/v1/deletions');
  });
});
