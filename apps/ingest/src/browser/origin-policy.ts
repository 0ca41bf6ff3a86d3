/**
 * Whether a page on `origin` may send a source's calls. No list: any origin (write keys are
 * public in every page that uses them, as Segment allows). Entries match exactly, or as
 * `scheme://*.domain[:port]` for any subdomain of the domain (not the domain itself).
 */
export function isOriginAllowed(allowedOrigins: readonly string[] | undefined, origin: string): boolean {
  if (!allowedOrigins) return true;
  const candidate = origin.toLowerCase();
  return allowedOrigins.some((entry) => originMatches(entry.toLowerCase(), candidate));
}

function originMatches(entry: string, origin: string): boolean {
  const wildcard = entry.indexOf('://*.');
  if (wildcard < 0) return entry === origin;
  const scheme = entry.slice(0, wildcard + 3);
  const suffix = entry.slice(wildcard + 4); // ".example.com[:port]"
  if (!origin.startsWith(scheme) || !origin.endsWith(suffix)) return false;
  const subdomain = origin.slice(scheme.length, origin.length - suffix.length);
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(subdomain);
}
