/**
 * Regenerates what the Helm chart and the kustomize manifests derive: values.yaml's `env` maps and
 * the chart README's table from the settings tables, then the kustomize files from the chart
 * (after the values, which the render reads). test/deploy/helm.spec.ts fails when any is stale.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderedKustomizeFiles } from './render-kustomize';
import { generatedChartFiles } from './values';

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}

write(generatedChartFiles());
// Builds helm into .cache/bin on first use, as the test-tools setup does.
const setupHelm = join(__dirname, '..', '..', 'test', 'deploy', 'setup-helm.sh');
write(renderedKustomizeFiles(execFileSync('bash', [setupHelm], { encoding: 'utf8' }).trim()));
