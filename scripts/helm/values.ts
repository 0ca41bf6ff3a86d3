import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES, ServiceName } from '@switchyard/config';
import { ALL_IN_ONE_HEAP_FLAGS, SERVICE_HEAP_FLAGS } from '../../bench/bench-kit';
import { ChartService, serviceSettings, ServiceSetting } from './service-settings';

/** The chart whose values.yaml and README.md carry the generated blocks. */
export const CHART_DIR = join(__dirname, '..', '..', 'deploy', 'helm', 'switchyard');
export const VALUES_FILE = join(CHART_DIR, 'values.yaml');
export const README_FILE = join(CHART_DIR, 'README.md');

const BEGIN = 'BEGIN generated settings: npm run helm:generate';
const END = 'END generated settings';
const SECTIONS: ChartService[] = ['all', ...SERVICE_NAMES];

/** A YAML scalar that stays a string: env values are strings, and `true` or `6` must not become a boolean or number. */
const yamlString = (value: string) => JSON.stringify(value);

/** `text` as comment lines of at most `width` characters, each starting with `prefix`. */
function commentLines(text: string, prefix: string, width = 100): string[] {
  const lines: string[] = [];
  let line = prefix;
  for (const word of text.split(' ')) {
    if (line !== prefix && line.length + 1 + word.length > width) {
      lines.push(line);
      line = prefix;
    }
    line += line === prefix ? word : ` ${word}`;
  }
  return [...lines, line];
}

/** The `env:` block of values.yaml: one map per service, each key commented with what it does. */
export function envValuesBlock(settings: ServiceSetting[]): string {
  const lines = [
    '# Environment of the services, by who reads it (`all`: every service), generated from their',
    '# settings tables (docs/configuration.md). Defaults are the services\' own; "" leaves a variable',
    '# unset. Kafka connection, ports, the workspace path and the admin token are set from the',
    '# sections above, not here; other secrets go in `secretEnv`.',
    'env:',
  ];
  for (const section of SECTIONS) {
    lines.push(`  ${section}:`);
    for (const s of settings.filter((x) => x.service === section)) {
      lines.push(...commentLines(s.description, '    # '), `    ${s.env}: ${yamlString(s.default)}`);
    }
  }
  return lines.join('\n');
}

/** Text inside a Markdown table cell: a pipe would end the cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The README table of the same settings. */
export function envReadmeTable(settings: ServiceSetting[]): string {
  const rows = settings.map(
    (s) =>
      `| \`env.${s.service}.${s.env}\` | ${s.default === '' ? 'unset' : `\`${cell(s.default)}\``} | ${cell(s.description)} |`,
  );
  return ['| value | default | what it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `text` with the lines between the BEGIN and END markers replaced by `block`; the markers are comment lines of any syntax. */
export function replaceGenerated(text: string, block: string, file: string): string {
  const lines = text.split('\n');
  const begin = lines.findIndex((l) => l.includes(BEGIN));
  const end = lines.findIndex((l) => l.includes(END));
  if (begin < 0 || end < begin)
    throw new Error(`${file}: the "${BEGIN}" and "${END}" marker lines are missing`);
  return [...lines.slice(0, begin + 1), block, ...lines.slice(end)].join('\n');
}

/** The values sections that carry heap flags: each service's, and the all-in-one process's. */
export type HeapFlagsSection = ServiceName | 'allInOne';

/** Each section's heap flags, as config/runtime-flags.env gives them. */
export const CHART_HEAP_FLAGS: Record<HeapFlagsSection, string[]> = {
  ...SERVICE_HEAP_FLAGS,
  allInOne: ALL_IN_ONE_HEAP_FLAGS,
};

/**
 * `text` with each section's `heapFlags:` line set to `flags`: a chart cannot read
 * config/runtime-flags.env, so its values carry a copy, written from the file and nowhere else.
 */
export function withHeapFlags(text: string, flags: Record<HeapFlagsSection, string[]>, file: string): string {
  return (Object.keys(flags) as HeapFlagsSection[]).reduce((result, section) => {
    const pattern = new RegExp(`^(${section}:\\n(?:(?: .*)?\\n)*?  heapFlags: ).*$`, 'm');
    const match = pattern.exec(result);
    if (!match) throw new Error(`${file}: ${section} has no "heapFlags:" line`);
    const line = `${match[1]}[${flags[section].join(', ')}]`;
    return result.slice(0, match.index) + line + result.slice(match.index + match[0].length);
  }, text);
}

/** values.yaml and README.md as they must be for `settings` and the runtime flags. */
export function generatedChartFiles(
  settings: ServiceSetting[] = serviceSettings(),
  heapFlags: Record<HeapFlagsSection, string[]> = CHART_HEAP_FLAGS,
): Record<string, string> {
  return {
    [VALUES_FILE]: withHeapFlags(
      replaceGenerated(readFileSync(VALUES_FILE, 'utf8'), envValuesBlock(settings), VALUES_FILE),
      heapFlags,
      VALUES_FILE,
    ),
    [README_FILE]: replaceGenerated(readFileSync(README_FILE, 'utf8'), envReadmeTable(settings), README_FILE),
  };
}
