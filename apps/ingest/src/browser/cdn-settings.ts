import type { PublicAddress } from './public-address';

/**
 * The settings analytics.js (and the mobile SDKs) fetch from Segment's CDN at start-up, for a
 * source that sends only to its Segment.io integration, which points at this ingest. No device-
 * mode destinations, middleware or plan, so the bundle loads nothing else.
 *
 * SDK telemetry is off (`sampleRate: 0`): it is Segment's monitoring of its own library, of no
 * use to a site owner, and analytics.js would send it over https even to an http ingest. Its
 * host still points here, so a page that turns it on is answered by `/v1/m`, not by Segment.
 */
export function cdnSettings(writeKey: string, address: PublicAddress): object {
  return {
    integrations: {
      'Segment.io': {
        apiKey: writeKey,
        apiHost: address.apiHost,
        protocol: address.protocol,
        unbundledIntegrations: [],
        addBundledMetadata: true,
        maybeBundledConfigIds: {},
      },
    },
    plan: {
      track: { __default: { enabled: true, integrations: {} } },
      identify: { __default: { enabled: true } },
      group: { __default: { enabled: true } },
    },
    edgeFunction: {},
    analyticsNextEnabled: true,
    middlewareSettings: {},
    enabledMiddleware: {},
    metrics: { sampleRate: 0, host: address.apiHost },
    legacyVideoPluginsEnabled: false,
    remotePlugins: [],
  };
}
