import { integer, port, text } from '../setting-kinds';
import { Setting, settingsTable } from '../settings-table';

/** An http(s) URL with an optional path, without query or fragment: how browsers and apps reach ingest. */
const PUBLIC_URL = /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/[A-Za-z0-9._~-]+)*$/;
/** Addresses or CIDR ranges (IPv4 or IPv6), or proxy-addr's names for the private ranges; comma-separated. */
const ADDRESS = '([0-9a-fA-F.:]+(\\/\\d{1,3})?|loopback|linklocal|uniquelocal)';
const ADDRESS_LIST = new RegExp(`^${ADDRESS}(\\s*,\\s*${ADDRESS})*$`);

/** Which peers may set X-Forwarded-For/-Proto/-Host: none, all, the nearest N hops, or these addresses. */
export type TrustProxy = boolean | number | string;

/** Off by default: a client could otherwise write any address into context.ip. */
const trustProxy: Setting<TrustProxy> = {
  env: 'INGEST_TRUST_PROXY',
  type: 'boolean, hop count or address list',
  default: false,
  bounds: 'false, true, 1 – 10, or addresses, CIDRs, loopback, linklocal, uniquelocal',
  description:
    'Whose `X-Forwarded-For`/`-Proto`/`-Host` to believe for the client address (`context.ip`) and the public URL; off, `context.ip` is the connecting peer.',
  parse: (raw) => {
    const value = raw.trim();
    if (/^(false|0|no|off)$/i.test(value)) return { value: false };
    if (/^(true|yes|on)$/i.test(value)) return { value: true };
    const hops = /^\d+$/.test(value) ? Number(value) : undefined;
    if (hops === undefined ? ADDRESS_LIST.test(value) : hops >= 1 && hops <= 10)
      return { value: hops ?? value };
    return {
      problem:
        'must be false, true, a hop count (1-10) or a comma-separated list of addresses, CIDRs, loopback, linklocal or uniquelocal',
    };
  },
};

/** Ingest's own settings: request limits, timeouts, and how it is reached. */
export const INGEST_SETTINGS = settingsTable({
  title: 'Ingest',
  summary: 'The Tracking API: request limits, timeouts, and how browsers and apps reach it.',
  rows: {
    port: port(8080),
    maxMessageBytes: integer({
      env: 'INGEST_MAX_MESSAGE_BYTES',
      default: 32 * 1024,
      min: 1024,
      max: 1024 * 1024,
      description: 'Bytes of JSON per message (Segment: 32 KB).',
    }),
    maxRequestBytes: integer({
      env: 'INGEST_MAX_REQUEST_BYTES',
      default: 500 * 1024,
      min: 1024,
      max: 16 * 1024 * 1024,
      description: 'Bytes of JSON per request, counted after decompression (Segment: 500 KB).',
    }),
    maxBatchMessages: integer({
      env: 'INGEST_MAX_BATCH_MESSAGES',
      default: 2500,
      min: 1,
      max: 100_000,
      description: 'Messages per batch request.',
    }),
    produceLingerMs: integer({
      env: 'INGEST_PRODUCE_LINGER_MS',
      default: 2,
      min: 0,
      max: 100,
      description:
        'How long a record waits for company while an earlier produce request is still in flight; with none in flight it is sent at once.',
    }),
    maxJsonDepth: integer({
      env: 'INGEST_MAX_JSON_DEPTH',
      default: 64,
      min: 8,
      max: 512,
      description:
        'Nesting of objects and arrays in a body, the body itself being level 1; checked before parsing.',
    }),
    headersTimeoutMs: integer({
      env: 'INGEST_HEADERS_TIMEOUT_MS',
      default: 10_000,
      min: 1000,
      max: 300_000,
      description:
        'A client must send its request headers within this, else Node answers 408 and closes the connection (slow-header clients).',
    }),
    requestTimeoutMs: integer({
      env: 'INGEST_REQUEST_TIMEOUT_MS',
      default: 30_000,
      min: 1000,
      max: 600_000,
      description: 'Time for the whole request, body included; not below the header timeout.',
    }),
    keepAliveTimeoutMs: integer({
      env: 'INGEST_KEEP_ALIVE_TIMEOUT_MS',
      default: 72_000,
      min: 1000,
      max: 600_000,
      description:
        "An idle keep-alive connection closes after this; keep it above the load balancer's idle timeout (AWS ALB: 60 s) so the balancer closes first.",
    }),
    /* Well under the SDKs' own 10-15 s client timeouts, so they see the 503 and retry instead of timing out. */
    produceTimeoutMs: integer({
      env: 'INGEST_PRODUCE_TIMEOUT_MS',
      default: 5000,
      min: 100,
      max: 60_000,
      description: 'A call Kafka has not acknowledged within this gets a 503 (the SDKs retry it).',
    }),
    publicUrl: text({
      env: 'INGEST_PUBLIC_URL',
      default: undefined,
      normalize: (raw) => raw.replace(/\/+$/, ''),
      accepts: PUBLIC_URL,
      rule: 'must be an http(s) URL with an optional path, without query or fragment, e.g. https://events.example.com',
      description:
        "How browsers and apps reach ingest, written into the analytics.js settings and bundle; unset: each request's scheme and `Host`.",
    }),
    trustProxy,
  },
  // Node refuses a header timeout longer than the request's, and the headers are part of the request.
  checks: (s) =>
    s.headersTimeoutMs > s.requestTimeoutMs
      ? ['INGEST_HEADERS_TIMEOUT_MS must not exceed INGEST_REQUEST_TIMEOUT_MS']
      : [],
});
