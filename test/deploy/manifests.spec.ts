/**
 * Offline checks of the deployment files: no cluster, no Docker engine, no network at check time.
 *
 * deploy/kubernetes is rendered from the Helm chart (test/deploy/helm.spec.ts keeps it so), so the
 * checks below also hold for the chart with those values.
 *
 * 1. Every manifest under deploy/kubernetes is validated (strictly: unknown fields are errors)
 *    against the Kubernetes JSON schemas shipped in the PyPI package kubernetes-validate, through
 *    test/deploy/validate_manifests.py. test/deploy/setup-validator.sh installs the pinned package
 *    into .cache/kubernetes-validate (CI runs it first; this spec runs it when the cache is missing).
 * 2. Semantics the schemas cannot see: probes on the right paths and ports, resources, non-root,
 *    graceful-shutdown budget, HPA bounds against the topic partition count, references between
 *    objects, and the environment passing the services' own settings validation.
 * 3. docker/compose.yaml and docker/Dockerfile: they parse and point at files that exist.
 *
 * Each family of checks also runs on a deliberately broken copy, which must be rejected.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix, relative, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { loadWorkspaceConfig } from '@switchyard/config';
import { topicNames } from '@switchyard/contracts';
import { consoleSettingsFromEnv } from '../../apps/console/src/console-settings';
import { deliverySettingsFromEnv } from '../../apps/delivery/src/delivery-settings';
import { ingestSettingsFromEnv } from '../../apps/ingest/src/ingest-settings';
import { routerGroupId, routerSettingsFromEnv } from '../../apps/router/src/router-settings';
import { SERVICE_HEAP_FLAGS, SERVICE_MALLOC_ENV } from '../../bench/bench-kit';
import { APPLY_JOB_MODE, render, TOPIC_MODE } from '../../scripts/helm/render-kustomize';
import {
  CUSTOM_RESOURCE_API_VERSIONS,
  helmPath,
  K8S_VERSIONS,
  kustomizePath,
  ROOT,
  SchemaResult,
  schemaFailures,
  validateWithSchemas,
} from './deploy-tools';

const K8S_DIR = join(ROOT, 'deploy/kubernetes');
const DOCKER_DIR = join(ROOT, 'docker');
const SERVICES = ['ingest', 'router', 'delivery', 'console'] as const;
type ServiceName = (typeof SERVICES)[number];
/** Services that run as exactly one replica, without an autoscaler (the console keeps its index in memory). */
const SINGLETONS: readonly ServiceName[] = ['console'];
/** Per-instance memory target at full load (bytes of RSS); the limit must leave headroom above it, but not much. */
const MEMORY_TARGET = 200 * 1000 * 1000;
const MEMORY_LIMIT_MAX = 512 * 1024 * 1024;

// ------------------------------------------------------------------------------------------------
// Types: the parts of Kubernetes objects the checks read.

interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  spec?: unknown;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
interface Probe {
  httpGet?: { path?: string; port?: number | string };
  exec?: { command?: string[] };
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
}
interface Container {
  name: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: Probe };
  securityContext?: SecurityContext;
  volumeMounts?: Array<{ name: string; mountPath: string; subPath?: string }>;
}
interface PodSpec {
  containers: Container[];
  securityContext?: SecurityContext;
  terminationGracePeriodSeconds?: number;
  topologySpreadConstraints?: Array<{ topologyKey: string }>;
  volumes?: Array<{ name: string; secret?: { secretName: string }; configMap?: { name: string } }>;
}
interface DeploymentSpec {
  replicas?: number;
  selector: { matchLabels?: Record<string, string> };
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: PodSpec;
  };
}
interface HpaSpec {
  scaleTargetRef: { kind: string; name: string };
  minReplicas?: number;
  maxReplicas: number;
}
interface ScaledObjectSpec {
  scaleTargetRef: { name: string };
  minReplicaCount?: number;
  maxReplicaCount?: number;
  triggers: Array<{ type: string; metadata: Record<string, string> }>;
}

interface Manifest {
  file: string;
  index: number;
  object: K8sObject;
}

// ------------------------------------------------------------------------------------------------
// Loading.

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

/** Manifest files: every YAML file under deploy/kubernetes except kustomize's own. */
function manifestFiles(): string[] {
  return yamlFilesUnder(K8S_DIR)
    .filter((f) => basename(f) !== 'kustomization.yaml')
    .sort();
}

