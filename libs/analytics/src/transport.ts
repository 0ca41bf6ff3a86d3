/** What the delivery loop needs of one HTTP exchange. */
export interface TransportResponse {
  status: number;
  retryAfter: string | null;
  /** The start of the response body, for the error report when a batch is refused. */
  bodyExcerpt: string;
}

/** Posts one batch body; rejects only when no response arrived (network error or timeout). */
export type BatchTransport = (body: string) => Promise<TransportResponse>;

const EXCERPT_CHARS = 500;

/**
 * The default transport: Node's built-in fetch (keep-alive connections), the write key as the
 * HTTP Basic username with an empty password, as Segment's server SDKs send it.
 */
export function fetchTransport(
  url: string,
  writeKey: string,
  timeoutMs: number,
  userAgent: string,
): BatchTransport {
  const headers = {
    authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
    'content-type': 'application/json',
    'user-agent': userAgent,
  };
  return async (body) => {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Reading the body to its end returns the connection to the pool.
    const text = await response.text();
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      bodyExcerpt: text.slice(0, EXCERPT_CHARS),
    };
  };
}
