/** What the conventions ask instrumentations to put in place of a sensitive value. */
const REDACTED = 'REDACTED';

/**
 * A URL as spans may show it: every query value and any user information replaced by
 * `REDACTED`. Webhook URLs often authenticate with a token in the query, under any name, so no
 * value is kept; the names stay, which is what an operator needs to tell URLs apart. `query` is
 * without its `?`, as `url.query` is defined.
 */
export function redactUrlForSpans(url: URL): { full: string; query: string } {
  const copy = new URL(url.href);
  if (copy.username) copy.username = REDACTED;
  if (copy.password) copy.password = REDACTED;
  const params = new URLSearchParams();
  for (const name of copy.searchParams.keys()) if (!params.has(name)) params.set(name, REDACTED);
  copy.search = params.toString();
  return { full: copy.href, query: copy.search.slice(1) };
}
