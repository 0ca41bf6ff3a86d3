/**
 * The source's write key, as Segment SDKs send it: the HTTP Basic username with an empty
 * password (Go, Node, Ruby, Java), or `writeKey` in the body (analytics-python sends only that).
 * The header wins when both are present.
 */
export function extractWriteKey(authorization: string | undefined, body: unknown): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const username = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
    if (username) return username;
  }
  const fromBody = typeof body === 'object' && body !== null ? (body as { writeKey?: unknown }).writeKey : undefined;
  return typeof fromBody === 'string' && fromBody !== '' ? fromBody : undefined;
}
