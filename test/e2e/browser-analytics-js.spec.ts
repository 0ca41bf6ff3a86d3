import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/kafka-test-kit';
import { RunningPipeline, startPipeline } from '../support/pipeline-processes';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';

const WRITE_KEY = 'browser-write-key-01';
/** A source that lists the origins whose pages may use it; the test site is not among them. */
const GUARDED_WRITE_KEY = 'guarded-write-key-01';
const SECRET = 'browser-shared-secret';
const TITLE = 'Switchyard browser test';
const CALL_TYPES = ['alias', 'group', 'identify', 'page', 'screen', 'track'];

/** The npm package's browser build, as a site's own bundler would ship it (UMD global `AnalyticsNext`). */
const NPM_BUILD = readFileSync(
  join(dirname(require.resolve('@segment/analytics-next/package.json')), 'dist', 'umd', 'index.js'),
);

/**
 * The six calls every page makes, each under the page's own user. Alias comes first and names
 * its previous id: analytics.js fills a missing one when it sends, by then from identify.
 */
const SIX_CALLS = `
function sendSixCalls(analytics, userId) {
  analytics.alias(userId, userId + '-visitor');
  analytics.identify(userId, { name: 'Ada', plan: 'pro' });
  analytics.track('Order Completed', { revenue: 42.5 });
  analytics.page('Docs', 'Home', { section: 'intro' });
  analytics.group('g-1', { name: 'Acme' });
  analytics.screen('Dashboard');
}`;

/** Segment's standard snippet (5.2.0), with its one host changed from Segment's CDN to ingest. */
const snippet = (ingestUrl: string) => `
!function(){var i="analytics",analytics=window[i]=window[i]||[];if(!analytics.initialize)if(analytics.invoked)window.console&&console.error&&console.error("Segment snippet included twice.");else{analytics.invoked=!0;analytics.methods=["trackSubmit","trackClick","trackLink","trackForm","pageview","identify","reset","group","track","ready","alias","debug","page","screen","once","off","on","addSourceMiddleware","addIntegrationMiddleware","setAnonymousId","addDestinationMiddleware","register"];analytics.factory=function(e){return function(){if(window[i].initialized)return window[i][e].apply(window[i],arguments);var n=Array.prototype.slice.call(arguments);if(["track","screen","alias","group","page","identify"].indexOf(e)>-1){var c=document.querySelector("link[rel='canonical']");n.push({__t:"bpc",c:c&&c.getAttribute("href")||void 0,p:location.pathname,u:location.href,s:location.search,t:document.title,r:document.referrer})}n.unshift(e);analytics.push(n);return analytics}};for(var n=0;n<analytics.methods.length;n++){var key=analytics.methods[n];analytics[key]=analytics.factory(key)}analytics.load=function(key,n){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.setAttribute("data-global-segment-analytics-key",i);t.src="${ingestUrl}/analytics.js/v1/" + key + "/analytics.min.js";var r=document.getElementsByTagName("script")[0];r.parentNode.insertBefore(t,r);analytics._loadOptions=n};analytics._writeKey="${WRITE_KEY}";analytics.SNIPPET_VERSION="5.2.0";
analytics.load("${WRITE_KEY}");
}}();`;

/** The pages, each a different way of using analytics.js; `/start.html` links to one so it has a referrer. */
function pages(ingestUrl: string): Record<string, string> {
  const html = (body: string) =>
    `<!doctype html><html><head><title>${TITLE}</title></head><body>${body}</body></html>`;
  const npm = (loadOptions: object, userId: string, writeKey = WRITE_KEY) =>
    html(`
    <script src="/vendor/analytics-next.js"></script>
    <script>${SIX_CALLS}
      const analytics = AnalyticsNext.AnalyticsBrowser.load({ writeKey: ${JSON.stringify(writeKey)}, cdnURL: ${JSON.stringify(ingestUrl)} }, ${JSON.stringify(loadOptions)});
      sendSixCalls(analytics, ${JSON.stringify(userId)});
    </script>`);
  return {
    '/start.html': html(
      '<a id="go" href="">next</a><script>document.getElementById("go").href = new URLSearchParams(location.search).get("next")</script>',
    ),
    '/npm.html': npm({}, 'browser-npm'),
    '/guarded.html': npm({}, 'browser-guarded', GUARDED_WRITE_KEY),
    '/batching.html': npm(
      {
        integrations: {
          'Segment.io': { deliveryStrategy: { strategy: 'batching', config: { size: 6, timeout: 200 } } },
        },
      },
      'browser-batching',
    ),
    '/snippet.html': html(`
      <a id="docs-link" href="#docs">Docs</a>
      <script>${snippet(ingestUrl)}${SIX_CALLS}
        sendSixCalls(window.analytics, 'browser-snippet');
        // trackLink's code is a chunk analytics.js loads lazily: it must come from ingest too. Once
        // loaded, analytics.js's trackLink returns a promise that settles when the link is watched.
        window.analytics.ready(() => { window.linkWatched = window.analytics.trackLink(document.getElementById('docs-link'), 'Clicked Link'); });
      </script>`),
  };
}

