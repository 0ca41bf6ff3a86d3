import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Collected } from './collected';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: Record<string, unknown>;
}

/** An answer: a status, or a status and a body. */
export type WebhookAnswer = number | { status: number; body: string };

/**
 * A real HTTP receiver on 127.0.0.1 and a free port. `respond` decides each answer's status
 * (200 by default) and body, so tests can script failures.
 */
export class WebhookReceiver {
  private readonly collected = new Collected<ReceivedWebhook>();
  private server!: Server;
  respond: (hook: ReceivedWebhook) => WebhookAnswer = () => 200;

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
        const answer = receiver.respond(hook);
        const status = typeof answer === 'number' ? answer : answer.status;
        res.writeHead(status).end(typeof answer === 'number' ? undefined : answer.body);
        if (status >= 200 && status < 300) receiver.collected.add(hook);
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Webhooks answered with a 2xx, in arrival order. */
  get received(): ReceivedWebhook[] {
    return this.collected.items;
  }

  /** Resolves with the accepted webhooks matching `filter` once there are `count` of them. */
  waitFor(
    count: number,
    filter: (h: ReceivedWebhook) => boolean = () => true,
    timeoutMs = 30_000,
  ): Promise<ReceivedWebhook[]> {
    return this.collected.waitFor(count, filter, timeoutMs, 'webhooks');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
