import { once } from 'node:events';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  body: { batch: Array<Record<string, unknown>>; sentAt?: string };
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A stand-in for ingest on 127.0.0.1 and a free port: records every request and answers with
 * the scripted responses in turn, then 200. Tests await messages instead of sleeping.
 */
export class BatchReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly script: ScriptedResponse[] = [];
  private waiters: Array<() => void> = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<BatchReceiver> {
    const server = createServer();
    const receiver = new BatchReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        receiver.requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          bytes: raw.length,
          body: JSON.parse(raw.toString('utf8')),
        });
        const reply = receiver.script.shift() ?? { status: 200, body: '{"success":true}' };
        res
          .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
          .end(reply.body ?? '{}');
        receiver.waiters.splice(0).forEach((wake) => wake());
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers the next requests with these, in order. */
  respondWith(...responses: ScriptedResponse[]): void {
    this.script.push(...responses);
  }

  get messages(): Array<Record<string, unknown>> {
    return this.requests.flatMap((r) => r.body.batch);
  }

  /** Resolves once `count` messages have arrived, or rejects after `timeoutMs`. */
  async waitForMessages(count: number, timeoutMs = 5000): Promise<Array<Record<string, unknown>>> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} messages, received ${this.messages.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
