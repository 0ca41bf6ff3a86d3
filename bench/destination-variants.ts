/**
 * The webhook destinations a benchmark pipeline can deliver to, so the cost of a destination's
 * options can be measured against the plain one:
 *  - `segment`: `X-Signature` (HMAC-SHA1 of the body), no filters, as every earlier figure;
 *  - `filtered-standard`: Standard Webhooks signing (HMAC-SHA256 of id.timestamp.body) and two
 *    filter rules that the bench's events never match, so every call is evaluated by both rules
 *    and still delivered in full: the figure is the price of having them, not of what they drop.
 */
export const DESTINATION_VARIANTS = ['segment', 'filtered-standard'] as const;
export type DestinationVariant = (typeof DESTINATION_VARIANTS)[number];

/** A fixed `whsec_` secret (32 bytes): signing cost does not depend on its value. */
const STANDARD_WEBHOOKS_SECRET = `whsec_${Buffer.alloc(32, 0x5a).toString('base64')}`;

/** Two cheap conditions that no bench event meets: its event is "Order Completed", it has no `internal` property. */
const FILTERS_MATCHING_NOTHING = [
  { name: 'no test events', if: { field: 'event', prefix: 'Test ' }, then: { drop: true } },
  { name: 'no internal users', if: { field: 'properties.internal', equals: true }, then: { drop: true } },
];

/** The workspace file's destination `bench-hooks` of a variant, sending from source `bench` to `url`. */
export function benchDestination(variant: DestinationVariant, url: string): object {
  const destination = {
    id: 'bench-hooks',
    type: 'Webhooks',
    enabled: true,
    sources: ['bench'],
  };
  if (variant === 'filtered-standard') {
    return {
      ...destination,
      settings: {
        signature: 'standard-webhooks',
        sharedSecret: STANDARD_WEBHOOKS_SECRET,
        webhooks: [{ url }],
      },
      filters: FILTERS_MATCHING_NOTHING,
    };
  }
  return { ...destination, settings: { sharedSecret: 'bench-secret', webhooks: [{ url }] } };
}

/** The `--destination-variant` value, refused with the accepted values when it is not one of them. */
export function destinationVariantArg(value: string): DestinationVariant {
  if ((DESTINATION_VARIANTS as readonly string[]).includes(value)) return value as DestinationVariant;
  throw new Error(
    `--destination-variant must be one of: ${DESTINATION_VARIANTS.join(', ')} (got "${value}")`,
  );
}
