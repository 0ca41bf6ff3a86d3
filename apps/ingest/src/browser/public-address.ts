/** Where browsers and apps reach ingest, in the forms analytics.js settings and bundles need. */
export interface PublicAddress {
  /** `https://events.example.com[/prefix]`: where the bundle, its chunks and the settings live. */
  baseUrl: string;
  /** `events.example.com[/prefix]/v1`: the Tracking API without scheme, as Segment's `apiHost`. */
  apiHost: string;
  protocol: 'http' | 'https';
}

/** What a request says about how it reached ingest (Fastify's, X-Forwarded-* applied when trusted). */
export interface RequestOrigin {
  protocol: string;
  host: string;
}

/** INGEST_PUBLIC_URL when set, else the scheme and Host the request came with. */
export function publicAddress(publicUrl: string | undefined, request: RequestOrigin): PublicAddress {
  const baseUrl = publicUrl ?? `${request.protocol === 'https' ? 'https' : 'http'}://${request.host}`;
  const protocol = baseUrl.startsWith('https://') ? 'https' : 'http';
  return { baseUrl, apiHost: `${baseUrl.slice(protocol.length + 3)}/v1`, protocol };
}

/** A Host header that can be written into a URL: a name or address, and a port. */
export function isUsableHost(host: string): boolean {
  return /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host);
}
