import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALL_IN_ONE_SETTINGS,
  allSettingsTables,
  SERVICE_NAMES,
  Setting,
  SettingsTable,
  settingText,
} from '@switchyard/config';

/** The configuration reference, generated from the settings tables. */
export const CONFIGURATION_DOC = join(__dirname, '..', 'docs', 'configuration.md');

const INTRO = `# Configuration

<!-- Generated from the settings tables in libs/config/src by \`npm run docs:config\`: edit the tables,
not this file (a unit test fails when they differ). -->

Every service reads its settings from environment variables once, at start-up. A bad value stops
start-up with one error listing every problem, each naming its variable and the rule it broke
(\`KAFKA_COMPRESSION must be one of: zstd, gzip, none (got "lz4")\`); a secret's value is never
repeated. An unset or empty variable takes its default.

Several tables are shared: each service reads the tables listed for it below.
`;

const TRACING = `## Tracing (OpenTelemetry)

Traces are exported over OTLP/HTTP when \`OTEL_EXPORTER_OTLP_ENDPOINT\` (or
\`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT\`) is set; unset, the SDK is not even loaded. The standard
\`OTEL_*\` variables apply as OpenTelemetry defines them. Start-up refuses an
\`OTEL_EXPORTER_OTLP_PROTOCOL\` other than \`http/protobuf\` (the default) or \`http/json\`, an unknown
\`OTEL_TRACES_SAMPLER\`, and an \`OTEL_TRACES_SAMPLER_ARG\` ratio outside 0 to 1.
`;

const UNITS: Array<[number, string]> = [
  [24 * 60 * 60 * 1000, 'd'],
  [60 * 60 * 1000, 'h'],
  [60 * 1000, 'min'],
  [1000, 's'],
];

/** A millisecond default in the largest unit that divides it, for a reader: 14400000 → "4 h". */
function readableDuration(ms: number): string | undefined {
  const unit = UNITS.find(([size]) => ms >= size && ms % size === 0);
  return unit && `${ms / unit[0]} ${unit[1]}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function defaultCell(row: Setting<unknown>): string {
  const text = settingText(row.default);
  if (text === undefined) return 'unset';
  const readable = row.env.endsWith('_MS') ? readableDuration(Number(text)) : undefined;
  return readable ? `\`${text}\` (${readable})` : `\`${text}\``;
}

function tableSection(table: SettingsTable, services: string[]): string {
  const readers = services.length === SERVICE_NAMES.length ? 'every service' : services.join(', ');
  return tableText(table, `Read by ${readers}.`);
}

function tableText(table: SettingsTable, readBy: string): string {
  const rows = Object.values(table.rows).map(
    (row) =>
      `| \`${row.env}\` | ${row.type} | ${defaultCell(row)} | ${cell(row.bounds)} | ${cell(row.description)} |`,
  );
  return [
    `## ${table.title}`,
    '',
    `${table.summary} ${readBy}`,
    '',
    '| Variable | Type | Default | Allowed | Description |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

function servicesSection(tables: ReturnType<typeof allSettingsTables>): string {
  const lines = SERVICE_NAMES.map((service) => {
    const titles = tables
      .filter(({ services }) => services.includes(service))
      .map(({ table }) => table.title);
    return `| ${service} | ${titles.join(', ')} |`;
  });
  return ['| Service | Tables |', '| --- | --- |', ...lines, ''].join('\n');
}

/**
 * Formats Markdown as `npm run lint` expects. Prettier runs in its own process: its API loads
 * plugins by dynamic import, which jest's module system cannot do.
 */
function prettierFormat(markdown: string): string {
  const cli = require.resolve('prettier/bin/prettier.cjs');
  return execFileSync(process.execPath, [cli, '--stdin-filepath', CONFIGURATION_DOC], {
    input: markdown,
    encoding: 'utf8',
  });
}

/** The whole reference, formatted as the repository's Prettier formats Markdown. */
export function configurationReference(): string {
  const tables = allSettingsTables();
  return prettierFormat(
    [
      INTRO,
      servicesSection(tables),
      ...tables.map(({ table, services }) => tableSection(table, services)),
      tableText(
        ALL_IN_ONE_SETTINGS,
        'Read by the all-in-one process only, whose services read their own tables above (docs/deployment.md, "All in one process").',
      ),
      TRACING,
    ].join('\n'),
  );
}

if (require.main === module) {
  writeFileSync(CONFIGURATION_DOC, configurationReference());
  process.stdout.write(`wrote ${CONFIGURATION_DOC}\n`);
}