function parseYamlFile(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs.flatMap((doc) => {
    if (doc.errors.length > 0)
      throw new Error(`${relative(ROOT, file)}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as unknown;
    return value === null || value === undefined ? [] : [value];
  });
}

/**
 * Objects by kind and name, as a kustomize build and a helm render can both be compared: without
 * the Namespace (the base's own), the chart's checksum and hook annotations (Helm's alone), and
 * with each container's environment in name order (a patch appends what the chart interleaves).
 */
function comparable(objects: K8sObject[]): Record<string, K8sObject> {
  const normalised = (object: K8sObject): K8sObject => {
    const copy = clone(object);
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      const record = value as Record<string, unknown>;
      const annotations = record.annotations as Record<string, string> | undefined;
      if (annotations) {
        for (const key of Object.keys(annotations))
          if (/^(checksum|helm\.sh)\//.test(key)) delete annotations[key];
        if (Object.keys(annotations).length === 0) delete record.annotations;
      }
      if (Array.isArray(record.env))
        record.env = [...(record.env as EnvVar[])].sort((a, b) => a.name.localeCompare(b.name));
      Object.values(record).forEach(walk);
    };
    walk(copy);
    return copy;
  };
  return Object.fromEntries(
    objects
      .filter((o) => o && o.kind !== 'Namespace')
      .map((o) => [`${o.kind}/${o.metadata.name}`, normalised(o)]),
  );
}

function loadManifests(files: string[]): Manifest[] {
  return files.flatMap((file) =>
    parseYamlFile(file).map((object, index) => ({
      file: relative(ROOT, file),
      index,
      object: object as K8sObject,
    })),
  );
}

const clone = <T>(value: T): T => structuredClone(value);

// ------------------------------------------------------------------------------------------------
// Semantic checks over a whole set of manifests. Each returns human-readable problems.

function parseQuantity(q: string | undefined): number | undefined {
  if (q === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(q));
  if (!m) return undefined;
  const factor: Record<string, number> = {
    m: 1e-3,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return Number(m[1]) * (m[2] ? factor[m[2]] : 1);
}

const byKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.object.kind === kind);
const labelsMatch = (
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** Secret values by name and key (stringData, or base64 data). */
function secretValue(manifests: Manifest[], name: string, key: string): string | undefined {
  const secret = byKind(manifests, 'Secret').find((m) => m.object.metadata.name === name)?.object;
  if (!secret) return undefined;
  if (secret.stringData?.[key] !== undefined) return secret.stringData[key];
  const data = secret.data?.[key];
  return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
}

/** What the image's CMD (`/bin/sh -c "…exec node …"`) would start for `service`: its arguments after `node`. */
function imageCommandFor(dockerfile: string, service: ServiceName, env: NodeJS.ProcessEnv = {}): string {
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile.split('\nFROM ').at(-1) ?? '')?.[1];
  const [shell, flag, script] = JSON.parse(cmd ?? '[]') as string[];
  expect([shell, flag]).toEqual(['/bin/sh', '-c']);
  return execFileSync('/bin/sh', ['-c', script.replace('exec node', 'echo')], {
    cwd: ROOT,
    env: { SWITCHYARD_SERVICE: service, ...env },
    encoding: 'utf8',
  }).trim();
}

function configMapData(manifests: Manifest[], name: string): Record<string, string> | undefined {
  return byKind(manifests, 'ConfigMap').find((m) => m.object.metadata.name === name)?.object.data;
}

/** The environment a container starts with, references resolved; problems for dangling ones. */
function containerEnv(
  manifests: Manifest[],
  container: Container,
  problems: string[],
  where: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const data = configMapData(manifests, source.configMapRef.name);
      if (!data) problems.push(`${where}: envFrom ConfigMap ${source.configMapRef.name} does not exist`);
      Object.assign(env, data ?? {});
    }
    if (source.secretRef) {
      const secret = byKind(manifests, 'Secret').find(
        (m) => m.object.metadata.name === source.secretRef?.name,
      );
      if (!secret) problems.push(`${where}: envFrom Secret ${source.secretRef.name} does not exist`);
      for (const key of Object.keys({ ...secret?.object.data, ...secret?.object.stringData }))
        env[key] = secretValue(manifests, source.secretRef.name, key) ?? '';
    }
  }
  for (const v of container.env ?? []) {
    if (v.value !== undefined) env[v.name] = v.value;
    const secretRef = v.valueFrom?.secretKeyRef;
    if (secretRef) {
      const value = secretValue(manifests, secretRef.name, secretRef.key);
      if (value === undefined)
        problems.push(
          `${where}: env ${v.name} refers to missing Secret key ${secretRef.name}/${secretRef.key}`,
        );
      else env[v.name] = value;
    }
    const cmRef = v.valueFrom?.configMapKeyRef;
    if (cmRef) {
      const value = configMapData(manifests, cmRef.name)?.[cmRef.key];
      if (value === undefined)
        problems.push(`${where}: env ${v.name} refers to missing ConfigMap key ${cmRef.name}/${cmRef.key}`);
      else env[v.name] = value;
    }
  }
  return env;
}

function probePort(container: Container, probe: Probe | undefined): number | undefined {
  const port = probe?.httpGet?.port;
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function preStopSeconds(container: Container): number {
  const cmd = container.lifecycle?.preStop?.exec?.command;
  return cmd && cmd[0] === 'sleep' ? Number(cmd[1]) || 0 : 0;
}

/** Which service a Deployment runs, from its command (node dist/apps/<svc>/src/main.js). */
function serviceOf(container: Container): ServiceName | undefined {
  const argv = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
  return SERVICES.find((s) => argv.includes(`dist/apps/${s}/src/main.js`));
}

/** Runs the service's own settings validation on the environment the manifests give it. */
function settingsProblems(service: ServiceName, env: Record<string, string>): string[] {
  try {
    if (service === 'ingest') ingestSettingsFromEnv(env);
    if (service === 'router') routerSettingsFromEnv(env);
    if (service === 'delivery') deliverySettingsFromEnv(env);
    if (service === 'console') consoleSettingsFromEnv(env);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

function topicPartitions(manifests: Manifest[]): number {
  const raw = configMapData(manifests, 'switchyard-env')?.TOPIC_PARTITIONS;
  return raw === undefined ? 6 : Number(raw); // the services' default
}

function deploymentProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const deployments = byKind(manifests, 'Deployment');
  const seen = new Set<ServiceName>();
  const hpaTargets = new Set(
    byKind(manifests, 'HorizontalPodAutoscaler').map((m) => (m.object.spec as HpaSpec).scaleTargetRef.name),
  );
  for (const { object } of deployments) {
    const name = object.metadata.name;
    const spec = object.spec as DeploymentSpec;
    const pod = spec.template.spec;
    if (!labelsMatch(spec.selector.matchLabels, spec.template.metadata?.labels))
      problems.push(`${name}: selector does not match the pod template's labels`);
    if (hpaTargets.has(name) && spec.replicas !== undefined)
      problems.push(
        `${name}: sets spec.replicas although an HPA scales it (every apply would reset the count)`,
      );
    const singleton = SINGLETONS.find((s) => serviceOf(pod.containers[0]) === s);
    if (singleton && spec.replicas !== 1)
      problems.push(`${name}: ${singleton} must run exactly one replica (replicas: 1)`);
    if (!pod.topologySpreadConstraints?.some((c) => c.topologyKey === 'kubernetes.io/hostname'))
      problems.push(`${name}: no topology spread over nodes`);
    for (const container of pod.containers) {
      const where = `${name}/${container.name}`;
      const service = serviceOf(container);
      if (!service) {
        problems.push(`${where}: command does not run node dist/apps/<${SERVICES.join('|')}>/src/main.js`);
        continue;
      }
      seen.add(service);
      const env = containerEnv(manifests, container, problems, where);
      const port = Number(env.PORT);
      if (!Number.isInteger(port) || port <= 0) problems.push(`${where}: PORT is not set to a port number`);
      if (!container.ports?.some((p) => p.containerPort === port))
        problems.push(`${where}: no containerPort equals PORT ${env.PORT}`);
      // Probes.
      if (container.livenessProbe?.httpGet?.path !== '/health/live')
        problems.push(`${where}: livenessProbe must GET /health/live`);
      if (container.readinessProbe?.httpGet?.path !== '/health/ready')
        problems.push(`${where}: readinessProbe must GET /health/ready`);
      if (probePort(container, container.livenessProbe) !== port)
        problems.push(`${where}: livenessProbe port is not the service port ${port}`);
      if (probePort(container, container.readinessProbe) !== port)
        problems.push(`${where}: readinessProbe port is not the service port ${port}`);
      // Prometheus scrape annotations.
      const annotations = spec.template.metadata?.annotations ?? {};
      if (
        annotations['prometheus.io/scrape'] !== 'true' ||
        annotations['prometheus.io/path'] !== '/metrics' ||
        Number(annotations['prometheus.io/port']) !== port
      ) {
        problems.push(`${where}: prometheus.io scrape annotations must name /metrics on port ${port}`);
      }
      // Resources.
      const limits = container.resources?.limits ?? {};
      const requests = container.resources?.requests ?? {};
      const memLimit = parseQuantity(limits.memory);
      if (memLimit === undefined || memLimit < MEMORY_TARGET || memLimit > MEMORY_LIMIT_MAX)
        problems.push(`${where}: memory limit ${limits.memory} must lie between the 200 MB target and 512Mi`);
      if (parseQuantity(limits.cpu) === undefined) problems.push(`${where}: no cpu limit`);
      if (parseQuantity(requests.cpu) === undefined)
        problems.push(`${where}: no cpu request (the CPU HPA needs one)`);
      const memRequest = parseQuantity(requests.memory);
      if (memRequest === undefined || (memLimit !== undefined && memRequest > memLimit))
        problems.push(`${where}: memory request missing or above the limit`);
      // Security.
      const sc = container.securityContext ?? {};
      if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true)
        problems.push(`${where}: runAsNonRoot is not set`);
      if ((sc.runAsUser ?? pod.securityContext?.runAsUser) === 0) problems.push(`${where}: runs as uid 0`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
      if (sc.allowPrivilegeEscalation !== false)
        problems.push(`${where}: allowPrivilegeEscalation is not false`);
      if (!sc.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities are not dropped`);
      // Workspace file (WORKSPACE_CONFIG in file mode, the console's seed in topic mode): mounted
      // from a volume as a directory (subPath mounts never see updates).
      const workspacePath = env.WORKSPACE_CONFIG ?? env.WORKSPACE_SEED_FILE;
      const mount = container.volumeMounts?.find(
        (m) => workspacePath && posix.dirname(workspacePath) === m.mountPath,
      );
      if (!workspacePath) {
        if (!env.WORKSPACE_ENCRYPTION_KEYS)
          problems.push(
            `${where}: no WORKSPACE_CONFIG, and in topic mode no WORKSPACE_ENCRYPTION_KEYS to open the topic's secrets`,
          );
      } else if (!mount)
        problems.push(
          `${where}: no volume mounted at the directory of the workspace file (${workspacePath})`,
        );
      else {
        if (mount.subPath)
          problems.push(
            `${where}: the workspace volume uses subPath, so configuration updates would never reach the pod`,
          );
        const volume = pod.volumes?.find((v) => v.name === mount.name);
        const key = posix.basename(workspacePath);
        const content = volume?.secret
          ? secretValue(manifests, volume.secret.secretName, key)
          : volume?.configMap
            ? configMapData(manifests, volume.configMap.name)?.[key]
            : undefined;
        if (content === undefined) problems.push(`${where}: the workspace volume has no key ${key}`);
      }
      if (sc.readOnlyRootFilesystem === true && !container.volumeMounts?.some((m) => m.mountPath === '/tmp'))
        problems.push(`${where}: read-only root filesystem without a writable /tmp`);
      // Shutdown budget: preStop pause + in-flight grace + room to commit and disconnect.
      const graceMs = service === 'delivery' ? Number(env.DELIVERY_SHUTDOWN_GRACE_MS ?? 10_000) : 0;
      const needed = preStopSeconds(container) + graceMs / 1000 + 10;
      if ((pod.terminationGracePeriodSeconds ?? 30) < needed)
        problems.push(
          `${where}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds ?? 30} is shorter than the shutdown needs (${needed} s)`,
        );
      // The services' own settings validation must accept the environment.
      problems.push(...settingsProblems(service, env).map((p) => `${where}: ${p}`));
    }
  }
  for (const s of SERVICES) if (!seen.has(s)) problems.push(`no Deployment runs ${s}`);
  return problems;
}

function targetsOf(manifests: Manifest[], selector: Record<string, string> | undefined): Manifest[] {
  return byKind(manifests, 'Deployment').filter((d) =>
    labelsMatch(selector, (d.object.spec as DeploymentSpec).template.metadata?.labels),
  );
}

function autoscalingProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const partitions = topicPartitions(manifests);
  const deploymentService = new Map(
    byKind(manifests, 'Deployment').map((d) => [
      d.object.metadata.name,
      serviceOf((d.object.spec as DeploymentSpec).template.spec.containers[0]),
    ]),
  );
  const scaled = new Set<ServiceName>();
  const bound = (
    what: string,
    service: ServiceName | undefined,
    min: number | undefined,
    max: number | undefined,
  ) => {
    if (max === undefined || (min ?? 1) > max) problems.push(`${what}: minReplicas above maxReplicas`);
    // Consumers: replicas beyond the input topic's partitions sit idle.
    if ((service === 'router' || service === 'delivery') && max !== undefined && max > partitions) {
      problems.push(
        `${what}: maxReplicas ${max} exceeds TOPIC_PARTITIONS ${partitions}; the extra ${service} replicas would get no partition`,
      );
    }
  };
  for (const { object } of byKind(manifests, 'HorizontalPodAutoscaler')) {
    const spec = object.spec as HpaSpec;
    const service = deploymentService.get(spec.scaleTargetRef.name);
    if (spec.scaleTargetRef.kind !== 'Deployment' || !deploymentService.has(spec.scaleTargetRef.name))
      problems.push(
        `HPA ${object.metadata.name}: target ${spec.scaleTargetRef.name} is not a Deployment here`,
      );
    if (service) scaled.add(service);
    if (service && SINGLETONS.includes(service))
      problems.push(`HPA ${object.metadata.name}: ${service} runs as one replica and must not be autoscaled`);
    bound(`HPA ${object.metadata.name}`, service, spec.minReplicas, spec.maxReplicas);
  }
  const topics = topicNames(configMapData(manifests, 'switchyard-env')?.TOPIC_NAMESPACE ?? 'switchyard');
  const namespace = configMapData(manifests, 'switchyard-env')?.TOPIC_NAMESPACE ?? 'switchyard';
  const expectedLagSource: Record<'router' | 'delivery', { topic: string; group: string }> = {
    router: {
      topic: topics.events,
      group: routerGroupId({ topicNamespace: namespace } as Parameters<typeof routerGroupId>[0], 'events'),
    },
    delivery: { topic: topics.deliveries, group: `${namespace}.delivery` },
  };
  for (const { object } of manifests.filter((m) => m.object.kind === 'ScaledObject')) {
    const spec = object.spec as ScaledObjectSpec;
    const service = deploymentService.get(spec.scaleTargetRef.name);
    if (!service)
      problems.push(
        `ScaledObject ${object.metadata.name}: target ${spec.scaleTargetRef.name} is not a Deployment here`,
      );
    if (service) scaled.add(service);
    bound(`ScaledObject ${object.metadata.name}`, service, spec.minReplicaCount, spec.maxReplicaCount);
    for (const trigger of spec.triggers.filter((t) => t.type === 'kafka')) {
      const expected =
        service === 'router' || service === 'delivery' ? expectedLagSource[service] : undefined;
      if (
        !expected ||
        trigger.metadata.topic !== expected.topic ||
        trigger.metadata.consumerGroup !== expected.group
      ) {
        problems.push(
          `ScaledObject ${object.metadata.name}: kafka trigger must watch ${expected?.group} on ${expected?.topic}`,
        );
      }
      if (trigger.metadata.bootstrapServers !== configMapData(manifests, 'switchyard-env')?.KAFKA_BROKERS)
        problems.push(`ScaledObject ${object.metadata.name}: bootstrapServers differs from KAFKA_BROKERS`);
    }
  }
  for (const s of SERVICES)
    if (!scaled.has(s) && !SINGLETONS.includes(s)) problems.push(`${s} has no autoscaler`);
  return problems;
}

function selectorProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const pdbTargets = new Set<string>();
  for (const { object } of byKind(manifests, 'PodDisruptionBudget')) {
    const targets = targetsOf(
      manifests,
      (object.spec as { selector: { matchLabels?: Record<string, string> } }).selector.matchLabels,
    );
    if (targets.length !== 1)
      problems.push(`PDB ${object.metadata.name} selects ${targets.length} Deployments`);
    targets.forEach((t) => pdbTargets.add(t.object.metadata.name));
  }
  for (const { object } of byKind(manifests, 'Deployment'))
    if (!pdbTargets.has(object.metadata.name))
      problems.push(`${object.metadata.name} has no PodDisruptionBudget`);
  const serviceTargets = new Set<string>();
  for (const { object } of byKind(manifests, 'Service')) {
    const spec = object.spec as {
      selector?: Record<string, string>;
      ports: Array<{ targetPort?: number | string }>;
    };
    const targets = targetsOf(manifests, spec.selector);
    if (targets.length !== 1)
      problems.push(`Service ${object.metadata.name} selects ${targets.length} Deployments`);
    for (const t of targets) {
      serviceTargets.add(t.object.metadata.name);
      const container = (t.object.spec as DeploymentSpec).template.spec.containers[0];
      for (const port of spec.ports) {
        const ok =
          typeof port.targetPort === 'number'
            ? container.ports?.some((p) => p.containerPort === port.targetPort)
            : container.ports?.some((p) => p.name === port.targetPort);
        if (!ok)
          problems.push(
            `Service ${object.metadata.name}: targetPort ${port.targetPort} is not a port of ${t.object.metadata.name}`,
          );
      }
    }
  }
  for (const { object } of byKind(manifests, 'Deployment'))
    if (!serviceTargets.has(object.metadata.name)) problems.push(`${object.metadata.name} has no Service`);
  for (const { object } of manifests) {
    if (object.kind !== 'Namespace' && object.metadata.namespace !== 'switchyard')
      problems.push(`${object.kind} ${object.metadata.name}: namespace is not switchyard`);
  }
  return problems;
}

