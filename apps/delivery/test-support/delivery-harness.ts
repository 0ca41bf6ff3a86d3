import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaProducer } from '@switchyard/kafka';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DeliveryJob, deliveryJobId, deliveryKey, newJobHeaders, topicNames } from '@switchyard/contracts';
import { listeningPort } from '@switchyard/service';
import { createLogger } from '@switchyard/telemetry';
import {
  deliveryJobView,
  freshNamespace,
  testKafka,
  TopicReader,
} from '../../../test/support/kafka-test-kit';
import { testServiceEnv } from '../../../test/support/service-env';
import { WorkspaceFile } from '../../../test/support/workspace-file';
import { deliverySettingsFromEnv } from '../src/delivery-settings';
import { startDelivery } from '../src/delivery.app';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  /** When the receiver had the whole request (epoch ms, its own clock). */
  at: number;
}

/** What a receiver does with a request: answer a status, or (`'hang'`) never answer. */
export type ReceiverAnswer =
  number | 'hang' | { status: number; afterMs?: number; headers?: Record<string, string> };

/** A real webhook endpoint on 127.0.0.1:0 that records what it got and answers from `answer`. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    public answer: (request: ReceivedRequest, index: number) => ReceiverAnswer,
  ) {}

  static async start(
    answer: Receiver['answer'] = () => 200,
    tls?: { key: string; cert: string },
  ): Promise<Receiver> {
    const server = tls ? createHttpsServer(tls) : createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new Receiver(server, `${tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`, answer);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res));
    return receiver;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        at: Date.now(),
      };
      this.requests.push(request);
      const answer = this.answer(request, this.requests.length - 1);
      this.waiters.forEach((wake) => wake());
      if (answer === 'hang') {
        this.hanging.add(res);
        return;
      }
      const { status, afterMs = 0, headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
      const send = () => res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok');
      if (afterMs > 0) setTimeout(send, afterMs);
      else send();
    });
  }

  /** Resolves once the receiver has seen `count` requests. */
  async waitForRequests(count: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver expected ${count} requests, saw ${this.requests.length}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
    return this.requests;
  }

  async close(): Promise<void> {
    this.hanging.forEach((res) => res.destroy());
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A self-signed certificate for 127.0.0.1, made with openssl for this test run. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface WebhookDestination {
  id: string;
  /** Default: true. */
  enabled?: boolean;
  sharedSecret?: string;
  webhooks: Array<{ url: string; headers?: Record<string, string> }>;
  rateLimit?: { perSecond: number; burst?: number };
  retry?: { windowMs?: number; scheduleMs?: number[] };
}

/** A workspace configuration file in a fresh temp dir: one source, the given destinations. */
export function writeWorkspace(destinations: WebhookDestination[]): WorkspaceFile {
  return new WorkspaceFile(workspaceConfig(destinations));
}

/** The workspace configuration `writeWorkspace` writes, for a test that rewrites the file. */
export function workspaceConfig(destinations: WebhookDestination[]): object {
  return {
    sources: [{ id: 'src-1', name: 'Test source', writeKey: 'write-key-0001' }],
    destinations: destinations.map(({ id, enabled = true, webhooks, sharedSecret, rateLimit, retry }) => ({
      id,
      type: 'Webhooks',
      enabled,
      sources: ['src-1'],
      settings: { webhooks, sharedSecret, rateLimit, retry },
    })),
  };
}

/**
 * Environment for a delivery service on a fresh namespace with a compressed retry schedule. The
 * window and the request timeout are generous, so a slow machine cannot turn a retry into a
 * dead letter or an answer into a timeout; tests of those bounds set their own.
 */
export function deliveryEnv(
  namespace: string,
  workspacePath: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...testServiceEnv(namespace, workspacePath),
    LOG_LEVEL: 'silent',
    DELIVERY_RETRY_SCHEDULE_MS: '50,100',
    DELIVERY_RETRY_WINDOW_MS: '60000',
    DELIVERY_REQUEST_TIMEOUT_MS: '5000',
    DELIVERY_COMMIT_INTERVAL_MS: '50',
    DELIVERY_SHUTDOWN_GRACE_MS: '2000',
    ...extra,
  };
}