/** The site: its own origin (another port than ingest), serving the pages and the npm build. */
async function startSite(ingestUrl: string): Promise<{ url: string; server: Server }> {
  const content = pages(ingestUrl);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/vendor/analytics-next.js')
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(NPM_BUILD);
    if (content[path]) return void res.writeHead(200, { 'content-type': 'text/html' }).end(content[path]);
    res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface PageRun {
  pageUrl: string;
  referrer: string;
  /** Every URL the browser requested. */
  requests: string[];
  /** Console errors and warnings, page errors, failed requests and 4xx/5xx answers. */
  problems: string[];
}

/**
 * The whole system as a website uses it: a real Chromium on a page of another origin runs
 * analytics.js, and its calls go through ingest, Kafka, router and delivery (each its own
 * process) to a real webhook receiver.
 */
describe('end to end: analytics.js in a real browser → ingest → router → delivery → webhook', () => {
  // Each test starts Chromium, which on a machine loaded by stress-ng has taken minutes (launchChromium retries a hung start once).
  jest.setTimeout(300_000);
  let pipeline: RunningPipeline;
  let receiver: WebhookReceiver;
  let ingestUrl: string;
  let site: { url: string; server: Server };

  beforeAll(async () => {
    pipeline = await startPipeline('e2e-web', SECRET, [
      { writeKey: WRITE_KEY },
      { writeKey: GUARDED_WRITE_KEY, allowedOrigins: ['https://shop.example.com'] },
    ]);
    receiver = pipeline.receiver;
    ingestUrl = pipeline.processes.ingest.url;
    site = await startSite(ingestUrl);
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
    site?.server.close();
  });

  /** Opens `/start.html`, follows its link to `path` (so the page has a referrer), runs `act`. */
  async function visit(path: string, act: (page: Page, run: PageRun) => Promise<unknown>): Promise<PageRun> {
    const browser = await launchChromium();
    const run: PageRun = {
      pageUrl: `${site.url}${path}`,
      referrer: `${site.url}/start.html?next=${path}`,
      requests: [],
      problems: [],
    };
    try {
      browser.context.on('request', (request) => run.requests.push(request.url()));
      browser.context.on('requestfailed', (request) =>
        run.problems.push(`${request.url()} failed: ${request.failure()?.errorText}`),
      );
      browser.context.on('response', (response) => {
        if (response.status() >= 400) run.problems.push(`${response.url()} answered ${response.status()}`);
      });
      const page = await browser.context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          run.problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => run.problems.push(`page error: ${error.message}`));
      await page.goto(run.referrer);
      await Promise.all([page.waitForURL(run.pageUrl), page.click('#go')]);
      await act(page, run);
    } finally {
      await browser.close();
    }
    return run;
  }

  async function expectSixCallsDelivered(run: PageRun, userId: string): Promise<ReceivedWebhook[]> {
    const hooks = await receiver.waitFor(6, (h) => userOf(h) === userId && h.body.event !== 'Clicked Link');
    expect(hooks.map((h) => h.body.type).sort()).toEqual(CALL_TYPES);
    const byType = Object.fromEntries(hooks.map((h) => [h.body.type, h.body]));
    expect(byType.identify).toMatchObject({ userId, traits: { name: 'Ada', plan: 'pro' } });
    expect(byType.track).toMatchObject({ userId, event: 'Order Completed', properties: { revenue: 42.5 } });
    expect(byType.page).toMatchObject({
      userId,
      category: 'Docs',
      name: 'Home',
      properties: { section: 'intro', url: run.pageUrl, title: TITLE },
    });
    expect(byType.group).toMatchObject({ userId, groupId: 'g-1', traits: { name: 'Acme' } });
    expect(byType.screen).toMatchObject({ userId, type: 'screen' });
    // The webhook spells alias's ids "User ID" and "Previous ID", as Segment documents.
    expect(byType.alias).toMatchObject({ 'User ID': userId, 'Previous ID': `${userId}-visitor` });
    expect(byType.track.anonymousId).toMatch(/^[0-9a-f-]{36}$/);
    for (const hook of hooks) {
      expect(hook.headers['x-signature']).toBe(createHmac('sha1', SECRET).update(hook.raw).digest('hex'));
      expect(hook.body.context).toMatchObject({
        page: { url: run.pageUrl, path: new URL(run.pageUrl).pathname, referrer: run.referrer, title: TITLE },
        userAgent: expect.stringContaining('Chrome/'),
        library: { name: 'analytics.js' },
        ip: '127.0.0.1',
      });
    }
    // Nothing left the machine for Segment's CDN or API: every request went to the site or to ingest.
    expect(
      run.requests.filter((url) => !url.startsWith(`${site.url}/`) && !url.startsWith(`${ingestUrl}/`)),
    ).toEqual([]);
    return hooks;
  }

  const userOf = (hook: ReceivedWebhook) => hook.body.userId ?? hook.body['User ID'];
  const sixArrived = (userId: string) => () => receiver.waitFor(6, (h) => userOf(h) === userId);
  const trackingPaths = (run: PageRun) =>
    [
      ...new Set(
        run.requests
          .filter((u) => u.startsWith(`${ingestUrl}/v1/`) && !u.includes('/projects/'))
          .map((u) => new URL(u).pathname),
      ),
    ].sort();

  it('(a) the npm package with cdnURL pointing at ingest', async () => {
    const run = await visit('/npm.html', sixArrived('browser-npm'));
    await expectSixCallsDelivered(run, 'browser-npm');
    expect(run.requests).toContain(`${ingestUrl}/v1/projects/${WRITE_KEY}/settings`);
    expect(trackingPaths(run)).toEqual(['/v1/a', '/v1/g', '/v1/i', '/v1/p', '/v1/s', '/v1/t']);
    expect(run.problems).toEqual([]);
  });

  it('(b) the classic snippet loading analytics.js and its lazy chunks from ingest', async () => {
    const run = await visit('/snippet.html', async (page) => {
      await sixArrived('browser-snippet')();
      await page.waitForFunction('window.linkWatched');
      await page.evaluate('window.linkWatched');
      await page.click('#docs-link');
      await receiver.waitFor(1, (h) => h.body.event === 'Clicked Link');
    });
    await expectSixCallsDelivered(run, 'browser-snippet');
    expect(run.requests).toContain(`${ingestUrl}/analytics.js/v1/${WRITE_KEY}/analytics.min.js`);
    expect(
      run.requests.some((u) => u.startsWith(`${ingestUrl}/analytics-next/bundles/auto-track.bundle.`)),
    ).toBe(true);
    const [click] = receiver.received.filter((h) => h.body.event === 'Clicked Link');
    expect(click.body).toMatchObject({ userId: 'browser-snippet', type: 'track' });
    expect(run.problems).toEqual([]);
  });

  it('(c) the batching delivery strategy, posting to /v1/b', async () => {
    const run = await visit('/batching.html', sixArrived('browser-batching'));
    await expectSixCallsDelivered(run, 'browser-batching');
    expect(trackingPaths(run)).toEqual(['/v1/b']);
    expect(run.problems).toEqual([]);
  });

  it('refuses a page whose origin its source does not allow, and the page can read why', async () => {
    // analytics.js logs the refusal's text; it may do so before this callback runs, so it looks at what was seen.
    const run = await visit('/guarded.html', (_page, seen) =>
      eventually(
        () => seen.problems.some((p) => p.startsWith('console error') && p.includes('allowedOrigins')),
        30_000,
        'the refusal in the console',
      ),
    );
    expect(run.problems).toContain(`${ingestUrl}/v1/projects/${GUARDED_WRITE_KEY}/settings answered 403`);
    expect(run.problems).toContainEqual(
      expect.stringContaining(`pages on ${site.url} may not load this source`),
    );
    expect(trackingPaths(run)).toEqual([]);
    const metrics = await (await fetch(`${ingestUrl}/metrics`)).text();
    expect(metrics).toMatch(/switchyard_ingest_requests_rejected_total\{reason="origin_not_allowed"\} [1-9]/);
  });
});
