import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { ServiceName } from '@switchyard/config';
import { createLogger } from '@switchyard/telemetry';
import { exitOnStartupError } from './bootstrap';
import { governHeapGrowth, HeapGrowth } from './heap-growth';

/** How a service is started: by its own main.ts, or beside others in the all-in-one process (apps/switchyard). */
export interface ServiceEntry<S> {
  readonly name: ServiceName;
  /** Reads and validates the service's settings; throws a ConfigError naming each bad variable. */
  settingsFromEnv(env: NodeJS.ProcessEnv): S;
  /** Starts the service; resolves once it listens. */
  start(settings: S, logger: Logger): Promise<NestFastifyApplication>;
  /**
   * The heap's growth at rest and under load when the service runs in its own process (the
   * all-in-one process sizes one heap for several services with its flags instead). Without it,
   * the process keeps the growth its flags give.
   */
  readonly heapGrowth?: HeapGrowth;
}

/**
 * A service's whole `main`: reads its settings from the environment, starts it, and logs where it
 * listens; a bad setting or a failed start exits 1 with the reason on one line.
 */
export function runService<S>(entry: ServiceEntry<S>): void {
  const logger = createLogger(entry.name, process.env.LOG_LEVEL);
  Promise.resolve()
    .then(() => entry.settingsFromEnv(process.env))
    .then((settings) => entry.start(settings, logger))
    .then((app) => {
      // Started after start-up, whose full collections come close together whatever the load.
      if (entry.heapGrowth) governHeapGrowth(entry.heapGrowth);
      logger.info({ url: app.getHttpServer().address() }, `${entry.name} listening`);
    })
    .catch(exitOnStartupError(logger));
}