export async function startDeliveryIn(
  env: NodeJS.ProcessEnv,
): Promise<{ app: NestFastifyApplication; baseUrl: string }> {
  const app = await startDelivery(
    deliverySettingsFromEnv(env),
    createLogger('delivery', env.LOG_LEVEL ?? 'silent'),
  );
  return { app, baseUrl: `http://127.0.0.1:${listeningPort(app)}` };
}

export function job(destinationId: string, n = 1, body: Record<string, unknown> = {}): DeliveryJob {
  const messageId = `msg-${n}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    jobId: deliveryJobId(messageId, destinationId),
    destinationId,
    sourceId: 'src-1',
    messageId,
    body: {
      version: 1,
      type: 'track',
      event: 'Order Completed',
      userId: `user-${n}`,
      messageId,
      timestamp: '2025-01-01T00:00:00.000Z',
      properties: { total: 42, note: 'Zoë' },
      ...body,
    },
  };
}

/** Writes jobs to the deliveries topic of `namespace`, as the router does. */
export class JobProducer {
  private constructor(
    private readonly producer: KafkaProducer,
    private readonly topic: string,
  ) {}

  static async connect(namespace: string): Promise<JobProducer> {
    const producer = testKafka().producer();
    await producer.connect();
    return new JobProducer(producer, topicNames(namespace).deliveries);
  }

  send(...jobs: DeliveryJob[]): Promise<void> {
    return this.sendTo(undefined, jobs);
  }

  /** Writes `jobs` to one partition, or where their keys put them when `partition` is undefined. */
  async sendTo(partition: number | undefined, jobs: DeliveryJob[]): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: jobs.map((j) => ({
        key: deliveryKey(j.destinationId, j.sourceId, String(j.body.userId)),
        value: JSON.stringify(j.body),
        headers: newJobHeaders(j),
        partition,
      })),
    });
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}

/**
 * What a test sets up, taken down after it, newest first. Make one per spec file (or describe):
 * it registers its own afterEach.
 */
export class TestCleanups {
  private readonly steps: Array<() => unknown> = [];

  constructor() {
    afterEach(async () => {
      for (const step of this.steps.splice(0).reverse()) await step();
    });
  }

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  /** A receiver answering its `index`th request from `answer`, closed after the test. */
  async receiver(
    answer: (index: number) => ReceiverAnswer,
    tls?: { key: string; cert: string },
  ): Promise<Receiver> {
    const receiver = await Receiver.start((_request, index) => answer(index), tls);
    this.add(() => receiver.close());
    return receiver;
  }

  /** A workspace file holding `destinations`, removed after the test. */
  workspace(destinations: WebhookDestination[]): WorkspaceFile {
    const workspace = writeWorkspace(destinations);
    this.add(workspace.remove);
    return workspace;
  }
}

/** One delivery service in this process on a fresh namespace, a job producer, and readers of its first two retry topics and its dead-letter topic. */
export interface DeliveryWorld {
  app: NestFastifyApplication;
  baseUrl: string;
  workspace: WorkspaceFile;
  producer: JobProducer;
  dead: TopicReader<DeliveryJob>;
  retries: TopicReader<DeliveryJob>;
}

/** Starts a DeliveryWorld for `destinations` (`deliveryEnv` plus `env`); all of it stops after the test. */
export async function startDeliveryWorld(
  cleanups: TestCleanups,
  label: string,
  destinations: WebhookDestination[],
  env: Record<string, string> = {},
): Promise<DeliveryWorld> {
  const namespace = freshNamespace(label);
  const workspace = cleanups.workspace(destinations);
  const { app, baseUrl } = await startDeliveryIn(deliveryEnv(namespace, workspace.path, env));
  cleanups.add(() => app.close());
  const topics = topicNames(namespace);
  const producer = await JobProducer.connect(namespace);
  cleanups.add(() => producer.close());
  const dead = await TopicReader.start([topics.deliveriesDead], deliveryJobView);
  cleanups.add(() => dead.stop());
  const retries = await TopicReader.start([topics.retry(1), topics.retry(2)], deliveryJobView);
  cleanups.add(() => retries.stop());
  return { app, baseUrl, workspace, producer, dead, retries };
}
