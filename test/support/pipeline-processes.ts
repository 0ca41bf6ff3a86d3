import { freshNamespace, testBrokers } from './kafka-test-kit';
import { freePort, ServiceProcess } from './service-process';
import { WebhookReceiver } from './webhook-receiver';
import { simpleWorkspace, WorkspaceFile } from './workspace-file';

export const SERVICES = ['ingest', 'router', 'delivery'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** How the services run: each its own process (as on Kubernetes), or all in one (SWITCHYARD_SERVICES). */
export type PipelineMode = 'split' | 'all-in-one';
export const PIPELINE_MODES: PipelineMode[] = ['split', 'all-in-one'];

/**
 * ingest, router and delivery on free ports, all with `env`: their own processes, or one
 * all-in-one process seen at each service's port. Stopping or restarting one service is for the
 * split mode only.
 */
export class PipelineProcesses {
  private constructor(
    readonly services: Record<ServiceName, ServiceProcess>,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static start(env: NodeJS.ProcessEnv, mode: PipelineMode = 'split'): Promise<PipelineProcesses> {
    return mode === 'split' ? PipelineProcesses.startSplit(env) : PipelineProcesses.startAllInOne(env);
  }

  /** One process, SWITCHYARD_SERVICES=ingest,router,delivery, each service on its own free port; resolves once it is ready. */
  private static async startAllInOne(env: NodeJS.ProcessEnv): Promise<PipelineProcesses> {
    const pipeline = await PipelineProcesses.launchAllInOne(env);
    // Any port of the one process is ready only once all its services are.
    await pipeline.ingest.ready();
    return pipeline;
  }

  /** The same one process, without waiting for it to be ready (it may be waiting for Kafka). */
  static async launchAllInOne(env: NodeJS.ProcessEnv): Promise<PipelineProcesses> {
    const ports = { ingest: await freePort(), router: await freePort(), delivery: await freePort() };
    return new PipelineProcesses(PipelineProcesses.launchOneProcess(env, ports), env);
  }

  private static launchOneProcess(
    env: NodeJS.ProcessEnv,
    ports: Record<ServiceName, number>,
  ): Record<ServiceName, ServiceProcess> {
    const one = ServiceProcess.launch('switchyard', ports.ingest, {
      ...env,
      SWITCHYARD_SERVICES: SERVICES.join(','),
      INGEST_PORT: String(ports.ingest),
      ROUTER_PORT: String(ports.router),
      DELIVERY_PORT: String(ports.delivery),
    });
    return {
      ingest: one.at('ingest', ports.ingest),
      router: one.at('router', ports.router),
      delivery: one.at('delivery', ports.delivery),
    };
  }

  /**
   * The all-in-one mode's restart: stops the one process with `signal` and starts it again on the
   * same ports with the same environment, as a container is restarted; resolves with the exit code
   * (or signal name) once it is ready again.
   */
  async restartOneProcess(signal: NodeJS.Signals): Promise<number | string> {
    const one = this.services.ingest;
    if (SERVICES.some((name) => this.services[name].child !== one.child))
      throw new Error(
        'restartOneProcess is for the all-in-one mode: these services run in their own processes',
      );
    const exit = await one.stop(signal);
    const ports = {
      ingest: one.port,
      router: this.services.router.port,
      delivery: this.services.delivery.port,
    };
    Object.assign(this.services, PipelineProcesses.launchOneProcess(this.env, ports));
    await this.ingest.ready();
    return exit;
  }

  /** One after the other: each creates the topics it needs before the next consumes them. If one fails, the others stop. */
  private static async startSplit(env: NodeJS.ProcessEnv): Promise<PipelineProcesses> {
    const started: ServiceProcess[] = [];
    try {
      for (const name of SERVICES) started.push(await ServiceProcess.start(name, await freePort(), env));
    } catch (error) {
      await Promise.all(started.map((s) => s.stop()));
      throw error;
    }
    return new PipelineProcesses({ ingest: started[0], router: started[1], delivery: started[2] }, env);
  }

  get ingest(): ServiceProcess {
    return this.services.ingest;
  }

  /** Stops one service with `signal`; resolves with its exit code (or signal name). */
  stopOne(name: ServiceName, signal: NodeJS.Signals): Promise<number | string> {
    return this.services[name].stop(signal);
  }

  /** Starts a stopped service again on its port with the same environment, as Kubernetes restarts a pod; resolves once it is ready. */
  async startAgain(name: ServiceName): Promise<void> {
    this.services[name] = await ServiceProcess.start(name, this.services[name].port, this.env);
  }

  /** Stops a service and starts it again on its port without waiting for it to be ready: a pod rolled while Kafka is away. */
  async restartUnready(name: ServiceName): Promise<void> {
    await this.services[name].stop();
    this.services[name] = ServiceProcess.launch(name, this.services[name].port, this.env);
  }

  /**
   * Each service's answer to a health path, e.g. `{ ingest: 200, router: 503, delivery: 200 }`; 0
   * for a port that does not answer within `timeoutMs` (not listening yet, or restarting).
   */
  async health(path: 'live' | 'ready', timeoutMs = 5_000): Promise<Record<ServiceName, number>> {
    const statuses = await Promise.all(
      SERVICES.map((name) =>
        fetch(`${this.services[name].url}/health/${path}`, { signal: AbortSignal.timeout(timeoutMs) })
          .then((response) => response.status)
          .catch(() => 0),
      ),
    );
    return { ingest: statuses[0], router: statuses[1], delivery: statuses[2] };
  }

  /** Exit codes of services that exited: none should, in a suite that only kills brokers. */
  exited(): Partial<Record<ServiceName, number | string>> {
    const gone: Partial<Record<ServiceName, number | string>> = {};
    for (const name of SERVICES) {
      const { exitCode, signalCode } = this.services[name].child;
      if (exitCode !== null || signalCode !== null) gone[name] = exitCode ?? signalCode ?? '';
    }
    return gone;
  }

  /** The last lines each service printed: for a failure's report. */
  tails(lines = 40): string {
    return SERVICES.map((name) => `--- ${name}\n${this.services[name].tail(lines)}`).join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all(SERVICES.map((name) => this.services[name].stop()));
  }
}

/** The services and the receiver they deliver to; `stop` stops both and removes the workspace file. */
export interface RunningPipeline {
  receiver: WebhookReceiver;
  processes: PipelineProcesses;
  stop(): Promise<void>;
}

export interface PipelineSource {
  writeKey: string;
  allowedOrigins?: string[];
}

/**
 * The whole system as a user runs it: ingest, router and delivery, each its own process, on a
 * fresh namespace, delivering the sources' calls (signed with `sharedSecret`) to a real receiver.
 */
export async function startPipeline(
  label: string,
  sharedSecret: string,
  sources: PipelineSource[],
): Promise<RunningPipeline> {
  const receiver = await WebhookReceiver.start();
  const ids = sources.map((_, i) => `source-${i}`);
  const workspace = new WorkspaceFile({
    sources: sources.map((source, i) => ({ id: ids[i], name: ids[i], ...source })),
    destinations: [
      {
        id: 'hooks',
        type: 'Webhooks',
        enabled: true,
        sources: ids,
        settings: { sharedSecret, webhooks: [{ url: receiver.url('/hooks') }] },
      },
    ],
  });
  return startWithWorkspace(receiver, workspace, label, { DELIVERY_RETRY_SCHEDULE_MS: '100,200' });
}

/** The services routing the test source to one receiver; `env` adds to or overrides their settings. */
export async function startReceiverPipeline(
  label: string,
  env: NodeJS.ProcessEnv = {},
  mode: PipelineMode = 'split',
): Promise<RunningPipeline> {
  const receiver = await WebhookReceiver.start();
  const workspace = new WorkspaceFile(simpleWorkspace([receiver.url()]));
  return startWithWorkspace(receiver, workspace, label, env, mode);
}

/**
 * The services on a fresh namespace of the test broker, two partitions a topic, routing by
 * `workspace`; if they do not start, the receiver is stopped and the file removed.
 */
async function startWithWorkspace(
  receiver: WebhookReceiver,
  workspace: WorkspaceFile,
  label: string,
  env: NodeJS.ProcessEnv,
  mode: PipelineMode = 'split',
): Promise<RunningPipeline> {
  const cleanUp = async () => {
    await receiver.stop();
    workspace.remove();
  };
  let processes: PipelineProcesses;
  try {
    processes = await PipelineProcesses.start(
      {
        KAFKA_BROKERS: testBrokers(),
        TOPIC_NAMESPACE: freshNamespace(label),
        TOPIC_PARTITIONS: '2',
        WORKSPACE_CONFIG: workspace.path,
        ...env,
      },
      mode,
    );
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return { receiver, processes, stop: async () => (await processes.stop(), await cleanUp()) };
}
