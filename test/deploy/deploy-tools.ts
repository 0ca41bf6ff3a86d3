/**
 * The offline tools the deployment tests share: the setup scripts' tool paths, and strict schema
 * validation of Kubernetes objects through kubernetes-validate (PyPI) and validate_manifests.py.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
/** Oldest Kubernetes minor we claim to support, and the newest the schema package ships. */
export const K8S_VERSIONS = ['1.30', '1.37'];
/** Custom resources the schema package cannot know; the specs check them semantically instead. */
export const CUSTOM_RESOURCE_API_VERSIONS = ['keda.sh/v1alpha1', 'monitoring.coreos.com/v1'];

export interface SchemaResult {
  file: string;
  document: number;
  apiVersion: string | null;
  kind: string | null;
  name: string | null;
  k8sVersion: string;
  status: 'valid' | 'invalid' | 'no-schema';
  path?: string;
  message?: string;
}

const python = process.env.PYTHON ?? 'python3';

/** The path a setup script printed for its tool (installed by scripts/setup-test-tools.sh; tests never install). */
export function installedTool(script: string): string {
  return execFileSync('bash', [join(ROOT, 'test/deploy', script), '--path'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

export const kustomizePath = () => installedTool('setup-kustomize.sh');
export const helmPath = () => installedTool('setup-helm.sh');

export function validateWithSchemas(files: string[]): { validator: string; results: SchemaResult[] } {
  const args = [
    join(__dirname, 'validate_manifests.py'),
    ...K8S_VERSIONS.flatMap((v) => ['--k8s-version', v]),
    ...files,
  ];
  const out = execFileSync(python, args, {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: installedTool('setup-validator.sh'), PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as { validator: string; results: SchemaResult[] };
}

/** Invalid documents, and documents without a schema that are not known custom resources. */
export function schemaFailures(results: SchemaResult[]): string[] {
  return results
    .filter(
      (r) =>
        r.status === 'invalid' ||
        (r.status === 'no-schema' && !CUSTOM_RESOURCE_API_VERSIONS.includes(r.apiVersion ?? '')),
    )
    .map(
      (r) =>
        `${r.file}#${r.document} ${r.kind}/${r.name} (Kubernetes ${r.k8sVersion}): ${r.status}${r.path ? ` at ${r.path}` : ''}: ${r.message ?? ''}`,
    );
}
