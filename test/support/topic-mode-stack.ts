import { eventually } from './kafka-test-kit';
import { ManagementApi } from './management-api';
import { scrape } from './prometheus-text';
import { freePort, ServiceProcess } from './service-process';

type StackService = 'console' | 'ingest' | 'router' | 'delivery';

/** Starts one service process: from source by default; a benchmark passes its compiled launcher. */
export type ServiceLauncher = (
  name: StackService,
  env: NodeJS.ProcessEnv,
  port: number,
) => Promise<ServiceProcess>;

/** The workspace topic offset a service has applied up to, from its /metrics; -1 before any record. */
export async function appliedWorkspaceOffset(baseUrl: string): Promise<number> {
  const live = (await scrape(baseUrl)).find((s) => s.name === 'switchyard_workspace_config_info');
  const offset = /^offset-(\d+)$/.exec(live?.labels.version ?? '')?.[1];
  return offset === undefined ? -1 : Number(offset);
}

/**
 * The whole system following the workspace topic, set up only through the console's management
 * API: the console, `replicas` ingest processes, one router and `replicas` delivery processes.
 */
export class TopicModeStack {
  private constructor(
    readonly console: ServiceProcess,
    readonly ingests: ServiceProcess[],
    readonly router: ServiceProcess,
    readonly deliveries: ServiceProcess[],
  ) {}

  /** One process after the other, all with `env` (topicModeEnv), each by `launch`; if one fails, the others stop. */
  static async start(
    env: NodeJS.ProcessEnv,
    replicas = 2,
    launch: ServiceLauncher = (name, serviceEnv, port) => ServiceProcess.start(name, port, serviceEnv),
  ): Promise<TopicModeStack> {
    const started: ServiceProcess[] = [];
    const start = async (name: StackService) => {
      const service = await launch(name, env, await freePort());
      started.push(service);
      return service;
    };
    const several = async (name: 'ingest' | 'delivery') => {
      const services: ServiceProcess[] = [];
      for (let i = 0; i < replicas; i++) services.push(await start(name));
      return services;
    };
    try {
      const consoleService = await start('console');
      const ingests = await several('ingest');
      const router = await start('router');
      return new TopicModeStack(consoleService, ingests, router, await several('delivery'));
    } catch (error) {
      await Promise.all(started.map((s) => s.stop()));
      throw error;
    }
  }

  /** A client of this stack's management API. */
  api(): ManagementApi {
    return new ManagementApi(this.console.url);
  }

  /** The processes that follow the workspace the console writes. */
  get followers(): ServiceProcess[] {
    return [...this.ingests, this.router, ...this.deliveries];
  }

  /**
   * Resolves once every follower has applied the workspace the console holds now: call it after
   * a change the API accepted, and what the test sends next meets the new setting everywhere.
   */
  async changeApplied(): Promise<void> {
    const written = await appliedWorkspaceOffset(this.console.url);
    await eventually(
      async () => {
        const offsets = await Promise.all(this.followers.map((s) => appliedWorkspaceOffset(s.url)));
        return offsets.every((offset) => offset >= written);
      },
      30_000,
      `every instance applying the workspace up to offset ${written}`,
    );
  }

  async stop(): Promise<void> {
    await Promise.all([this.console, ...this.followers].map((s) => s.stop()));
  }
}
