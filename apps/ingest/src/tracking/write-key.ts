/**
 * Usernames already decoded from `Authorization: Basic …` values. Every request of a source
 * carries the same header, and decoding it (regex, base64, UTF-8) was a visible share of ingest's
 * CPU for single calls (docs/performance-log.md). Bounded: short values only, and cleared when full.
 */
const basicUsernames = new Map<string, string | undefined>();
const MAX_CACHED_HEADERS = 1024;
const MAX_CACHED_HEADER_LENGTH = 256;

/**
 * The source's write key, as Segment SDKs send it: the HTTP Basic username with an empty
 * password (Go, Node, Ruby, Java), or `writeKey` in the body (analytics-python sends only that).
 * The header wins when both are present.
 */
export function extractWriteKey(authorization: string | undefined, body: unknown): string | undefined {
  const username = authorization ? basicUsername(authorization) : undefined;
  if (username) return username;
  const fromBody =
    typeof body === 'object' && body !== null ? (body as { writeKey?: unknown }).writeKey : undefined;
  return typeof fromBody === 'string' && fromBody !== '' ? fromBody : undefined;
}

function basicUsername(authorization: string): string | undefined {
  if (basicUsernames.has(authorization)) return basicUsernames.get(authorization);
  const username = decodeBasicUsername(authorization);
  if (authorization.length <= MAX_CACHED_HEADER_LENGTH) {
    if (basicUsernames.size >= MAX_CACHED_HEADERS) basicUsernames.clear();
    basicUsernames.set(authorization, username);
  }
  return username;
}

function decodeBasicUsername(authorization: string): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization.trim());
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const username = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
  return username || undefined;
}