function workspaceSecretProblems(manifests: Manifest[]): string[] {
  const secret = byKind(manifests, 'Secret').find((m) => m.object.metadata.name === 'switchyard-workspace');
  const text = secret && secretValue(manifests, 'switchyard-workspace', 'workspace.yaml');
  if (!text) return ['Secret switchyard-workspace has no workspace.yaml'];
  return workspaceFileProblems(text, 'workspace.yaml');
}

/** Runs the services' own loader on a workspace file's text. */
function workspaceFileProblems(text: string, name: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-deploy-ws-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, text);
    loadWorkspaceConfig(path);
    return [];
  } catch (error) {
    return [(error as Error).message];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function allSemanticProblems(manifests: Manifest[]): string[] {
  return [
    ...deploymentProblems(manifests),
    ...autoscalingProblems(manifests),
    ...selectorProblems(manifests),
    ...workspaceSecretProblems(manifests),
  ];
}

// ------------------------------------------------------------------------------------------------
// Compose and Dockerfile.

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; target?: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  volumes?: Array<string | { type: string; source: string; target: string }>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] | string };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** Compose's ${VAR:-default} / ${VAR-default} / ${VAR} interpolation, against an empty environment. */
function interpolate(value: string): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g,
    (_all, _name: string, fallback?: string) => fallback ?? '',
  );
}

function composeEnv(service: ComposeService): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v ?? ''))]),
  );
}

