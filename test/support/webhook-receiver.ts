import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: Record<string, unknown>;
}

/**
 * A real HTTP receiver on 127.0.0.1 and a free port. `respond` decides each answer's status
 * (200 by default), so tests can script failures.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly waiters: Array<() => void> = [];
  private server!: Server;
  respond: (hook: ReceivedWebhook) => number = () => 200;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          // kept raw: a test may be checking exactly that
        }
        const hook = { path: req.url ?? '', headers: req.headers, raw, body };
        const status = receiver.respond(hook);
        if (status >= 200 && status < 300) receiver.received.push(hook);
        res.writeHead(status).end();
        receiver.waiters.splice(0).forEach((wake) => wake());
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Resolves with the accepted webhooks matching `filter` once there are `count` of them. */
  async waitFor(count: number, filter: (h: ReceivedWebhook) => boolean = () => true, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.received.filter(filter);
      if (matching.length >= count) return matching;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} webhooks, received ${matching.length} after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
