/**
 * Propagation of a workspace change: from the management API's 200 to the first webhook
 * delivered under the new setting. The console, two ingest processes, the router and two
 * delivery processes (compiled) follow the workspace topic; calls go to both ingests all along,
 * and each change points the destination at a new URL path. Prints p50, p99 and the slowest.
 * A figure below zero is a change that was live on a delivery process before the console
 * answered: the console answers once its own copy of the workspace holds the change.
 *
 *   npm run bench:propagation -- [--changes 30] [--rate 100]
 * --rate is calls per second, split over the two ingests.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { topicModeEnv } from '../test/support/management-api';
import { TopicModeStack } from '../test/support/topic-mode-stack';
import { trackCall } from '../test/support/track-load';
import { fmt, numberArg, percentile, startService } from './bench-kit';

const changes = numberArg('changes', 30);
const rate = numberArg('rate', 100);
const writeKey = 'propagation-write-key';

/** A receiver that notes when each path first received a webhook. */
async function startReceiver() {
  const firstArrival = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const server = createServer((req, res) => {
    const at = performance.now();
    const path = req.url ?? '';
    if (!firstArrival.has(path)) {
      firstArrival.set(path, at);
      waiting.get(path)?.(at);
    }
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** Resolves with the time the first webhook reached `path`. */
    arrival: (path: string) =>
      new Promise<number>((resolve) => {
        const seen = firstArrival.get(path);
        if (seen !== undefined) resolve(seen);
        else waiting.set(path, resolve);
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Sends `rate` track calls a second, alternating between the ingests, until `stop` is called. */
function sendContinuously(ingestUrls: string[]) {
  let sent = 0;
  let refused = 0;
  let sentBefore = 0;
  let refusedBefore = 0;
  const timer = setInterval(() => {
    const url = ingestUrls[sent % ingestUrls.length];
    sent++;
    void trackCall(url, writeKey, `propagation-${randomUUID()}`, `user-${sent % 100}`).then((o) => {
      if (o.status !== 200) refused++;
    });
  }, 1000 / rate);
  return {
    stop: () => clearInterval(timer),
    /** Counts from here on: before the source reached both ingests, calls were refused. */
    mark: () => ([sentBefore, refusedBefore] = [sent, refused]),
    counts: () => ({ sent: sent - sentBefore, refused: refused - refusedBefore }),
  };
}

async function main(): Promise<void> {
  const receiver = await startReceiver();
  const stack = await TopicModeStack.start(topicModeEnv('bench-propagation'), 2, startService);
  const api = stack.api();
  const load = sendContinuously(stack.ingests.map((s) => s.url));
  try {
    const created = [
      await api.request('POST', '/sources', { body: { id: 'web', name: 'Web', writeKey } }),
      await api.request('POST', '/destinations', {
        body: {
          id: 'hooks',
          type: 'Webhooks',
          enabled: true,
          sources: ['web'],
          settings: { webhooks: [{ url: receiver.url('/setting-0') }] },
        },
      }),
    ];
    if (created.some((c) => c.status !== 201)) throw new Error('could not set up the workspace');
    let etag = created[1].etag!;
    await receiver.arrival('/setting-0');
    load.mark();

    const propagationMs: number[] = [];
    for (let i = 1; i <= changes; i++) {
      const path = `/setting-${i}`;
      const answer = await api.request('PATCH', '/destinations/hooks', {
        body: { settings: { webhooks: [{ url: receiver.url(path) }] } },
        ifMatch: etag,
      });
      const acceptedAt = performance.now();
      if (answer.status !== 200) throw new Error(`change ${i} answered ${answer.status}`);
      etag = answer.etag!;
      propagationMs.push((await receiver.arrival(path)) - acceptedAt);
    }

    const sorted = [...propagationMs].sort((a, b) => a - b);
    const { sent, refused } = load.counts();
    console.log(
      `workspace propagation, API 200 → first webhook under the new URL, ${changes} changes, ` +
        `2 ingest + 2 delivery processes, ${rate} calls/s (${sent} sent, ${refused} not answered 200):`,
    );
    console.log(
      `p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms, ` +
        `slowest ${fmt(sorted[sorted.length - 1])} ms, fastest ${fmt(sorted[0])} ms`,
    );
  } finally {
    load.stop();
    await stack.stop();
    await receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