function composeProblems(compose: ComposeFile, composeDir: string): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  const kafka = services.kafka;
  if (!kafka || !/^apache\/kafka:3\.9\.\d+$/.test(kafka.image ?? ''))
    problems.push('kafka must be the official apache/kafka:3.9.x image');
  const kafkaEnv = kafka ? composeEnv(kafka) : {};
  if (!/broker,controller|controller,broker/.test(kafkaEnv.KAFKA_PROCESS_ROLES ?? ''))
    problems.push('kafka must run in KRaft combined mode (KAFKA_PROCESS_ROLES broker,controller)');
  if (!(kafkaEnv.KAFKA_ADVERTISED_LISTENERS ?? '').includes('kafka:9092'))
    problems.push('kafka must advertise kafka:9092 to the compose network');
  if (!kafka?.healthcheck) problems.push('kafka has no healthcheck');
  for (const s of SERVICES) {
    const service = services[s];
    if (!service) {
      problems.push(`service ${s} is missing`);
      continue;
    }
    const build = typeof service.build === 'string' ? { context: service.build } : service.build;
    if (!build) problems.push(`${s}: not built from docker/Dockerfile`);
    else {
      const context = resolve(composeDir, build.context ?? '.');
      const dockerfile = resolve(context, build.dockerfile ?? 'Dockerfile');
      if (!existsSync(context)) problems.push(`${s}: build context ${build.context} does not exist`);
      if (!existsSync(dockerfile))
        problems.push(`${s}: Dockerfile ${relative(ROOT, dockerfile)} does not exist`);
      if (context !== ROOT)
        problems.push(`${s}: the build context must be the repository root (package.json, apps, libs)`);
    }
    const env = composeEnv(service);
    const selected =
      env.SWITCHYARD_SERVICE ??
      [service.command ?? []]
        .flat()
        .join(' ')
        .match(/dist\/apps\/(\w+)\/src\/main\.js/)?.[1];
    if (selected !== s)
      problems.push(`${s}: runs ${selected ?? 'no service'} (set SWITCHYARD_SERVICE or the command)`);
    if (env.KAFKA_BROKERS !== 'kafka:9092') problems.push(`${s}: KAFKA_BROKERS must be kafka:9092`);
    const deps = service.depends_on;
    if (!deps || Array.isArray(deps) || deps.kafka?.condition !== 'service_healthy')
      problems.push(`${s}: must wait for kafka to be healthy`);
    if (!service.healthcheck) problems.push(`${s}: no healthcheck`);
    const workspaceMount = (service.volumes ?? []).find(
      (v) => (typeof v === 'string' ? v.split(':')[1] : v.target) === env.WORKSPACE_CONFIG,
    );
    if (!workspaceMount)
      problems.push(`${s}: nothing is mounted at WORKSPACE_CONFIG ${env.WORKSPACE_CONFIG}`);
    problems.push(...settingsProblems(s, env).map((p) => `${s}: ${p}`));
  }
  // Every bind-mounted file exists.
  for (const [name, service] of Object.entries(services)) {
    for (const volume of service.volumes ?? []) {
      const source =
        typeof volume === 'string'
          ? volume.split(':')[0]
          : volume.type === 'bind'
            ? volume.source
            : undefined;
      if (source && /^[./]/.test(source) && !existsSync(resolve(composeDir, source)))
        problems.push(`${name}: bind mount source ${source} does not exist`);
    }
  }
  return problems;
}

/** Dockerfile instructions with line continuations joined and comments dropped. */
function dockerInstructions(text: string): Array<{ op: string; args: string }> {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const ins = dockerInstructions(text);
  const args = Object.fromEntries(
    ins
      .filter((i) => i.op === 'ARG' && i.args.includes('='))
      .map((i) => i.args.split('=', 2) as [string, string]),
  );
  const froms = ins
    .filter((i) => i.op === 'FROM')
    .map((i) => i.args.replace(/\$\{(\w+)\}/g, (_m, n: string) => args[n] ?? ''));
  if (froms.length < 3) problems.push('not a multi-stage build');
  const runtimeIndex = ins.map((i) => i.op).lastIndexOf('FROM');
  const runtimeBase = froms[froms.length - 1]?.split(/\s+/)[0] ?? '';
  if (!/^node:24([.-]|$)/.test(runtimeBase))
    problems.push(`runtime stage must be an official Node 24 image, not ${runtimeBase}`);
  const runs = ins.filter((i) => i.op === 'RUN').map((i) => i.args);
  if (!runs.some((r) => /\bnpm ci\b(?!.*--omit=dev)/.test(r))) problems.push('no `npm ci` for the build');
  if (!runs.some((r) => /\bnpm run build\b/.test(r))) problems.push('no `npm run build`');
  if (!runs.some((r) => /\bnpm ci\b.*--omit=dev/.test(r)))
    problems.push('no `npm ci --omit=dev` for the runtime');
  const runtime = ins.slice(runtimeIndex);
  const user = runtime.filter((i) => i.op === 'USER').pop()?.args;
  if (!user || /^(0|root)(:|$)/.test(user)) problems.push('the runtime stage must switch to a non-root USER');
  else if (!/^\d+(:\d+)?$/.test(user))
    problems.push('USER should be numeric so Kubernetes runAsNonRoot can verify it');
  if (runtime.some((i) => i.op === 'RUN' && /\bnpm (ci|install)\b(?!.*--omit=dev)/.test(i.args)))
    problems.push('the runtime stage installs dev dependencies');
  // COPY sources from the build context must exist and not be excluded by .dockerignore.
  for (const copy of ins.filter((i) => i.op === 'COPY' && !/--from=/.test(i.args))) {
    const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith('--'));
    for (const source of parts.slice(0, -1))
      if (!existsSync(join(ROOT, source))) problems.push(`COPY source ${source} does not exist`);
  }
  return problems;
}

function dockerignoreProblems(text: string): string[] {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const problems: string[] = [];
  for (const needed of ['node_modules', 'dist', '.kafka', '.cache', 'clients'])
    if (!patterns.includes(needed)) problems.push(`.dockerignore does not exclude ${needed}`);
  const kept = ['apps', 'libs', 'scripts', 'scripts/workspace', 'package.json', 'package-lock.json'];
  for (const path of [...kept, 'docker', 'docker/healthcheck.js'])
    if (patterns.includes(path)) problems.push(`.dockerignore excludes ${path}, which the build needs`);
  return problems;
}

// ------------------------------------------------------------------------------------------------

