import type { TrustProxy } from '@switchyard/config';

/** Fastify's answer to "is the proxy at this hop trusted?", given its address and its hop (0 = the peer). */
type TrustProxyFunction = (address: string, hop: number) => boolean;

/**
 * INGEST_TRUST_PROXY as Fastify's `trustProxy` option. Fastify no longer honours a bare hop count
 * (it now trusts no hop at all, silently), because a client that reaches the server directly can
 * write X-Forwarded-* headers that the count then believes. Ingest keeps the count as a trust
 * function of the same meaning: what those headers decide here is the `context.ip` of calls that
 * name none, which any caller can write into its call anyway, and the public URL in its own
 * answer. Address lists remain the setting to use when ingest can be reached around the proxy.
 */
export function fastifyTrustProxy(setting: TrustProxy): boolean | string | TrustProxyFunction {
  if (typeof setting !== 'number') return setting;
  const trustedHops = setting;
  return (_address, hop) => hop < trustedHops;
}
