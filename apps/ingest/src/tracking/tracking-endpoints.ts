import { CallType } from '@switchyard/contracts';

/**
 * `/v1/<name>` → what it accepts: each call type under its name and its initial (analytics.js
 * and the mobile SDKs post to `/v1/t`, `/v1/b`, …), and a batch under batch, import and b.
 */
const ENDPOINTS = new Map<string, CallType | 'batch'>([
  ['identify', 'identify'],
  ['i', 'identify'],
  ['track', 'track'],
  ['t', 'track'],
  ['page', 'page'],
  ['p', 'page'],
  ['screen', 'screen'],
  ['s', 'screen'],
  ['group', 'group'],
  ['g', 'group'],
  ['alias', 'alias'],
  ['a', 'alias'],
  ['batch', 'batch'],
  ['b', 'batch'],
  ['import', 'batch'],
]);

export function trackingEndpoint(name: string): CallType | 'batch' | undefined {
  return ENDPOINTS.get(name);
}

/** The Fastify route of every tracking endpoint (tracking-routes.ts). */
export const TRACKING_ROUTE = '/v1/:endpoint';

/**
 * The `route` label of a request's metrics: a known tracking endpoint by its own path
 * (`/v1/track`, `/v1/t`, …), anything else under its route pattern, so unknown paths add no series.
 */
export function trackingRouteLabel(route: string, params: unknown): string {
  const endpoint = (params as { endpoint?: unknown } | undefined)?.endpoint;
  return route === TRACKING_ROUTE && typeof endpoint === 'string' && trackingEndpoint(endpoint)
    ? `/v1/${endpoint}`
    : route;
}
