import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allSettingsTables, SERVICE_NAMES, ServiceName, settingText } from '@switchyard/config';
import { SERVICE_MALLOC_ENV } from '../../bench/bench-kit';

/**
 * The environment variables the Helm chart's values (`env:` in deploy/helm/switchyard/values.yaml)
 * and their documentation are generated from: every row of the services' settings tables, and the
 * few variables of the runtime underneath (OpenTelemetry's SDK, Node, glibc).
 * `service` is the service that reads it, or `all` for the ConfigMap every service reads.
 */
export type ChartService = 'all' | ServiceName;

export interface ServiceSetting {
  service: ChartService;
  env: string;
  /** The value the service uses when the variable is unset; '' = unset (the service's own fallback applies). */
  default: string;
  description: string;
}

const HELPERS = join(__dirname, '..', '..', 'deploy', 'helm', 'switchyard', 'templates', '_helpers.tpl');

/**
 * Variables the chart sets itself from `kafka.*`, `admin.*`, `workspace.*` and each service's port.
 * Read from the template that refuses them in `env`, so the list is written once.
 */
export function chartManagedEnv(helpers: string = readFileSync(HELPERS, 'utf8')): string[] {
  const list = helpers.match(/define "switchyard\.chartManagedEnv" -\}\}\n\{\{- list (.*) \| toJson/)?.[1];
  if (!list) throw new Error(`${HELPERS}: no "switchyard.chartManagedEnv" list`);
  return list.split(' ').map((name) => name.replace(/"/g, ''));
}

/** Settings the image sets at build time: written into the ConfigMap, their table default would override it. */
const SET_BY_THE_IMAGE = ['SWITCHYARD_COMMIT'];

/** What the chart says about the runtime's own variables; their values are the runtime's defaults. */
const MALLOC_DESCRIPTIONS: Record<string, string> = {
  MALLOC_ARENA_MAX: 'glibc malloc arenas: fewer arenas, less resident memory.',
  MALLOC_MMAP_THRESHOLD_:
    'glibc: buffers this large or larger are mapped on their own and returned when freed.',
};

function runtimeSettings(): ServiceSetting[] {
  const all = (env: string, value: string, description: string): ServiceSetting => ({
    service: 'all',
    env,
    default: value,
    description,
  });
  const malloc = Object.entries(SERVICE_MALLOC_ENV).map(([env, value]) => {
    const description = MALLOC_DESCRIPTIONS[env];
    if (!description) throw new Error(`config/runtime-flags.env: ${env} has no description for the chart`);
    return all(env, value, `${description} From config/runtime-flags.env.`);
  });
  return [
    all(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      '',
      'OTLP/HTTP trace export to a collector (`http://collector:4318`); unset: tracing off.',
    ),
    all('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf', '`http/protobuf` or `http/json`.'),
    all('OTEL_TRACES_SAMPLER', 'parentbased_always_on', 'One of the OpenTelemetry SDK samplers.'),
    all('OTEL_TRACES_SAMPLER_ARG', '', 'The sampler ratio (0 – 1) of the ratio samplers.'),
    all('OTEL_RESOURCE_ATTRIBUTES', '', 'Extra trace resource attributes (`key=value,...`).'),
    all(
      'NODE_OPTIONS',
      '',
      "Node.js options; unset: the image's. The heap flags are on each container's command line.",
    ),
    ...malloc,
  ];
}

/** Every table row the chart leaves to `env`: secrets and what the chart sets itself stay out. */
function tableSettings(): ServiceSetting[] {
  const managed = chartManagedEnv();
  return allSettingsTables().flatMap(({ table, services }) =>
    Object.values(table.rows)
      .filter((row) => !row.secret && !managed.includes(row.env))
      .map((row) => ({
        // A table some but not all services read goes to the shared ConfigMap: the others ignore it.
        service: services.length === 1 ? services[0] : 'all',
        env: row.env,
        default: SET_BY_THE_IMAGE.includes(row.env) ? '' : (settingText(row.default) ?? ''),
        description: row.description,
      })),
  );
}

/** The chart's settings, shared ones first, then by service in start order. */
export function serviceSettings(): ServiceSetting[] {
  const settings = [...tableSettings(), ...runtimeSettings()];
  const order: ChartService[] = ['all', ...SERVICE_NAMES];
  return order.flatMap((service) => settings.filter((s) => s.service === service));
}
