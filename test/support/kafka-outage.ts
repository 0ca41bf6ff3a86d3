import { freshNamespace, eventually } from './kafka-test-kit';
import { LocalKafka } from './local-kafka';
import { PipelineProcesses, SERVICES, ServiceName } from './pipeline-processes';
import { trackCall } from './track-load';
import { WebhookReceiver } from './webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from './workspace-file';

/** One call of the steady load, with when it was sent. */
export interface TimedCall {
  messageId: string;
  sentAt: number;
  status: number | 'no answer';
  answeredAt: number;
}

/** Each service's `/health/ready` status at one moment (0: no answer, e.g. while restarting). */
export type ReadinessSample = { at: number } & Record<ServiceName, number>;

/** When things happened, in epoch milliseconds. */
export interface OutageTimeline {
  killedAt: number;
  allUnreadyAt: number;
  /** A service restarted while the broker was away: when it was stopped. */
  serviceRestartedAt?: number;
  brokerStartedAt: number;
  /** The broker's start command returned: it answers requests. */
  brokerReadyAt: number;
  /** The first call sent after the broker's start that ingest acknowledged. */
  firstAcceptedAt: number;
  /** The first webhook delivered after the broker's start. */
  firstDeliveredAt: number;
  readyAgainAt: Record<ServiceName, number>;
}

export interface OutageRun {
  timeline: OutageTimeline;
  calls: TimedCall[];
  readiness: ReadinessSample[];
  /** Acknowledged calls whose event never reached the receiver. */
  missingAmongAcknowledged: string[];
  /** Services that exited by themselves, with their exit code. */
  exited: Partial<Record<ServiceName, number | string>>;
  /** Each service's log lines at info and above (of the process running at the end). */
  logs: Record<ServiceName, LogLine[]>;
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The JSON log lines of a process's output; anything else it printed is left out. */
function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as LogLine;
      return typeof parsed.msg === 'string' ? [parsed] : [];
    } catch {
      return [];
    }
  });
}

export interface OutageOptions {
  /**
   * How long the broker process stays down: long enough for every client's backoff to have grown.
   * Clients find no broker for longer: a lone broker started again after a SIGKILL answers only once
   * the session its killed self held has expired, at least 30 s after its start
   * (BROKER_SESSION_TIMEOUT_MS in scripts/kafka/lib.sh).
   */
  downMs: number;
  /** A service stopped and started again while the broker is away, as a rolled pod would be. */
  restartWhileDown?: ServiceName;
  /** Called as soon as the broker is killed, with its address, which it keeps when it comes back. */
  whenBrokerKilled?: (brokers: string) => Promise<void>;
  label: string;
}

const SENDERS = 4;
const PAUSE_MS = 50;
const READINESS_EVERY_MS = 200;

/** `next` milliseconds from now, resolved by a timer (the scenario's schedule, not a wait for an event). */
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function readiness(pipeline: PipelineProcesses): Promise<ReadinessSample> {
  const statuses = await pipeline.health('ready', 1_000);
  return { at: Date.now(), ...statuses };
}

/**
 * The only broker of a pipeline under steady load is SIGKILLed, kept down for `downMs` (a service
 * restarted meanwhile if asked), and started again; every call, every readiness answer and every
 * webhook's arrival is recorded with its time. Shared by test/e2e/kafka-outage.spec.ts, which
 * asserts the order of events, and bench/kafka-outage.ts, which prints the recovery times. The
 * broker is the run's own (scripts/kafka/kafka.sh cluster on free ports), never the shared one.
 */
export class KafkaOutage {
  private broker: LocalKafka | undefined;
  private pipeline: PipelineProcesses | undefined;
  private receiver: WebhookReceiver | undefined;
  private workspace: WorkspaceFile | undefined;
  private loading = false;
  private readonly calls: TimedCall[] = [];
  private readonly samples: ReadinessSample[] = [];
  private readonly arrivals = new Map<string, number>();

  constructor(private readonly options: OutageOptions) {}

