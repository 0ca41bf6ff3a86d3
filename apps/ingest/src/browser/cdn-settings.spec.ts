import { cdnSettings } from './cdn-settings';
import { publicAddress } from './public-address';

describe('publicAddress', () => {
  it('takes the scheme and Host of the request when no public URL is set', () => {
    expect(publicAddress(undefined, { protocol: 'http', host: '127.0.0.1:8080' })).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      apiHost: '127.0.0.1:8080/v1',
      protocol: 'http',
    });
  });

  it('prefers the configured public URL, path prefix included', () => {
    expect(publicAddress('https://example.com/segment', { protocol: 'http', host: 'ingest:8080' })).toEqual({
      baseUrl: 'https://example.com/segment',
      apiHost: 'example.com/segment/v1',
      protocol: 'https',
    });
  });
});

describe('cdnSettings', () => {
  const settings = cdnSettings(
    'wk-123456',
    publicAddress('https://events.example.com', { protocol: 'http', host: 'x' }),
  ) as {
    integrations: Record<string, Record<string, unknown>>;
    metrics: Record<string, unknown>;
  };

  it('points the Segment.io integration at this ingest, and names no other integration', () => {
    expect(Object.keys(settings.integrations)).toEqual(['Segment.io']);
    expect(settings.integrations['Segment.io']).toMatchObject({
      apiKey: 'wk-123456',
      apiHost: 'events.example.com/v1',
      protocol: 'https',
    });
  });

  it('keeps SDK telemetry off, and pointed here rather than at Segment', () => {
    expect(settings.metrics).toEqual({ sampleRate: 0, host: 'events.example.com/v1' });
  });
});
