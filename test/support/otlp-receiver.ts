import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadSync, Type } from 'protobufjs';

/** Span kinds and status codes as OTLP numbers them. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

export interface ReceivedSpan {
  service: string;
  resource: Record<string, unknown>;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  links: Array<{ traceId: string; spanId: string }>;
  /** Start and end, in milliseconds since the epoch (what the benchmarks' latency breakdown reads). */
  startMs: number;
  endMs: number;
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };
type Id = string | Uint8Array | undefined;
/** A timestamp: decimal text in JSON, a number once protobuf's fixed64 is decoded. */
type Nanos = string | number;
/** ExportTraceServiceRequest in either encoding, once decoded (protobuf ids are bytes, JSON ids hex). */
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        kind?: number;
        traceId: Id;
        spanId: Id;
        parentSpanId?: Id;
        startTimeUnixNano?: Nanos;
        endTimeUnixNano?: Nanos;
        attributes?: KeyValue[];
        status?: { code?: number; message?: string };
        links?: Array<{ traceId: Id; spanId: Id }>;
      }>;
    }>;
  }>;
}

const exportRequest: Type = loadSync(join(__dirname, 'otlp', 'trace.proto')).lookupType(
  'opentelemetry.proto.ExportTraceServiceRequest',
);

function decode(contentType: string, body: Buffer): ExportRequest {
  if (contentType.startsWith('application/x-protobuf')) {
    return exportRequest.toObject(exportRequest.decode(body), {
      longs: Number,
      enums: Number,
    }) as ExportRequest;
  }
  if (contentType.startsWith('application/json')) return JSON.parse(body.toString('utf8')) as ExportRequest;
  throw new Error(`unexpected content type ${contentType}`);
}

const hex = (id: Id) =>
  id === undefined ? '' : typeof id === 'string' ? id : Buffer.from(id).toString('hex');

function value(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  if (v.intValue !== undefined) return Number(v.intValue);
  return v.stringValue ?? v.boolValue ?? v.doubleValue;
}

/** Nanoseconds to milliseconds; through BigInt for JSON's text, which a double would round. */
const millis = (nanos: Nanos | undefined) =>
  nanos === undefined
    ? Number.NaN
    : typeof nanos === 'string'
      ? Number(BigInt(nanos) / 1000n) / 1000
      : nanos / 1e6;

const flat = (attributes: KeyValue[] = []) =>
  Object.fromEntries(attributes.map((a) => [a.key, value(a.value)]));

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it decodes protobuf (the
 * SDK's default, with OTLP's own message definitions) and JSON, and remembers which it got.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly contentTypes = new Set<string>();
  private server!: Server;

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const contentType = req.headers['content-type'] ?? '';
        try {
          receiver.add(decode(contentType, Buffer.concat(chunks)));
          receiver.contentTypes.add(contentType);
          // An empty ExportTraceServiceResponse in the request's own encoding.
          res
            .writeHead(200, { 'content-type': contentType })
            .end(contentType.startsWith('application/json') ? '{}' : '');
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

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  private add(body: ExportRequest): void {
    for (const rs of body.resourceSpans ?? []) {
      const resource = flat(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service: String(resource['service.name'] ?? ''),
            resource,
            name: s.name,
            kind: s.kind ?? 0,
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId),
            attributes: flat(s.attributes),
            status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
            links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
            startMs: millis(s.startTimeUnixNano),
            endMs: millis(s.endTimeUnixNano),
          });
        }
      }
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
