import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { ConfigError, SERVICE_NAMES, ServiceName } from '@switchyard/config';
import type { ServiceEntry } from '@switchyard/service';
import { Readiness } from '@switchyard/telemetry';
import { AllInOneSettings, allInOneSettingsFromEnv, portOf } from './all-in-one-settings';
import { EntryLoader, loadEntry } from './service-entries';

/** A service the process will run, with the environment it reads its settings from. */
export interface PlannedService {
  name: ServiceName;
  env: NodeJS.ProcessEnv;
}

export interface RunningService {
  name: ServiceName;
  app: NestFastifyApplication;
}

/**
 * The services SWITCHYARD_SERVICES chooses, in pipeline order (ingest, router, delivery, console)
 * whatever order it lists them in: each service's environment is the process's, with its own
 * port as PORT and, for the console, its links to ingest and delivery.
 */
export function planServices(env: NodeJS.ProcessEnv): PlannedService[] {
  const settings = allInOneSettingsFromEnv(env);
  return SERVICE_NAMES.filter((name) => settings.services?.includes(name)).map((name) => ({
    name,
    env: { ...env, PORT: String(portOf(settings, name)), ...consoleLinks(name, settings, env) },
  }));
}

/**
 * The console beside ingest or delivery reaches them in this process unless CONSOLE_INGEST_URL or
 * CONSOLE_DELIVERY_URL say otherwise (a public ingest URL behind a load balancer, for instance).
 */
function consoleLinks(name: ServiceName, settings: AllInOneSettings, env: NodeJS.ProcessEnv) {
  if (name !== 'console') return {};
  const inProcess = (service: ServiceName) =>
    settings.services?.includes(service) && portOf(settings, service) !== 0
      ? `http://${loopback(env.HOST)}:${portOf(settings, service)}`
      : undefined;
  return {
    CONSOLE_INGEST_URL: env.CONSOLE_INGEST_URL || inProcess('ingest'),
    CONSOLE_DELIVERY_URL: env.CONSOLE_DELIVERY_URL || inProcess('delivery'),
  };
}

/** The address this process reaches its own listeners at, for the host they bind. */
function loopback(host: string | undefined): string {
  if (host === '::1') return '[::1]';
  return host === 'localhost' ? 'localhost' : '127.0.0.1';
}

/**
 * Starts the planned services one after another, each with a child of `logger` that names it.
 * Every service's settings are read before any starts, so a bad value anywhere stops the process
 * before it listens. Each service is ready only while all are: the process is one unit to its
 * probes. If one fails to start, those already started are closed.
 */
export async function startServices(
  plan: PlannedService[],
  logger: Logger,
  load: EntryLoader = loadEntry,
): Promise<RunningService[]> {
  const entries = await Promise.all(plan.map(({ name }) => load(name)));
  const settings = readAll(plan, entries);
  const running: RunningService[] = [];
  const started = new Map<ServiceName, Readiness>();
  try {
    for (const [i, entry] of entries.entries()) {
      const app = await entry.start(settings[i], logger.child({ service: entry.name }));
      running.push({ name: entry.name, app });
      // Followed as soon as it listens, before the next service starts: a probe of the first
      // service must not say ready while the others are still starting.
      const readiness = app.get(Readiness, { strict: false });
      for (const { name } of plan) if (name !== entry.name) readiness.follow(name, () => started.get(name));
      started.set(entry.name, readiness);
    }
  } catch (error) {
    for (const { app } of running) await app.close();
    throw error;
  }
  return running;
}

/** Every service's settings, or one ConfigError listing every service's problems. */
function readAll(plan: PlannedService[], entries: ServiceEntry<unknown>[]): unknown[] {
  const problems: string[] = [];
  const settings = entries.map((entry, i) => {
    try {
      return entry.settingsFromEnv(plan[i].env);
    } catch (error) {
      problems.push((error as Error).message);
      return undefined;
    }
  });
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return settings;
}
