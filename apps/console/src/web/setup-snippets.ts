/** Copy-ready setup for one SDK: where it goes and the text to paste. */
export interface SetupSnippet {
  /** Stable: names the snippet's element (`snippet-<id>`). */
  id: string;
  title: string;
  code: string;
}

/** A JavaScript (and Go) string literal that cannot end the <script> element it sits in. */
const codeString = (text: string) => JSON.stringify(text).replace(/</g, '\\u003c');

/** A single-quoted shell word. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The setup of each supported SDK for a source's write key, pointed at ingest: Segment's
 * analytics.js snippet with its one host changed, `@segment/analytics-next` from npm,
 * `@segment/analytics-node`, analytics-go and curl.
 */
export function setupSnippets(ingestUrl: string, writeKey: string): SetupSnippet[] {
  const key = codeString(writeKey);
  const url = codeString(ingestUrl);
  return [
    {
      id: 'analytics-js',
      title: 'analytics.js snippet (in the page’s <head>)',
      code: `<script>
${analyticsJsSnippet(ingestUrl, writeKey)}
</script>`,
    },
    {
      id: 'analytics-next',
      title: 'analytics.js from npm (@segment/analytics-next)',
      code: `npm install @segment/analytics-next

import { AnalyticsBrowser } from '@segment/analytics-next'
export const analytics = AnalyticsBrowser.load({ writeKey: ${key}, cdnURL: ${url} })
analytics.page()`,
    },
    {
      id: 'analytics-node',
      title: 'Node.js (@segment/analytics-node)',
      code: `npm install @segment/analytics-node

import { Analytics } from '@segment/analytics-node'
const analytics = new Analytics({ writeKey: ${key}, host: ${url} })
analytics.track({ userId: 'user-1', event: 'Order Completed', properties: { revenue: 42 } })
await analytics.closeAndFlush()`,
    },
    {
      id: 'analytics-go',
      title: 'Go (github.com/segmentio/analytics-go/v3)',
      code: `go get github.com/segmentio/analytics-go/v3

client, err := analytics.NewWithConfig(${key}, analytics.Config{Endpoint: ${url}})
if err != nil {
	log.Fatal(err)
}
defer client.Close()
client.Enqueue(analytics.Track{UserId: "user-1", Event: "Order Completed"})`,
    },
    {
      id: 'curl',
      title: 'curl',
      code: `curl -u ${shellWord(`${writeKey}:`)} -H 'Content-Type: application/json' \\
  ${shellWord(`${ingestUrl}/v1/track`)} \\
  -d '{"userId":"user-1","event":"Order Completed","properties":{"revenue":42}}'`,
    },
  ];
}

/** Segment's standard snippet (5.2.0), loading analytics.js from ingest instead of Segment's CDN. */
function analyticsJsSnippet(ingestUrl: string, writeKey: string): string {
  const key = codeString(writeKey);
  const bundleBase = codeString(`${ingestUrl}/analytics.js/v1/`);
  return `!function(){var i="analytics",analytics=window[i]=window[i]||[];if(!analytics.initialize)if(analytics.invoked)window.console&&console.error&&console.error("Segment snippet included twice.");else{analytics.invoked=!0;analytics.methods=["trackSubmit","trackClick","trackLink","trackForm","pageview","identify","reset","group","track","ready","alias","debug","page","screen","once","off","on","addSourceMiddleware","addIntegrationMiddleware","setAnonymousId","addDestinationMiddleware","register"];analytics.factory=function(e){return function(){if(window[i].initialized)return window[i][e].apply(window[i],arguments);var n=Array.prototype.slice.call(arguments);if(["track","screen","alias","group","page","identify"].indexOf(e)>-1){var c=document.querySelector("link[rel='canonical']");n.push({__t:"bpc",c:c&&c.getAttribute("href")||void 0,p:location.pathname,u:location.href,s:location.search,t:document.title,r:document.referrer})}n.unshift(e);analytics.push(n);return analytics}};for(var n=0;n<analytics.methods.length;n++){var key=analytics.methods[n];analytics[key]=analytics.factory(key)}analytics.load=function(key,n){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.setAttribute("data-global-segment-analytics-key",i);t.src=${bundleBase} + key + "/analytics.min.js";var r=document.getElementsByTagName("script")[0];r.parentNode.insertBefore(t,r);analytics._loadOptions=n};analytics._writeKey=${key};analytics.SNIPPET_VERSION="5.2.0";
analytics.load(${key});
analytics.page();
}}();`;
}
