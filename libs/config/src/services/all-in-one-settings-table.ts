import { SERVICE_NAMES, ServiceName } from '../all-settings';
import { integer } from '../setting-kinds';
import type { Setting } from '../settings-table';
import { settingsTable } from '../settings-table';

const CHOICES = SERVICE_NAMES.join(', ');

/** Comma-separated service names, each known and named once, in the order given. */
function serviceList(row: { env: string; description: string }): Setting<ServiceName[] | undefined> {
  const problem = `must list services to run, comma-separated, each once: ${CHOICES}`;
  return {
    ...row,
    type: 'string list',
    default: undefined,
    bounds: CHOICES,
    parse: (raw) => {
      const names = raw.split(',').map((name) => name.trim());
      const known = names.every((name): name is ServiceName => (SERVICE_NAMES as string[]).includes(name));
      return known && new Set(names).size === names.length ? { value: names } : { problem };
    },
  };
}

/** Each service's own port in one process, where the single PORT cannot serve them all. */
function servicePort(service: ServiceName, defaultPort: number): Setting<number> {
  return integer({
    env: `${service.toUpperCase()}_PORT`,
    default: defaultPort,
    min: 0,
    max: 65535,
    description: `HTTP port of ${service} (its API, health and metrics) in the all-in-one process.`,
  });
}

/**
 * The all-in-one process (apps/switchyard): which services it runs, and the port of each. Each
 * service still reads its own tables; this one only replaces their PORT.
 */
export const ALL_IN_ONE_SETTINGS = settingsTable({
  title: 'All in one process',
  summary:
    'Which services one process runs (`dist/apps/switchyard/src/main.js`), and where each listens; it replaces their `PORT`.',
  rows: {
    services: serviceList({
      env: 'SWITCHYARD_SERVICES',
      description:
        'The services this process runs, e.g. `ingest,router,delivery,console`. They start in pipeline order and stop in it (ingest first), whatever order is listed. Required.',
    }),
    ingestPort: servicePort('ingest', 8080),
    routerPort: servicePort('router', 8081),
    deliveryPort: servicePort('delivery', 8082),
    consolePort: servicePort('console', 8083),
  },
  checks: ({ services, ...ports }) => {
    if (!services)
      return [`SWITCHYARD_SERVICES must be set: the services to run, comma-separated (${CHOICES})`];
    const taken = new Map<number, ServiceName>();
    const problems: string[] = [];
    for (const service of services) {
      const port = ports[`${service}Port`];
      const other = taken.get(port);
      if (other && port !== 0)
        problems.push(
          `${other.toUpperCase()}_PORT and ${service.toUpperCase()}_PORT must differ (both ${port})`,
        );
      taken.set(port, service);
    }
    return problems;
  },
});