  async run(): Promise<OutageRun> {
    const receiver = (this.receiver = await WebhookReceiver.start());
    receiver.respond = (hook) => {
      const id = String(hook.body.messageId);
      if (!this.arrivals.has(id)) this.arrivals.set(id, Date.now());
      return 200;
    };
    this.workspace = new WorkspaceFile(simpleWorkspace([receiver.url()]));
    const broker = (this.broker = await LocalKafka.cluster(1));
    const pipeline = (this.pipeline = await PipelineProcesses.start({
      KAFKA_BROKERS: broker.brokers,
      TOPIC_NAMESPACE: freshNamespace(this.options.label),
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: this.workspace.path,
      // Short, so calls during the outage are answered 503 soon; long enough that a returned broker,
      // slow on a loaded machine, acknowledges the first calls ingest takes once it is ready again.
      INGEST_PRODUCE_TIMEOUT_MS: '8000',
      // What an operator sees at the default level: the outage and the recovery are told there.
      LOG_LEVEL: 'info',
    }));
    // A fresh broker's first write (connections, metadata, leaders) can outlast the produce timeout.
    await eventually(
      async () =>
        (await trackCall(pipeline.ingest.url, TEST_WRITE_KEY, `${this.options.label}-warm-up`)).status ===
        200,
      60_000,
      'ingest writing to the fresh broker',
    );

    this.loading = true;
    const load = Promise.all(Array.from({ length: SENDERS }, (_, i) => this.send(i)));
    const watching = this.watchReadiness();
    try {
      await after(2_000);
      await broker.kill(1);
      const killedAt = Date.now();
      await this.options.whenBrokerKilled?.(broker.brokers);
      const allUnready = await eventually(
        () => this.samples.find((s) => s.at > killedAt && SERVICES.every((n) => s[n] !== 200)),
        30_000,
        'every service unready',
      );
      let serviceRestartedAt: number | undefined;
      if (this.options.restartWhileDown) {
        await after(this.options.downMs / 3);
        serviceRestartedAt = Date.now();
        await pipeline.restartUnready(this.options.restartWhileDown);
      }
      await after(killedAt + this.options.downMs - Date.now());
      const brokerStartedAt = Date.now();
      await broker.restart();
      const brokerReadyAt = Date.now();

      const firstAccepted = await eventually(
        () => this.calls.find((c) => c.sentAt > brokerStartedAt && c.status === 200),
        120_000,
        'a call acknowledged after the broker’s return',
      );
      const firstDeliveredAt = await eventually(
        () => [...this.arrivals.values()].find((at) => at > brokerStartedAt),
        120_000,
        'a webhook delivered after the broker’s return',
      );
      const readyAgain = await eventually(
        () => this.readyAgain(brokerStartedAt),
        120_000,
        'every service ready again',
      );
      // A little load after the recovery, then everything acknowledged must arrive.
      await after(2_000);
      this.loading = false;
      await load;
      await eventually(
        () => this.missing().length === 0,
        120_000,
        'every acknowledged event delivered',
      ).catch(() => undefined);
      return {
        timeline: {
          killedAt,
          allUnreadyAt: allUnready.at,
          serviceRestartedAt,
          brokerStartedAt,
          brokerReadyAt,
          firstAcceptedAt: firstAccepted.answeredAt,
          firstDeliveredAt,
          readyAgainAt: readyAgain,
        },
        calls: this.calls,
        readiness: this.samples,
        missingAmongAcknowledged: this.missing(),
        exited: pipeline.exited(),
        logs: {
          ingest: logLines(pipeline.services.ingest.tail(Infinity)),
          router: logLines(pipeline.services.router.tail(Infinity)),
          delivery: logLines(pipeline.services.delivery.tail(Infinity)),
        },
      };
    } finally {
      this.loading = false;
      await load;
      await watching.stop();
    }
  }

  /** The last lines each service printed, for a failure's report. */
  tails(): string {
    return this.pipeline?.tails() ?? '';
  }

  async stop(): Promise<void> {
    this.loading = false;
    await this.pipeline?.stop();
    await this.broker?.stop();
    await this.receiver?.stop();
    this.workspace?.remove();
  }

  private async send(sender: number): Promise<void> {
    for (let i = 0; this.loading; i++) {
      const messageId = `${this.options.label}-${sender}-${i}`;
      const sentAt = Date.now();
      const outcome = await trackCall(
        this.pipeline!.ingest.url,
        TEST_WRITE_KEY,
        messageId,
        `user-${i % 10}`,
        5_000,
      );
      this.calls.push({ ...outcome, sentAt });
      await after(PAUSE_MS);
    }
  }

  private watchReadiness(): { stop: () => Promise<void> } {
    let watching = true;
    const done = (async () => {
      while (watching) {
        this.samples.push(await readiness(this.pipeline!));
        await after(READINESS_EVERY_MS);
      }
    })();
    return { stop: async () => ((watching = false), await done) };
  }

  /** When each service was first seen ready after `since`, once all have been. */
  private readyAgain(since: number): Record<ServiceName, number> | undefined {
    const at = (name: ServiceName) => this.samples.find((s) => s.at > since && s[name] === 200)?.at;
    const times = SERVICES.map(at);
    if (times.some((t) => t === undefined)) return undefined;
    return { ingest: times[0]!, router: times[1]!, delivery: times[2]! };
  }

  private missing(): string[] {
    return this.calls
      .filter((c) => c.status === 200 && !this.arrivals.has(c.messageId))
      .map((c) => c.messageId);
  }
}

/** The run's moments relative to the broker answering again, in seconds, for the test's log and the bench's report. */
export function describeTimeline(t: OutageTimeline): Record<string, string> {
  const rel = (at: number | undefined) =>
    at === undefined ? '-' : `${((at - t.brokerReadyAt) / 1000).toFixed(1)} s`;
  return {
    'broker killed': rel(t.killedAt),
    'every service unready': rel(t.allUnreadyAt),
    'service restarted': rel(t.serviceRestartedAt),
    'broker started': rel(t.brokerStartedAt),
    'broker answering (kafka.sh start returned)': rel(t.brokerReadyAt),
    'first call acknowledged': rel(t.firstAcceptedAt),
    'first webhook delivered': rel(t.firstDeliveredAt),
    'ingest ready': rel(t.readyAgainAt.ingest),
    'router ready': rel(t.readyAgainAt.router),
    'delivery ready': rel(t.readyAgainAt.delivery),
  };
}
