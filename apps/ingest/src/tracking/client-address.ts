/**
 * The caller's address as context.ip shows it: Fastify's `request.ip` (the peer, or the client
 * named in X-Forwarded-For when INGEST_TRUST_PROXY trusts the peer), with an IPv4 address seen
 * on a dual-stack socket written as plain IPv4.
 */
export function clientAddress(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
