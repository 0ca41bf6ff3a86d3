/**
 * An OTLP/HTTP trace collector on 127.0.0.1 for benchmarks, in a worker thread of the bench: the
 * bench's own thread sends the load and timestamps the webhooks its receiver gets, and decoding
 * thousands of spans a second there would delay both (and be counted as the pipeline's latency).
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { OtlpReceiver, ReceivedSpan } from '../test/support/otlp-receiver';

/** What the latency breakdown reads of a span; the rest stays in the worker. */
export type TimedSpan = Pick<
  ReceivedSpan,
  'service' | 'name' | 'kind' | 'spanId' | 'parentSpanId' | 'links' | 'startMs' | 'endMs'
>;

type Request = { id: number; kind: 'take' | 'stop' };
type Reply = { id: number; spans?: TimedSpan[]; endpoint?: string };

export class TraceCollector {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly endpoint: string,
  ) {
    worker.on('message', (reply: Reply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  static async start(): Promise<TraceCollector> {
    // The worker loads this file through the same TypeScript hook the bench runs under.
    const worker = new Worker(
      `require('@swc-node/register'); require(${JSON.stringify(__filename)}).serveInWorker();`,
      { eval: true },
    );
    const endpoint = await new Promise<string>((resolve, reject) => {
      worker.once('message', (reply: Reply) => resolve(reply.endpoint ?? ''));
      worker.once('error', reject);
    });
    return new TraceCollector(worker, endpoint);
  }

  /** The spans received since the last call. */
  async take(): Promise<TimedSpan[]> {
    return (await this.ask('take')).spans ?? [];
  }

  async stop(): Promise<void> {
    await this.ask('stop');
    await this.worker.terminate();
  }

  private ask(kind: Request['kind']): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, kind } satisfies Request);
    });
  }
}

/** The worker's side: a receiver, and its spans handed over (trimmed) on each `take`. */
export async function serveInWorker(): Promise<void> {
  if (isMainThread || !parentPort) throw new Error('serveInWorker runs in a worker thread');
  const port = parentPort;
  const receiver = await OtlpReceiver.start();
  port.postMessage({ id: 0, endpoint: receiver.endpoint } satisfies Reply);
  port.on('message', async ({ id, kind }: Request) => {
    if (kind === 'stop') {
      await receiver.stop();
      return port.postMessage({ id } satisfies Reply);
    }
    const spans = receiver.spans
      .splice(0)
      .map(({ service, name, kind: spanKind, spanId, parentSpanId, links, startMs, endMs }) => ({
        service,
        name,
        kind: spanKind,
        spanId,
        parentSpanId,
        links,
        startMs,
        endMs,
      }));
    port.postMessage({ id, spans } satisfies Reply);
  });
}
