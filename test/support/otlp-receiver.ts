import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: Record<string, unknown> }> };
    scopeSpans?: Array<{ spans?: Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string; attributes?: Array<{ key: string; value: Record<string, unknown> }> }> }>;
  }>;
}

const flat = (attrs: Array<{ key: string; value: Record<string, unknown> }> = []) =>
  Object.fromEntries(attrs.map((a) => [a.key, Object.values(a.value)[0]]));

/** An OTLP/HTTP (JSON) trace receiver on 127.0.0.1: what a collector would get from the services. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server!: Server;

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          receiver.add(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private add(body: OtlpJson): void {
    for (const rs of body.resourceSpans ?? []) {
      const service = String(flat(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({ service, name: s.name, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', attributes: flat(s.attributes) });
        }
      }
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
