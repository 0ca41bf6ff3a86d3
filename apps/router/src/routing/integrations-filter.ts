/** The key that switches every destination at once. */
export const ALL_DESTINATIONS_KEY = 'All';

/**
 * Whether a call's `integrations` object lets it reach the destination named `destinationKey`
 * (as Segment documents it). All destinations are on by default; `"All": false` turns them all off except
 * those whose key is set to true. Keys are case-sensitive destination names.
 *
 * Values other than booleans, decided as Segment does:
 * - a non-null object under the destination's key (destination-specific options, e.g.
 *   `{"Webhooks": {"foo": 1}}`) enables it, even with `"All": false`;
 * - any other value (string, number, null, array) says nothing: the key is ignored and the
 *   `All` default decides. A non-boolean `All` is ignored likewise (default: on).
 */
export function integrationAllows(
  integrations: Record<string, unknown> | undefined,
  destinationKey: string,
): boolean {
  const own = integrations?.[destinationKey];
  if (typeof own === 'boolean') return own;
  if (isOptionsObject(own)) return true;
  return integrations?.[ALL_DESTINATIONS_KEY] !== false;
}

function isOptionsObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
