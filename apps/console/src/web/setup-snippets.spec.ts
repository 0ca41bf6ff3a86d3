import { setupSnippets } from './setup-snippets';

const INGEST = 'https://events.example.com';
const KEY = 'sk_AbC123-_xyz';

const snippet = (id: string, key = KEY) => setupSnippets(INGEST, key).find((s) => s.id === id)!.code;

describe('setup snippets', () => {
  it('offers analytics.js (snippet and npm), analytics-node, analytics-go and curl, each with the key and ingest', () => {
    const snippets = setupSnippets(INGEST, KEY);
    expect(snippets.map((s) => s.id)).toEqual([
      'analytics-js',
      'analytics-next',
      'analytics-node',
      'analytics-go',
      'curl',
    ]);
    for (const s of snippets) {
      expect(s.code).toContain(KEY);
      expect(s.code).toContain(INGEST);
    }
  });

  it('loads analytics.js from ingest, not from Segment’s CDN', () => {
    const code = snippet('analytics-js');
    expect(code).toContain(`t.src="${INGEST}/analytics.js/v1/" + key + "/analytics.min.js"`);
    expect(code).toContain(`analytics.load("${KEY}");`);
    expect(code).not.toContain('cdn.segment.com');
  });

  it('points each SDK at ingest the way it is configured', () => {
    expect(snippet('analytics-next')).toContain(
      `AnalyticsBrowser.load({ writeKey: "${KEY}", cdnURL: "${INGEST}" })`,
    );
    expect(snippet('analytics-next')).toContain('npm install @segment/analytics-next');
    expect(snippet('analytics-node')).toContain(`new Analytics({ writeKey: "${KEY}", host: "${INGEST}" })`);
    expect(snippet('analytics-go')).toContain('go get github.com/segmentio/analytics-go/v3');
    expect(snippet('analytics-go')).toContain(
      `analytics.NewWithConfig("${KEY}", analytics.Config{Endpoint: "${INGEST}"})`,
    );
    expect(snippet('curl')).toContain(`curl -u '${KEY}:'`);
    expect(snippet('curl')).toContain(`'${INGEST}/v1/track'`);
  });

  it('quotes a given key so that it cannot end the script element or the shell word', () => {
    const hostile = `k"');</script><b>`;
    const js = snippet('analytics-js', hostile);
    expect(js.match(/<\/script>/g)).toEqual(['</script>']);
    expect(js.trimEnd().endsWith('</script>')).toBe(true);
    expect(snippet('curl', hostile)).toContain(`curl -u 'k"'\\'');</script><b>:'`);
  });
});