describe('deployment files (offline)', () => {
  const files = manifestFiles();
  const manifests = loadManifests(files);

  it('finds the Kubernetes manifests', () => {
    expect(files.map((f) => relative(ROOT, f))).toContain('deploy/kubernetes/base/switchyard.yaml');
    const kinds = new Set(manifests.map((m) => m.object.kind));
    for (const kind of [
      'Namespace',
      'ConfigMap',
      'Secret',
      'Deployment',
      'Service',
      'PodDisruptionBudget',
      'HorizontalPodAutoscaler',
    ])
      expect(kinds).toContain(kind);
  });

  describe('Kubernetes JSON schemas (kubernetes-validate, strict, no network)', () => {
    let validated: { validator: string; results: SchemaResult[] };
    let brokenDir: string;

    beforeAll(() => {
      validated = validateWithSchemas(files);
      brokenDir = mkdtempSync(join(tmpdir(), 'switchyard-broken-manifests-'));
    }, 300_000);
    afterAll(() => brokenDir && rmSync(brokenDir, { recursive: true, force: true }));

    it(`accepts every manifest for Kubernetes ${K8S_VERSIONS.join(' and ')}`, () => {
      expect(validated.validator).toMatch(/^kubernetes-validate \d/);
      expect(schemaFailures(validated.results)).toEqual([]);
      // Every document was checked against every version; only custom resources lack a schema.
      const docs = manifests.length;
      expect(validated.results).toHaveLength(docs * K8S_VERSIONS.length);
      const checked = validated.results.filter((r) => r.status === 'valid').length;
      const custom = manifests.filter((m) =>
        CUSTOM_RESOURCE_API_VERSIONS.includes(m.object.apiVersion),
      ).length;
      expect(checked).toBe((docs - custom) * K8S_VERSIONS.length);
    });

    it('rejects broken manifests (misspelt field, wrong type, missing required field, unknown kind)', () => {
      const deployment = clone(manifests.find((m) => m.object.kind === 'Deployment')!.object) as K8sObject & {
        spec: DeploymentSpec & Record<string, unknown>;
      };
      const misspelt = clone(deployment);
      const container = misspelt.spec.template.spec.containers[0] as Container & Record<string, unknown>;
      container.readinesProbe = container.readinessProbe;
      delete container.readinessProbe;
      const wrongType = clone(deployment);
      wrongType.spec.replicas = 'three' as unknown as number;
      const missing = clone(deployment);
      delete (missing.spec.template.spec.containers[0] as Partial<Container>).name;
      const service = clone(manifests.find((m) => m.object.kind === 'Service')!.object) as K8sObject & {
        spec: { ports: Array<Record<string, unknown>> };
      };
      delete service.spec.ports[0].port;
      const unknownKind = { apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'typo' }, spec: {} };
      const cases = { misspelt, wrongType, missing, service, unknownKind };
      const paths = Object.entries(cases).map(([name, object]) => {
        const path = join(brokenDir, `${name}.yaml`);
        writeFileSync(path, JSON.stringify(object)); // JSON is YAML
        return path;
      });
      const { results } = validateWithSchemas(paths);
      for (const path of paths) {
        const failures = schemaFailures(results.filter((r) => r.file === path));
        expect({ file: basename(path), rejected: failures.length }).toEqual({
          file: basename(path),
          rejected: K8S_VERSIONS.length,
        });
      }
      expect(results.find((r) => r.file.endsWith('misspelt.yaml'))?.message).toMatch(/readinesProbe/);
    });
  });

  describe('semantics the schemas do not check', () => {
    it('holds for the shipped manifests', () => {
      expect(allSemanticProblems(manifests)).toEqual([]);
    });

    it('runs every service with the runtime flags of config/runtime-flags.env (image, manifests, npm start)', () => {
      const startScript = readFileSync(join(ROOT, 'scripts', 'start.sh'), 'utf8');
      const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
      expect(startScript).toContain('source config/runtime-flags.env');
      expect(dockerfile).toContain(
        'COPY --chown=root:root config/runtime-flags.env ./config/runtime-flags.env',
      );
      for (const service of SERVICES) {
        const flags = SERVICE_HEAP_FLAGS[service].join(' ');
        const entry = `dist/apps/${service}/src/main.js`;
        // A manifest cannot read the file: its command must equal what the file says.
        expect(deploymentOf(manifests, service).template.spec.containers[0].command?.join(' ')).toBe(
          `node ${flags} ${entry}`,
        );
        // The image's shell command, run with `exec node` turned into `echo`, prints what it would start.
        expect(imageCommandFor(dockerfile, service)).toBe(`${flags} ${entry}`);
        expect(startScript).toContain(`node $${service.toUpperCase()}_NODE_FLAGS ${entry}`);
      }
      for (const [name, value] of Object.entries(SERVICE_MALLOC_ENV)) {
        expect(configMapData(manifests, 'switchyard-env')?.[name]).toBe(value);
      }
    });

    it('runs the all-in-one process with ALL_IN_ONE_NODE_FLAGS when SWITCHYARD_SERVICES is set (image, npm start)', () => {
      const flagsFile = readFileSync(join(ROOT, 'config', 'runtime-flags.env'), 'utf8');
      const flags = /^ALL_IN_ONE_NODE_FLAGS="\$\{ALL_IN_ONE_NODE_FLAGS:-(.*)\}"$/m.exec(flagsFile)?.[1];
      const entry = 'dist/apps/switchyard/src/main.js';
      const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
      expect(flags).toMatch(/--max-old-space-size=\d+/);
      expect(imageCommandFor(dockerfile, 'ingest', { SWITCHYARD_SERVICES: 'ingest,router' })).toBe(
        `${flags} ${entry}`,
      );
      expect(readFileSync(join(ROOT, 'scripts', 'start.sh'), 'utf8')).toContain(
        `node $ALL_IN_ONE_NODE_FLAGS ${entry}`,
      );
    });

    it('documents the partition bound: router and delivery autoscale to at most TOPIC_PARTITIONS (6)', () => {
      expect(topicPartitions(manifests)).toBe(6);
      const max = byKind(manifests, 'HorizontalPodAutoscaler')
        .filter((m) => /router|delivery/.test(m.object.metadata.name))
        .map((m) => (m.object.spec as HpaSpec).maxReplicas);
      expect(max).toHaveLength(2);
      for (const m of max) expect(m).toBeLessThanOrEqual(6);
    });

    const broken: Array<[string, (ms: Manifest[]) => void, RegExp]> = [
      [
        'a readiness probe on the wrong path',
        (ms) =>
          (deploymentOf(ms, 'router').template.spec.containers[0].readinessProbe!.httpGet!.path =
            '/health/live'),
        /router\/router: readinessProbe must GET \/health\/ready/,
      ],
      [
        'a liveness probe on the wrong port',
        (ms) => (deploymentOf(ms, 'ingest').template.spec.containers[0].livenessProbe!.httpGet!.port = 9999),
        /livenessProbe port is not the service port 8080/,
      ],
      [
        'a missing memory limit',
        (ms) => delete deploymentOf(ms, 'delivery').template.spec.containers[0].resources!.limits!.memory,
        /delivery\/delivery: memory limit/,
      ],
      [
        'runAsNonRoot switched off',
        (ms) =>
          (deploymentOf(ms, 'ingest').template.spec.containers[0].securityContext!.runAsNonRoot = false),
        /ingest\/ingest: runAsNonRoot is not set/,
      ],
      [
        'an HPA above the partition count',
        (ms) =>
          ((
            ms.find(
              (m) =>
                m.object.kind === 'HorizontalPodAutoscaler' && m.object.metadata.name.includes('delivery'),
            )!.object.spec as HpaSpec
          ).maxReplicas = 12),
        /maxReplicas 12 exceeds TOPIC_PARTITIONS 6/,
      ],
      [
        'fewer partitions than the HPAs allow',
        (ms) => (configMapData(ms, 'switchyard-env')!.TOPIC_PARTITIONS = '3'),
        /maxReplicas 6 exceeds TOPIC_PARTITIONS 3/,
      ],
      [
        'a shutdown grace longer than the pod is given',
        (ms) =>
          (deploymentOf(ms, 'delivery').template.spec.containers[0].env!.find(
            (e) => e.name === 'DELIVERY_SHUTDOWN_GRACE_MS',
          )!.value = '60000'),
        /terminationGracePeriodSeconds 45 is shorter/,
      ],
      [
        'a setting the service refuses',
        (ms) => (configMapData(ms, 'switchyard-env')!.KAFKA_BROKERS = 'not a broker list'),
        /KAFKA_BROKERS/,
      ],
      [
        'a workspace mounted with subPath',
        (ms) =>
          (deploymentOf(ms, 'router').template.spec.containers[0].volumeMounts![0].subPath =
            'workspace.yaml'),
        /subPath/,
      ],
      [
        'an invalid workspace in the Secret',
        (ms) =>
          (secretOf(ms, 'switchyard-workspace').stringData!['workspace.yaml'] =
            'sources: []\ndestinations: [{id: x}]\n'),
        /workspace configuration/,
      ],
      [
        'a dangling Secret reference',
        (ms) => (secretOf(ms, 'switchyard-admin').metadata.name = 'renamed'),
        /missing Secret key switchyard-admin\/ADMIN_TOKEN/,
      ],
      [
        'a second console replica',
        (ms) => (deploymentOf(ms, 'console').replicas = 2),
        /console must run exactly one replica/,
      ],
      [
        'a console setting the service refuses',
        (ms) =>
          (deploymentOf(ms, 'console').template.spec.containers[0].env!.find(
            (e) => e.name === 'CONSOLE_DELIVERY_URL',
          )!.value = 'delivery'),
        /CONSOLE_DELIVERY_URL/,
      ],
      [
        'a PDB that selects nothing',
        (ms) =>
          ((
            byKind(ms, 'PodDisruptionBudget')[0].object.spec as {
              selector: { matchLabels: Record<string, string> };
            }
          ).selector.matchLabels['app.kubernetes.io/component'] = 'nothing'),
        /selects 0 Deployments/,
      ],
    ];
    it.each(broken)('rejects %s', (_name, breakIt, expected) => {
      const copy = clone(manifests);
      breakIt(copy);
      const problems = allSemanticProblems(copy);
      expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
    });
  });

  describe('kustomize', () => {
    const BASE = join(K8S_DIR, 'base');
    const KEDA = join(K8S_DIR, 'overlays/keda');
    const WORKSPACE_TOPIC = join(K8S_DIR, 'overlays/workspace-topic');
    const APPLY_JOB = join(K8S_DIR, 'overlays/workspace-apply-job');
    const readKustomization = (dir: string) =>
      parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
        resources: string[];
        namespace?: string;
        patches?: Array<{ patch: string }>;
      };

    it('the base lists every manifest file beside it, and only existing ones', () => {
      const base = readKustomization(BASE);
      for (const r of base.resources) expect(existsSync(join(BASE, r))).toBe(true);
      const files = readdirSync(BASE).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
      expect([...base.resources].sort()).toEqual(files.sort());
      expect(base.namespace).toBe('switchyard');
      expect(readKustomization(K8S_DIR).resources).toEqual(['base']);
    });

    it('the KEDA overlay deletes exactly the HPAs its ScaledObjects replace', () => {
      const overlay = readKustomization(KEDA);
      for (const r of overlay.resources) expect(existsSync(join(KEDA, r))).toBe(true);
      const deleted = (overlay.patches ?? [])
        .map((p) => parse(p.patch) as { kind: string; metadata: { name: string } })
        .map((p) => `${p.kind}/${p.metadata.name}`);
      const scaledTargets = loadManifests([join(KEDA, 'scaledobjects.yaml')]).map(
        (m) => (m.object.spec as ScaledObjectSpec).scaleTargetRef.name,
      );
      const replaced = byKind(manifests, 'HorizontalPodAutoscaler')
        .map((m) => m.object)
        .filter((h) => scaledTargets.includes((h.spec as HpaSpec).scaleTargetRef.name))
        .map((h) => `${h.kind}/${h.metadata.name}`);
      expect(deleted.sort()).toEqual(replaced.sort());
      expect(replaced).toHaveLength(2);
    });

    describe('rendered with kustomize build', () => {
      let workDir: string;
      let rendered: Record<'base' | 'keda' | 'topic' | 'applyJob', Manifest[]>;
      let schema: SchemaResult[];

      beforeAll(() => {
        const kustomize = kustomizePath();
        workDir = mkdtempSync(join(tmpdir(), 'switchyard-kustomize-'));
        const build = (dir: string, name: string) => {
          const out = join(workDir, `${name}.yaml`);
          writeFileSync(
            out,
            execFileSync(kustomize, ['build', dir], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }),
          );
          return out;
        };
        const files = {
          base: build(K8S_DIR, 'base'),
          keda: build(KEDA, 'keda'),
          topic: build(WORKSPACE_TOPIC, 'workspace-topic'),
          applyJob: build(APPLY_JOB, 'workspace-apply-job'),
        };
        rendered = {
          base: loadManifests([files.base]),
          keda: loadManifests([files.keda]),
          topic: loadManifests([files.topic]),
          applyJob: loadManifests([files.applyJob]),
        };
        schema = validateWithSchemas(Object.values(files)).results;
      }, 600_000);
      afterAll(() => workDir && rmSync(workDir, { recursive: true, force: true }));

      it('every build passes the schemas and the semantic checks', () => {
        expect(schemaFailures(schema)).toEqual([]);
        for (const [build, objects] of Object.entries(rendered))
          expect({ build, problems: allSemanticProblems(objects) }).toEqual({ build, problems: [] });
      });

      it('the workspace overlays build what the chart renders in topic mode, without and with the apply Job', () => {
        const helm = helmPath();
        const chart = (args: string[]) =>
          comparable(parseAllDocuments(render(helm, args)).map((d) => d.toJS() as K8sObject));
        expect(comparable(rendered.topic.map((m) => m.object))).toEqual(chart(TOPIC_MODE));
        expect(comparable(rendered.applyJob.map((m) => m.object))).toEqual(chart(APPLY_JOB_MODE));
      });

      it('the workspace overlays mount the file only where it is read, and apply it with the admin token', () => {
        const mounts = (objects: Manifest[]) =>
          objects
            .filter((m) => ['Deployment', 'Job'].includes(m.object.kind))
            .filter((m) =>
              (m.object.spec as Pick<DeploymentSpec, 'template'>).template.spec.volumes?.some(
                (v) => v.name === 'workspace',
              ),
            )
            .map((m) => m.object.metadata.name);
        expect(mounts(rendered.base)).toHaveLength(4);
        expect(mounts(rendered.topic)).toEqual(['switchyard-console']);
        expect(mounts(rendered.applyJob).sort()).toEqual([
          'switchyard-console',
          'switchyard-workspace-apply',
        ]);
        const job = byKind(rendered.applyJob, 'Job')[0].object;
        expect(job.metadata.annotations).toBeUndefined();
        const container = (job.spec as Pick<DeploymentSpec, 'template'>).template.spec.containers[0];
        expect(container.command?.slice(-3)).toEqual(['apply', '-f', '/etc/switchyard/workspace.yaml']);
        expect(container.env).toContainEqual({
          name: 'SWITCHYARD_TOKEN',
          valueFrom: { secretKeyRef: { name: 'switchyard-admin', key: 'ADMIN_TOKEN' } },
        });
      });

      it('the base renders every object into the namespace with the released image', () => {
        const kinds = rendered.base.map((m) => `${m.object.kind}/${m.object.metadata.name}`);
        expect(kinds).toHaveLength(
          manifests.filter((m) => m.file.startsWith('deploy/kubernetes/base/')).length,
        );
        for (const d of byKind(rendered.base, 'Deployment')) {
          expect(
            (
              d.object.spec as DeploymentSpec & {
                template: { spec: { containers: Array<{ image: string }> } };
              }
            ).template.spec.containers[0].image,
          ).toMatch(/^switchyard:\d+\.\d+\.\d+$/);
        }
      });

      it('the KEDA overlay swaps the router and delivery HPAs for ScaledObjects', () => {
        const hpas = byKind(rendered.keda, 'HorizontalPodAutoscaler').map((m) => m.object.metadata.name);
        const scaledObjects = rendered.keda
          .filter((m) => m.object.kind === 'ScaledObject')
          .map((m) => m.object.metadata.name);
        expect(hpas).toEqual(['switchyard-ingest']);
        expect(scaledObjects.sort()).toEqual(['switchyard-delivery', 'switchyard-router']);
      });
    });
  });

  describe('docker', () => {
    const composePath = join(DOCKER_DIR, 'compose.yaml');
    // Compose files use YAML merge keys (<<: *anchor), an extension the yaml package applies on request.
    const compose = parse(readFileSync(composePath, 'utf8'), { merge: true }) as ComposeFile;
    const dockerfile = readFileSync(join(DOCKER_DIR, 'Dockerfile'), 'utf8');

    it('compose.yaml parses, builds the services from docker/Dockerfile and wires them to Kafka', () => {
      expect(composeProblems(compose, DOCKER_DIR)).toEqual([]);
    });

    it('compose.yaml: the workspace points the webhooks at the receiver, with its shared secret', () => {
      const text = readFileSync(join(DOCKER_DIR, 'workspace.compose.yaml'), 'utf8');
      expect(workspaceFileProblems(text, 'workspace.yaml')).toEqual([]);
      const workspace = parse(text) as {
        destinations: Array<{ settings: { sharedSecret?: string; webhooks: Array<{ url: string }> } }>;
      };
      const receiver = compose.services.receiver;
      expect(receiver).toBeDefined();
      const port = composeEnv(receiver).DEMO_RECEIVER_PORT;
      for (const d of workspace.destinations) {
        expect(d.settings.sharedSecret).toBe(composeEnv(receiver).DEMO_SHARED_SECRET);
        for (const w of d.settings.webhooks) expect(new URL(w.url).host).toBe(`receiver:${port}`);
      }
    });

    it('compose.yaml checks reject broken wiring', () => {
      const copy = clone(compose);
      (copy.services.router.build as { dockerfile: string }).dockerfile = 'docker/Nope.dockerfile';
      copy.services.delivery.environment!.KAFKA_BROKERS = 'localhost:9092';
      delete copy.services.ingest.depends_on;
      const problems = composeProblems(copy, DOCKER_DIR);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/router: Dockerfile docker\/Nope.dockerfile does not exist/),
          expect.stringMatching(/delivery: KAFKA_BROKERS must be kafka:9092/),
          expect.stringMatching(/ingest: must wait for kafka/),
        ]),
      );
    });

    it('the Dockerfile is multi-stage, non-root, on Node 24, with production dependencies only at run time', () => {
      expect(dockerfileProblems(dockerfile)).toEqual([]);
      expect(dockerignoreProblems(readFileSync(join(ROOT, '.dockerignore'), 'utf8'))).toEqual([]);
      // The image's default command and the manifests' commands name entry points the build produces.
      const projects = Object.keys(
        (
          JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as {
            projects: Record<string, unknown>;
          }
        ).projects,
      );
      for (const s of SERVICES) {
        expect(projects).toContain(s);
        expect(existsSync(join(ROOT, `apps/${s}/src/main.ts`))).toBe(true);
      }
    });

    it('the Dockerfile checks reject a root, single-stage, wrong-Node image', () => {
      const bad =
        'FROM node:22-alpine\nCOPY . .\nRUN npm install\nCMD ["node", "dist/apps/ingest/src/main.js"]\n';
      expect(dockerfileProblems(bad)).toEqual(
        expect.arrayContaining([
          'not a multi-stage build',
          'runtime stage must be an official Node 24 image, not node:22-alpine',
          'the runtime stage must switch to a non-root USER',
          'no `npm ci --omit=dev` for the runtime',
        ]),
      );
      expect(dockerignoreProblems('node_modules\napps\n')).toEqual(
        expect.arrayContaining([
          '.dockerignore does not exclude dist',
          '.dockerignore excludes apps, which the build needs',
        ]),
      );
    });
  });
});

function deploymentOf(manifests: Manifest[], service: ServiceName): DeploymentSpec {
  const found = byKind(manifests, 'Deployment').find(
    (m) => serviceOf((m.object.spec as DeploymentSpec).template.spec.containers[0]) === service,
  );
  if (!found) throw new Error(`no Deployment for ${service}`);
  return found.object.spec as DeploymentSpec;
}

function secretOf(manifests: Manifest[], name: string): K8sObject {
  const found = byKind(manifests, 'Secret').find((m) => m.object.metadata.name === name);
  if (!found) throw new Error(`no Secret ${name}`);
  return found.object;
}
