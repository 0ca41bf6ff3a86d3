import { CallType } from '@switchyard/contracts';

/**
 * `/v1/<name>` → what it accepts: each call type under its name and its initial (analytics.js
 * and the mobile SDKs post to `/v1/t`, `/v1/b`, …), and a batch under batch, import and b.
 */
const ENDPOINTS = new Map<string, CallType | 'batch'>([
  ['identify', 'identify'], ['i', 'identify'],
  ['track', 'track'], ['t', 'track'],
  ['page', 'page'], ['p', 'page'],
  ['screen', 'screen'], ['s', 'screen'],
  ['group', 'group'], ['g', 'group'],
  ['alias', 'alias'], ['a', 'alias'],
  ['batch', 'batch'], ['b', 'batch'], ['import', 'batch'],
]);

export function trackingEndpoint(name: string): CallType | 'batch' | undefined {
  return ENDPOINTS.get(name);
}
