/**
 * The Helm chart (deploy/helm/switchyard), offline: helm is built from its Go module by
 * test/deploy/setup-helm.sh (scripts/setup-test-tools.sh runs it), no cluster is needed.
 *
 * - `helm lint --strict` with the defaults and each example values file;
 * - `helm template` output passes the Kubernetes schemas (strict) for the oldest and newest version;
 * - the production render: non-root containers with read-only root filesystems, every Secret
 *   reference resolved by a rendered Secret or one the values file documents, PDBs and
 *   NetworkPolicies selecting what they name, each Deployment's environment equal to the values;
 * - the workspace mode: topic mode (the default) sets no WORKSPACE_CONFIG, file mode sets it on every
 *   service; the apply Job runs the image's built CLI against the console's Service;
 * - the generated parts stay generated: values.yaml's env maps and the README table from the
 *   settings tables, the kustomize manifests from the chart, the monitoring files from deploy/monitoring;
 * - the chart's settings list holds the services' own defaults and leaves out only secrets and
 *   what the chart sets itself.
 * Each structural check also runs on a broken copy, which it must reject.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ALL_IN_ONE_SETTINGS, allSettingsTables } from '@switchyard/config';
import { consoleSettingsFromEnv } from '../../apps/console/src/console-settings';
import { deliverySettingsFromEnv } from '../../apps/delivery/src/delivery-settings';
import { ingestSettingsFromEnv } from '../../apps/ingest/src/ingest-settings';
import { routerSettingsFromEnv } from '../../apps/router/src/router-settings';
import { allInOneSettingsFromEnv } from '../../apps/switchyard/src/all-in-one-settings';
import { tracingSettingsFromEnv } from '../../libs/telemetry/src/tracing-settings';
import { renderedKustomizeFiles } from '../../scripts/helm/render-kustomize';
import { chartManagedEnv, ChartService, serviceSettings } from '../../scripts/helm/service-settings';
import { CHART_HEAP_FLAGS, generatedChartFiles, withHeapFlags } from '../../scripts/helm/values';
import {
  CUSTOM_RESOURCE_API_VERSIONS,
  helmPath,
  K8S_VERSIONS,
  ROOT,
  schemaFailures,
  validateWithSchemas,
} from './deploy-tools';

const CHART = join(ROOT, 'deploy/helm/switchyard');
const VALUES_FILES = ['values-minimal.yaml', 'values-production.yaml', 'values-keda.yaml'];
const SERVICES = ['ingest', 'router', 'delivery', 'console'] as const;
type Service = (typeof SERVICES)[number];

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  command?: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string } }>;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; readOnlyRootFilesystem?: boolean };
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: Array<{ name: string; secret?: { secretName: string } }>;
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}
type Selector = { matchLabels?: Record<string, string> };

let helm = '';
let workDir = '';

function helmRun(args: string[]): string {
  return execFileSync(helm, args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `helm template` of the chart as release "switchyard" in namespace "switchyard". */
function template(args: string[], chart = CHART): string {
  return helmRun(['template', 'switchyard', chart, '--namespace', 'switchyard', ...args]);
}

function templateError(args: string[]): string {
  try {
    template(args);
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
  throw new Error(`helm template ${args.join(' ')} rendered, but should have failed`);
}

function objectsOf(yamlText: string): K8sObject[] {
  return parseAllDocuments(yamlText)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

const valuesFile = (name: string) => join(CHART, name);
const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const matches = (selector: Selector | undefined, labels: Record<string, string> | undefined) =>
  !!selector?.matchLabels &&
  Object.keys(selector.matchLabels).length > 0 &&
  Object.entries(selector.matchLabels).every(([k, v]) => labels?.[k] === v);

/** Every pod template in the render: Deployments' and Jobs'. */
function podTemplates(objects: K8sObject[]): Array<{ owner: string; template: PodTemplate }> {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => ({
      owner: `${o.kind}/${o.metadata.name}`,
      template: (o.spec as { template: PodTemplate }).template,
    }));
}

function deploymentOf(objects: K8sObject[], workload: Service | 'all-in-one'): PodTemplate {
  const found = byKind(objects, 'Deployment').find((d) => d.metadata.name === `switchyard-${workload}`);
  if (!found) throw new Error(`no Deployment switchyard-${workload}`);
  return (found.spec as { template: PodTemplate }).template;
}

// ------------------------------------------------------------------------------------------------
// The checks of a render. Each returns human-readable problems.

function securityProblems(objects: K8sObject[]): string[] {
  return podTemplates(objects).flatMap(({ owner, template }) =>
    template.spec.containers.flatMap((c) => {
      const pod = template.spec.securityContext ?? {};
      const problems: string[] = [];
      if ((c.securityContext?.runAsNonRoot ?? pod.runAsNonRoot) !== true)
        problems.push(`${owner}/${c.name}: not runAsNonRoot`);
      if ((c.securityContext?.runAsUser ?? pod.runAsUser) === 0)
        problems.push(`${owner}/${c.name}: runs as uid 0`);
      if (c.securityContext?.readOnlyRootFilesystem !== true)
        problems.push(`${owner}/${c.name}: root filesystem is writable`);
      return problems;
    }),
  );
}

/** Secrets a values file's header tells the user to create: name -> keys, from its `kubectl create secret` lines. */
function documentedSecrets(valuesText: string): Map<string, string[]> {
  const comments = valuesText
    .split('\n')
    .filter((l) => l.startsWith('#'))
    .map((l) => l.replace(/^#\s?/, ''))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const secrets = new Map<string, string[]>();
  for (const m of comments.matchAll(/create secret (generic|tls) (\S+)([^\n]*)/g)) {
    const keys =
      m[1] === 'tls'
        ? ['tls.crt', 'tls.key']
        : [...m[3].matchAll(/--from-(?:literal|file)=([^=\s]+)=/g)].map((k) => k[1]);
    secrets.set(m[2], keys);
  }
  return secrets;
}

function secretReferenceProblems(objects: K8sObject[], documented: Map<string, string[]>): string[] {
  const rendered = new Map(
    byKind(objects, 'Secret').map((s) => [s.metadata.name, Object.keys({ ...s.data, ...s.stringData })]),
  );
  const problems: string[] = [];
  const check = (where: string, name: string, key?: string) => {
    const keys = rendered.get(name) ?? documented.get(name);
    if (!keys) problems.push(`${where}: Secret ${name} is neither rendered nor documented`);
    else if (key !== undefined && !keys.includes(key))
      problems.push(`${where}: Secret ${name} has no key ${key}`);
  };
  for (const { owner, template } of podTemplates(objects)) {
    for (const v of template.spec.volumes ?? [])
      if (v.secret) check(`${owner} volume ${v.name}`, v.secret.secretName);
    for (const c of template.spec.containers) {
      for (const e of c.env ?? [])
        if (e.valueFrom?.secretKeyRef)
          check(`${owner} env ${e.name}`, e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key);
    }
  }
  for (const ingress of byKind(objects, 'Ingress')) {
    for (const tls of (ingress.spec as { tls?: Array<{ secretName: string }> }).tls ?? [])
      check(`Ingress ${ingress.metadata.name}`, tls.secretName, 'tls.crt');
  }
  for (const auth of byKind(objects, 'TriggerAuthentication')) {
    for (const ref of (auth.spec as { secretTargetRef: Array<{ name: string; key: string }> })
      .secretTargetRef)
      check(`TriggerAuthentication ${auth.metadata.name}`, ref.name, ref.key);
  }
  return problems;
}

function pdbProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const covered = new Set<string>();
  for (const pdb of byKind(objects, 'PodDisruptionBudget')) {
    const selector = (pdb.spec as { selector: Selector }).selector;
    const targets = byKind(objects, 'Deployment').filter((d) =>
      matches(selector, (d.spec as { template: PodTemplate }).template.metadata?.labels),
    );
    if (targets.length !== 1 || targets[0].metadata.name !== pdb.metadata.name) {
      problems.push(
        `PDB ${pdb.metadata.name} selects ${targets.map((t) => t.metadata.name).join(', ') || 'no Deployment'}`,
      );
    }
    targets.forEach((t) => covered.add(t.metadata.name));
  }
  for (const d of byKind(objects, 'Deployment'))
    if (!covered.has(d.metadata.name)) problems.push(`${d.metadata.name} has no PDB`);
  return problems;
}

/** Each NetworkPolicy is named for the service whose pods it selects, and selects exactly those. */
function networkPolicyProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const policies = byKind(objects, 'NetworkPolicy');
  for (const policy of policies) {
    const selector = (policy.spec as { podSelector: Selector }).podSelector;
    const selected = byKind(objects, 'Deployment').filter((d) =>
      matches(selector, (d.spec as { template: PodTemplate }).template.metadata?.labels),
    );
    if (selected.length !== 1 || selected[0].metadata.name !== policy.metadata.name) {
      problems.push(
        `NetworkPolicy ${policy.metadata.name} selects ${selected.map((d) => d.metadata.name).join(', ') || 'no pods'}`,
      );
    }
  }
  for (const d of byKind(objects, 'Deployment'))
    if (!policies.some((p) => p.metadata.name === d.metadata.name))
      problems.push(`${d.metadata.name} has no NetworkPolicy`);
  return problems;
}

/** A container's environment with ConfigMap references resolved (Secret references stay as `secret:<name>/<key>`). */
function containerEnv(objects: K8sObject[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const cm = byKind(objects, 'ConfigMap').find((c) => c.metadata.name === source.configMapRef?.name);
    Object.assign(env, cm?.data ?? {});
  }
  for (const v of container.env ?? []) {
    const ref = v.valueFrom?.secretKeyRef;
    env[v.name] = ref ? `secret:${ref.name}/${ref.key}` : (v.value ?? '');
  }
  return env;
}

interface ChartValues {
  kafka: {
    brokers: string;
    replicationFactor: string;
    minInsyncReplicas: string;
    tls: { enabled: boolean; ca: boolean };
    sasl: { mechanism: string };
    existingSecret: string;
  };
  admin: {
    existingSecret: string;
    existingSecretKey: string;
    apiTokens: { existingSecret: string; existingSecretKey: string };
  };
  workspace: {
    mode: 'topic' | 'file';
    existingSecret: string;
    seed: boolean;
    encryptionKeys: { existingSecret: string; existingSecretKey: string };
  };
  ingest: { ingress: { enabled: boolean; host: string; tlsSecretName: string } };
  env: Record<ChartService, Record<string, string>>;
}

/** What the console gets from admin.apiTokens, workspace.* and the ingest Ingress. */
function expectedConsoleEnv(values: ChartValues): Record<string, string> {
  const { apiTokens } = values.admin;
  const { ingress } = values.ingest;
  const w = values.workspace;
  return {
    CONSOLE_DELIVERY_URL: 'http://switchyard-delivery:8082',
    CONSOLE_INGEST_URL: ingress.enabled
      ? `${ingress.tlsSecretName ? 'https' : 'http'}://${ingress.host}`
      : 'http://switchyard-ingest:80',
    ...(apiTokens.existingSecret
      ? { API_TOKENS_FILE: `/etc/switchyard-tokens/${apiTokens.existingSecretKey}` }
      : {}),
    ...(w.mode === 'topic' && w.seed && w.existingSecret
      ? { WORKSPACE_SEED_FILE: '/etc/switchyard/workspace.yaml' }
      : {}),
  };
}

/** The environment a service must get from these values: the env maps, and what the chart derives from kafka.* and admin.*. */
function expectedEnv(values: ChartValues, service: Service): Record<string, string> {
  const port = { ingest: '8080', router: '8081', delivery: '8082', console: '8083' }[service];
  const nonEmpty = (vars: Record<string, string>) =>
    Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== ''));
  const k = values.kafka;
  const w = values.workspace;
  return {
    KAFKA_BROKERS: k.brokers,
    KAFKA_SSL: String(k.tls.enabled),
    ...(k.tls.ca ? { KAFKA_SSL_CA_FILE: '/etc/switchyard-kafka/ca.crt' } : {}),
    ...(k.sasl.mechanism
      ? {
          KAFKA_SASL_MECHANISM: k.sasl.mechanism,
          KAFKA_SASL_PASSWORD_FILE: '/etc/switchyard-kafka/sasl-password',
          KAFKA_SASL_USERNAME: `secret:${k.existingSecret}/sasl-username`,
        }
      : {}),
    KAFKA_REPLICATION_FACTOR: k.replicationFactor,
    KAFKA_MIN_INSYNC_REPLICAS: k.minInsyncReplicas,
    ...(w.mode === 'file' ? { WORKSPACE_CONFIG: '/etc/switchyard/workspace.yaml' } : {}),
    ...(w.encryptionKeys.existingSecret
      ? {
          WORKSPACE_ENCRYPTION_KEYS: `secret:${w.encryptionKeys.existingSecret}/${w.encryptionKeys.existingSecretKey}`,
        }
      : {}),
    PORT: port,
    SWITCHYARD_SERVICE: service,
    ADMIN_TOKEN: `secret:${values.admin.existingSecret}/${values.admin.existingSecretKey}`,
    ...(service === 'console' ? expectedConsoleEnv(values) : {}),
    ...nonEmpty(values.env.all),
    ...nonEmpty(values.env[service]),
  };
}

/** The environment of the all-in-one pods: the three services' together, with a port each instead of PORT. */
function expectedAllInOneEnv(values: ChartValues): Record<string, string> {
  const services = ['ingest', 'router', 'delivery'] as const;
  const env: Record<string, string> = Object.assign({}, ...services.map((s) => expectedEnv(values, s)));
  delete env.PORT;
  delete env.SWITCHYARD_SERVICE;
  return {
    ...env,
    SWITCHYARD_SERVICES: 'ingest,router,delivery',
    INGEST_PORT: '8080',
    ROUTER_PORT: '8081',
    DELIVERY_PORT: '8082',
  };
}

/** Services whose selector finds no pod, or whose target port those pods do not name (with the port's number). */
function serviceTargetProblems(objects: K8sObject[]): string[] {
  return byKind(objects, 'Service').flatMap((service) => {
    const spec = service.spec as {
      selector: Record<string, string>;
      ports: Array<{ targetPort: string }>;
    };
    const pods = byKind(objects, 'Deployment').filter((d) =>
      matches(
        { matchLabels: spec.selector },
        (d.spec as { template: PodTemplate }).template.metadata?.labels,
      ),
    );
    if (pods.length !== 1) return [`Service ${service.metadata.name} selects ${pods.length} Deployments`];
    const ports = (pods[0].spec as { template: PodTemplate }).template.spec.containers[0].ports ?? [];
    return spec.ports
      .filter((p) => !ports.some((c) => c.name === p.targetPort))
      .map((p) => `Service ${service.metadata.name}: ${pods[0].metadata.name} has no port ${p.targetPort}`);
  });
}

/** Chart defaults overlaid with a values file, maps merged key by key as helm does. */
function mergedValues(file: string): ChartValues {
  const merge = (base: unknown, over: unknown): unknown => {
    if (
      typeof base !== 'object' ||
      base === null ||
      Array.isArray(base) ||
      typeof over !== 'object' ||
      over === null
    )
      return over ?? base;
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [k, v] of Object.entries(over)) out[k] = merge(out[k], v);
    return out;
  };
  return merge(
    parse(readFileSync(valuesFile('values.yaml'), 'utf8')),
    parse(readFileSync(valuesFile(file), 'utf8')),
  ) as ChartValues;
}

// ------------------------------------------------------------------------------------------------

describe('Helm chart (offline)', () => {
  const renders: Record<string, string> = {};

  beforeAll(() => {
    helm = helmPath();
    workDir = mkdtempSync(join(tmpdir(), 'switchyard-helm-'));
    for (const file of ['values.yaml', ...VALUES_FILES]) {
      const path = join(workDir, file);
      writeFileSync(path, template(['-f', valuesFile(file)]));
      renders[file] = path;
    }
  }, 120_000);
  afterAll(() => workDir && rmSync(workDir, { recursive: true, force: true }));

  it.each(['values.yaml', ...VALUES_FILES])('helm lint --strict passes with %s', (file) => {
    expect(helmRun(['lint', '--strict', CHART, '-f', valuesFile(file)])).toMatch(
      /1 chart\(s\) linted, 0 chart\(s\) failed/,
    );
  });

  it(`every render passes the Kubernetes ${K8S_VERSIONS.join(' and ')} schemas, strictly`, () => {
    const { results } = validateWithSchemas(Object.values(renders));
    expect(schemaFailures(results)).toEqual([]);
    const builtIn = Object.values(renders)
      .flatMap((file) => objectsOf(readFileSync(file, 'utf8')))
      .filter((o) => !CUSTOM_RESOURCE_API_VERSIONS.includes(o.apiVersion));
    expect(results.filter((r) => r.status === 'valid')).toHaveLength(builtIn.length * K8S_VERSIONS.length);
    // A broken render is rejected.
    const broken = join(workDir, 'broken.yaml');
    writeFileSync(
      broken,
      readFileSync(renders['values-production.yaml'], 'utf8').replace('readinessProbe:', 'readinesProbe:'),
    );
    expect(schemaFailures(validateWithSchemas([broken]).results).join('\n')).toMatch(/readinesProbe/);
  });

  it('renders what each values file asks for', () => {
    const kinds = (file: string) =>
      new Set(objectsOf(readFileSync(renders[file], 'utf8')).map((o) => o.kind));
    expect([...kinds('values-production.yaml')]).toEqual(
      expect.arrayContaining(['NetworkPolicy', 'PodMonitor', 'PrometheusRule', 'Ingress', 'Job']),
    );
    expect([...kinds('values-keda.yaml')]).toEqual(
      expect.arrayContaining(['ScaledObject', 'TriggerAuthentication']),
    );
    expect([...kinds('values-minimal.yaml')]).not.toContain('NetworkPolicy');
    const production = objectsOf(readFileSync(renders['values-production.yaml'], 'utf8'));
    for (const s of ['ingest', 'router', 'delivery'] as const) {
      expect(
        byKind(production, 'Deployment').find((d) => d.metadata.name === `switchyard-${s}`)?.spec?.replicas,
      ).toBe(3);
    }
    const dashboard = byKind(production, 'ConfigMap').find(
      (c) => c.metadata.labels?.grafana_dashboard === '1',
    );
    expect(JSON.parse(dashboard?.data?.['switchyard.json'] ?? '{}')).toEqual(
      JSON.parse(readFileSync(join(ROOT, 'deploy/monitoring/grafana-dashboard.json'), 'utf8')),
    );
  });

  describe('the production render', () => {
    let objects: K8sObject[];
    let documented: Map<string, string[]>;
    beforeAll(() => {
      objects = objectsOf(readFileSync(renders['values-production.yaml'], 'utf8'));
      documented = documentedSecrets(readFileSync(valuesFile('values-production.yaml'), 'utf8'));
    });

    it('runs every container as non-root with a read-only root filesystem', () => {
      expect(podTemplates(objects).length).toBeGreaterThanOrEqual(5);
      expect(securityProblems(objects)).toEqual([]);
      const broken = structuredClone(objects);
      deploymentOf(broken, 'router').spec.containers[0].securityContext!.readOnlyRootFilesystem = false;
      expect(securityProblems(broken)).toEqual([
        'Deployment/switchyard-router/router: root filesystem is writable',
      ]);
    });

    it('resolves every Secret reference to a rendered Secret or one the values file documents, key included', () => {
      expect([...documented.keys()].sort()).toEqual([
        'events-example-com-tls',
        'switchyard-admin',
        'switchyard-api-tokens',
        'switchyard-console-example-com-tls',
        'switchyard-kafka',
        'switchyard-workspace',
        'switchyard-workspace-keys',
      ]);
      expect(secretReferenceProblems(objects, documented)).toEqual([]);
      const broken = structuredClone(objects);
      deploymentOf(broken, 'console').spec.volumes!.find((v) => v.name === 'api-tokens')!.secret!.secretName =
        'nowhere';
      deploymentOf(broken, 'delivery').spec.containers[0].env!.find(
        (e) => e.name === 'ADMIN_TOKEN',
      )!.valueFrom!.secretKeyRef!.key = 'TOKEN';
      expect(secretReferenceProblems(broken, documented)).toEqual([
        'Deployment/switchyard-delivery env ADMIN_TOKEN: Secret switchyard-admin has no key TOKEN',
        'Deployment/switchyard-console volume api-tokens: Secret nowhere is neither rendered nor documented',
      ]);
    });

    it('has a PDB selecting each Deployment', () => {
      expect(byKind(objects, 'PodDisruptionBudget')).toHaveLength(4);
      expect(pdbProblems(objects)).toEqual([]);
      const broken = structuredClone(objects);
      (byKind(broken, 'PodDisruptionBudget')[0].spec as { selector: Selector }).selector.matchLabels![
        'app.kubernetes.io/component'
      ] = 'router';
      expect(pdbProblems(broken)).toEqual([
        'PDB switchyard-ingest selects switchyard-router',
        'switchyard-ingest has no PDB',
      ]);
    });

    it('has a NetworkPolicy selecting exactly the pods it is named for', () => {
      expect(networkPolicyProblems(objects)).toEqual([]);
      const broken = structuredClone(objects);
      delete (byKind(broken, 'NetworkPolicy')[1].spec as { podSelector: Selector }).podSelector.matchLabels![
        'app.kubernetes.io/component'
      ];
      expect(networkPolicyProblems(broken)).toEqual([
        'NetworkPolicy switchyard-router selects switchyard-ingest, switchyard-router, switchyard-delivery, switchyard-console',
      ]);
    });

    it('lets router and delivery be reached only by the scraper (and delivery and ingest by the console), and keeps delivery off cluster ranges', () => {
      const policy = (name: Service) =>
        byKind(objects, 'NetworkPolicy').find((p) => p.metadata.name === `switchyard-${name}`)!.spec as {
          ingress: Array<{ from: Array<Record<string, unknown>> }>;
          egress?: Array<{ to: Array<{ ipBlock?: { cidr: string; except?: string[] } }> }>;
        };
      const sources = (name: Service) => policy(name).ingress.flatMap((r) => r.from);
      const scraper = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
      const ingressController = {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
      };
      expect(sources('router')).toEqual([scraper]);
      expect(sources('delivery')).toEqual([
        scraper,
        {
          podSelector: { matchLabels: expect.objectContaining({ 'app.kubernetes.io/component': 'console' }) },
        },
      ]);
      expect(sources('ingest')).toEqual([
        scraper,
        ingressController,
        {
          podSelector: { matchLabels: expect.objectContaining({ 'app.kubernetes.io/component': 'console' }) },
        },
      ]);
      expect(sources('console')).toEqual([
        scraper,
        ingressController,
        {
          podSelector: {
            matchLabels: expect.objectContaining({ 'app.kubernetes.io/component': 'workspace-apply' }),
          },
        },
      ]);
      const anywhere = policy('delivery')
        .egress!.flatMap((r) => r.to)
        .find((t) => t.ipBlock?.cidr === '0.0.0.0/0');
      expect(anywhere?.ipBlock?.except).toEqual(
        expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']),
      );
      expect(policy('router').egress).toBeUndefined();
    });

    it('gives each Deployment exactly the environment the values ask for', () => {
      const values = mergedValues('values-production.yaml');
      for (const service of SERVICES) {
        expect({
          service,
          env: containerEnv(objects, deploymentOf(objects, service).spec.containers[0]),
        }).toEqual({ service, env: expectedEnv(values, service) });
      }
      const broken = structuredClone(objects);
      deploymentOf(broken, 'delivery').spec.containers[0].env!.find(
        (e) => e.name === 'DELIVERY_BLOCK_PRIVATE_ADDRESSES',
      )!.value = 'false';
      expect(containerEnv(broken, deploymentOf(broken, 'delivery').spec.containers[0])).not.toEqual(
        expectedEnv(values, 'delivery'),
      );
    });
  });

  describe('the all-in-one shape (allInOne.enabled, production values)', () => {
    const allInOne = ['-f', valuesFile('values-production.yaml'), '--set', 'allInOne.enabled=true'];
    let render = '';
    let objects: K8sObject[];
    beforeAll(() => {
      render = join(workDir, 'all-in-one.yaml');
      writeFileSync(render, template(allInOne));
      objects = objectsOf(readFileSync(render, 'utf8'));
    });

    it('runs ingest, router and delivery as one Deployment beside the console, passing the schemas', () => {
      expect(schemaFailures(validateWithSchemas([render]).results)).toEqual([]);
      expect(byKind(objects, 'Deployment').map((d) => d.metadata.name)).toEqual([
        'switchyard-all-in-one',
        'switchyard-console',
      ]);
      const container = deploymentOf(objects, 'all-in-one').spec.containers[0];
      expect(container.command).toEqual([
        'node',
        ...CHART_HEAP_FLAGS.allInOne,
        'dist/apps/switchyard/src/main.js',
      ]);
      expect(container.ports?.map((p) => [p.name, p.containerPort])).toEqual([
        ['http', 8080],
        ['router', 8081],
        ['delivery', 8082],
      ]);
      expect(securityProblems(objects)).toEqual([]);
    });

    it('gives the process every setting the three services get, and each its port', () => {
      const env = containerEnv(objects, deploymentOf(objects, 'all-in-one').spec.containers[0]);
      expect(env).toEqual(expectedAllInOneEnv(mergedValues('values-production.yaml')));
      const settings = allInOneSettingsFromEnv(env);
      expect([settings.services, settings.ingestPort, settings.routerPort, settings.deliveryPort]).toEqual([
        ['ingest', 'router', 'delivery'],
        8080,
        8081,
        8082,
      ]);
      expect(containerEnv(objects, deploymentOf(objects, 'console').spec.containers[0])).toEqual(
        expectedEnv(mergedValues('values-production.yaml'), 'console'),
      );
    });

    it("keeps every Service's name, fronting the pod's port of that service; only ingest's is named http (scraped once)", () => {
      expect(serviceTargetProblems(objects)).toEqual([]);
      const service = (name: Service) =>
        byKind(objects, 'Service').find((o) => o.metadata.name === `switchyard-${name}`)!.spec as {
          selector: Record<string, string>;
          ports: Array<{ name: string; targetPort: string }>;
        };
      expect(SERVICES.map((name) => [name, service(name).selector['app.kubernetes.io/component']])).toEqual([
        ['ingest', 'all-in-one'],
        ['router', 'all-in-one'],
        ['delivery', 'all-in-one'],
        ['console', 'console'],
      ]);
      expect(SERVICES.map((name) => service(name).ports[0].name)).toEqual([
        'http',
        'router',
        'delivery',
        'http',
      ]);
      const broken = structuredClone(objects);
      const delivery = byKind(broken, 'Service').find((o) => o.metadata.name === 'switchyard-delivery')!;
      (delivery.spec as { ports: Array<{ targetPort: string }> }).ports[0].targetPort = 'http-delivery';
      expect(serviceTargetProblems(broken)).toEqual([
        'Service switchyard-delivery: switchyard-all-in-one has no port http-delivery',
      ]);
    });

    it('has a PDB, an autoscaler and a NetworkPolicy for its pods, letting in on each port whom that service lets in', () => {
      expect(pdbProblems(objects)).toEqual([]);
      expect(networkPolicyProblems(objects)).toEqual([]);
      expect(
        byKind(objects, 'HorizontalPodAutoscaler').map(
          (h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name,
        ),
      ).toEqual(['switchyard-all-in-one']);
      const policy = byKind(objects, 'NetworkPolicy').find(
        (p) => p.metadata.name === 'switchyard-all-in-one',
      )!.spec as {
        policyTypes: string[];
        ingress: Array<{ from: Array<Record<string, unknown>>; ports: Array<{ port: number }> }>;
      };
      const component = (o: Record<string, unknown>) =>
        (o.podSelector as { matchLabels: Record<string, string> } | undefined)?.matchLabels[
          'app.kubernetes.io/component'
        ] ?? Object.values((o.namespaceSelector as { matchLabels: Record<string, string> }).matchLabels)[0];
      expect(policy.ingress.map((r) => [r.ports.map((p) => p.port), r.from.map(component)])).toEqual([
        [[8080], ['monitoring', 'ingress-nginx', 'console']],
        [[8081], ['monitoring']],
        [[8082], ['monitoring', 'console']],
      ]);
      expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
    });

    it('refuses what the one process cannot do, naming the value, and renders no KEDA objects', () => {
      expect(templateError([...allInOne, '--set', 'allInOne.autoscaling.kind=keda'])).toMatch(
        /allInOne\.autoscaling\.kind keda: only router and delivery scale on consumer lag/,
      );
      expect(templateError([...allInOne, '--set', 'allInOne.autoscaling.maxReplicas=12'])).toMatch(
        /allInOne\.autoscaling\.maxReplicas 12 exceeds env\.all\.TOPIC_PARTITIONS 6/,
      );
      expect(templateError([...allInOne, '--set', 'env.ingest.INGEST_PORT=9000'])).toMatch(
        /env\.ingest\.INGEST_PORT: INGEST_PORT is set by the chart/,
      );
      const keda = objectsOf(
        template(['-f', valuesFile('values-keda.yaml'), '--set', 'allInOne.enabled=true']),
      );
      expect(keda.filter((o) => ['ScaledObject', 'TriggerAuthentication'].includes(o.kind))).toEqual([]);
    });
  });

  describe('the workspace mode', () => {
    const workspaceFile = ['--set', 'workspace.content=sources: []'];
    const workspaceConfigs = (objects: K8sObject[]) =>
      SERVICES.map((service) => ({
        service,
        WORKSPACE_CONFIG: containerEnv(objects, deploymentOf(objects, service).spec.containers[0])
          .WORKSPACE_CONFIG,
      }));

    it('topic mode (the default) gives no service WORKSPACE_CONFIG, and mounts the file only where it is read', () => {
      const objects = objectsOf(template(workspaceFile));
      expect(workspaceConfigs(objects)).toEqual(
        SERVICES.map((service) => ({ service, WORKSPACE_CONFIG: undefined })),
      );
      const mounted = SERVICES.filter((service) =>
        deploymentOf(objects, service).spec.volumes?.some((v) => v.name === 'workspace'),
      );
      expect(mounted).toEqual(['console']);
      const withoutSeed = objectsOf(template([...workspaceFile, '--set', 'workspace.seed=false']));
      expect(deploymentOf(withoutSeed, 'console').spec.volumes?.map((v) => v.name)).toEqual(['tmp']);
      // Without a workspace file there is no workspace Secret to mount or seed from.
      expect(byKind(objectsOf(template([])), 'Secret').map((o) => o.metadata.name)).not.toContain(
        'switchyard-workspace',
      );
    });

    it('file mode gives every service WORKSPACE_CONFIG and the mounted file', () => {
      const objects = objectsOf(template(['--set', 'workspace.mode=file']));
      expect(workspaceConfigs(objects)).toEqual(
        SERVICES.map((service) => ({ service, WORKSPACE_CONFIG: '/etc/switchyard/workspace.yaml' })),
      );
      for (const service of SERVICES) {
        const pod = deploymentOf(objects, service).spec;
        expect({
          service,
          secret: pod.volumes?.find((v) => v.name === 'workspace')?.secret?.secretName,
        }).toEqual({ service, secret: 'switchyard-workspace' });
      }
    });

    it("the apply Job applies the file through the console's Service with the admin token, --dry-run on request", () => {
      const production = objectsOf(readFileSync(renders['values-production.yaml'], 'utf8'));
      const job = byKind(production, 'Job').find((o) => o.metadata.name === 'switchyard-workspace-apply');
      const spec = (job?.spec as { template: PodTemplate }).template.spec;
      const container = spec.containers[0] as Container & { command: string[] };
      expect(container.command).toEqual([
        'node',
        'dist/scripts/workspace/cli.js',
        'apply',
        '-f',
        '/etc/switchyard/workspace.yaml',
      ]);
      expect(containerEnv(production, container)).toEqual({
        SWITCHYARD_CONSOLE_URL: 'http://switchyard-console:8083',
        SWITCHYARD_TOKEN: 'secret:switchyard-admin/ADMIN_TOKEN',
      });
      expect(spec.volumes?.find((v) => v.name === 'workspace')?.secret?.secretName).toBe(
        'switchyard-workspace',
      );
      // The console's NetworkPolicy admits the Job's pods.
      const consolePolicy = byKind(production, 'NetworkPolicy').find(
        (p) => p.metadata.name === 'switchyard-console',
      );
      const peers = (consolePolicy?.spec as { ingress: Array<{ from: Selector[] }> }).ingress.flatMap((r) =>
        r.from.map((f) => (f as { podSelector?: Selector }).podSelector),
      );
      expect(
        peers.some((selector) =>
          matches(selector, (job?.spec as { template: PodTemplate }).template.metadata?.labels),
        ),
      ).toBe(true);
      const dryRun = objectsOf(
        template([
          '-f',
          valuesFile('values-production.yaml'),
          '--set',
          'workspace.applyJob.dryRun=true',
          '--show-only',
          'templates/jobs.yaml',
        ]),
      ).find((o) => o.metadata.name === 'switchyard-workspace-apply');
      expect((dryRun?.spec as { template: PodTemplate }).template.spec.containers[0]).toMatchObject({
        command: expect.arrayContaining(['--dry-run']),
      });
    });

    it("the apply Job's command is built into the image", () => {
      const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
        include: string[];
      };
      expect(build.include).toContain('scripts/workspace/**/*.ts');
      const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
      expect(dockerfile).toContain('COPY scripts/workspace ./scripts/workspace');
      expect(dockerfile).toContain('test -f dist/scripts/workspace/cli.js');
      expect(dockerfile).toContain('node dist/scripts/workspace/cli.js --help');
      // The image leaves the workspace source to the chart: a WORKSPACE_CONFIG there would force file mode.
      expect(dockerfile).not.toMatch(/^\s*WORKSPACE_CONFIG=/m);
    });
  });

  it("renders README.md's `helm install` as pasted", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const command = readme.match(/^helm install ((?:.*\\\n)*.*)/m)?.[1];
    if (!command) throw new Error('README.md has no `helm install` line');
    const token = 'a'.repeat(64);
    const keys = `k1:${'b'.repeat(43)}=`;
    const args = command
      .replace(/\\\n/g, ' ')
      .replace('"$(openssl rand -hex 32)"', token)
      .replace('"k1:$(openssl rand -base64 32)"', keys)
      .split(/\s+/)
      .filter(Boolean);
    const objects = objectsOf(helmRun(['template', ...args]));
    expect(byKind(objects, 'Deployment')).toHaveLength(4);
    expect(byKind(objects, 'ConfigMap')[0].data?.KAFKA_BROKERS).toBe(
      'my-cluster-kafka-bootstrap.kafka.svc:9092',
    );
    const secretData = (name: string) =>
      byKind(objects, 'Secret').find((o) => o.metadata.name === name)?.stringData;
    expect(secretData('switchyard-admin')?.ADMIN_TOKEN).toBe(token);
    expect(secretData('switchyard-workspace-keys')?.WORKSPACE_ENCRYPTION_KEYS).toBe(keys);
    expect(secretData('switchyard-workspace')?.['workspace.yaml']).toBe(
      readFileSync(join(ROOT, 'config/workspace.example.yaml'), 'utf8'),
    );
  });

  it('refuses values that cannot work, naming the value', () => {
    expect(templateError(['--set', 'kafka.sasl.mechanism=scram-sha-512'])).toMatch(
      /kafka\.credentials\.saslUsername/,
    );
    expect(templateError(['--set', 'env.all.KAFKA_BROKERS=x:9092'])).toMatch(
      /env\.all\.KAFKA_BROKERS: KAFKA_BROKERS is set by the chart/,
    );
    expect(templateError(['--set', 'delivery.autoscaling.maxReplicas=12'])).toMatch(
      /delivery\.autoscaling\.maxReplicas 12 exceeds env\.all\.TOPIC_PARTITIONS 6/,
    );
    expect(templateError(['--set', 'ingest.autoscaling.kind=keda'])).toMatch(
      /ingest\.autoscaling\.kind keda/,
    );
    expect(templateError(['--set', 'admin.token=short'])).toMatch(
      /admin\.token must be at least 16 characters/,
    );
    expect(templateError(['--set', 'env.delivery.DELIVERY_RETRY_WINDOW_MS=100'])).toMatch(
      /env\.delivery\.DELIVERY_RETRY_WINDOW_MS must be a string/,
    );
    expect(templateError(['--set', 'env.console.CONSOLE_INGEST_URL=http://x'])).toMatch(
      /env\.console\.CONSOLE_INGEST_URL: CONSOLE_INGEST_URL is set by the chart/,
    );
    expect(templateError(['--set', 'workspace.mode=database'])).toMatch(
      /workspace\.mode must be topic or file, not "database"/,
    );
    expect(templateError(['--set', 'workspace.encryptionKeys.value=k1:short'])).toMatch(
      /workspace\.encryptionKeys\.value must be id:key/,
    );
    const applyJob = [
      '--set',
      'workspace.applyJob.enabled=true',
      '--set',
      'admin.token=admin-token-0123456789',
    ];
    expect(templateError([...applyJob, '--set', 'workspace.mode=file'])).toMatch(
      /workspace\.applyJob\.enabled needs workspace\.mode topic/,
    );
    expect(templateError(applyJob)).toMatch(
      /workspace\.applyJob\.enabled: the Job applies workspace\.content/,
    );
    expect(
      templateError(['--set', 'workspace.applyJob.enabled=true', '--set', 'workspace.content=sources: []']),
    ).toMatch(/workspace\.applyJob\.enabled: the Job applies with the admin token/);
  });

  it('never prints a secret in its install notes', () => {
    // `helm template` leaves NOTES.txt out: a copy of the chart renders it into a ConfigMap instead.
    const chart = join(workDir, 'chart');
    cpSync(CHART, chart, { recursive: true });
    const notesTemplate = readFileSync(join(chart, 'templates/NOTES.txt'), 'utf8');
    rmSync(join(chart, 'templates/NOTES.txt'));
    writeFileSync(
      join(chart, 'templates/_notes.tpl'),
      `{{- define "notes" -}}\n${notesTemplate}{{- end -}}\n`,
    );
    writeFileSync(
      join(chart, 'templates/notes.yaml'),
      '{apiVersion: v1, kind: ConfigMap, metadata: {name: notes}, data: {notes: {{ include "notes" . | quote }}}}\n',
    );
    const workspace = join(workDir, 'workspace.yaml');
    writeFileSync(
      workspace,
      'sources: [{id: s, name: S, writeKey: write-key-0123456789}]\ndestinations: []\n',
    );
    const secrets = {
      'admin.token': 'admin-token-0123456789abcdef',
      'kafka.credentials.saslPassword': 'kafka-password-0123456789',
      'workspace.encryptionKeys.value': `k1:${'k'.repeat(43)}=`,
      'admin.apiTokens.content': `ci viewer sha256:${'f'.repeat(64)}`,
    };
    const set = [
      ...Object.entries(secrets).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
      ...['--set', 'kafka.sasl.mechanism=plain', '--set', 'kafka.credentials.saslUsername=switchyard'],
      ...['--set-file', `workspace.content=${workspace}`],
    ];
    const notes = objectsOf(template([...set, '--show-only', 'templates/notes.yaml'], chart))[0].data!.notes;
    expect(notes).toMatch(/Delivery console/);
    expect(notes).toMatch(/kubectl -n switchyard get secret switchyard-admin/);
    expect(notes).toMatch(/Workspace \(topic mode\)/);
    for (const secret of [...Object.values(secrets), 'write-key-0123456789'])
      expect(notes).not.toContain(secret);
  });

  it('keeps the kustomize manifests equal to the chart rendered with deploy/helm/kustomize-base.values.yaml', () => {
    for (const [file, text] of Object.entries(renderedKustomizeFiles(helm))) {
      expect({ file, text: readFileSync(file, 'utf8') }).toEqual({ file, text });
    }
  });

  it('keeps files/ equal to the monitoring files it ships', () => {
    for (const [copy, source] of [
      ['files/prometheus-rules.yaml', 'deploy/monitoring/prometheus-rules.yaml'],
      ['files/grafana-dashboard.json', 'deploy/monitoring/grafana-dashboard.json'],
    ]) {
      expect(readFileSync(join(CHART, copy), 'utf8')).toBe(readFileSync(join(ROOT, source), 'utf8'));
    }
  });
});

describe('the chart settings list', () => {
  it('values.yaml and the README table are generated from it and config/runtime-flags.env', () => {
    for (const [file, text] of Object.entries(generatedChartFiles())) {
      expect({ file, text: readFileSync(file, 'utf8') }).toEqual({ file, text });
    }
  });

  it("writes each service's heap flags into its own section only", () => {
    const values = readFileSync(join(CHART, 'values.yaml'), 'utf8');
    const flags = {
      ingest: ['--a=1'],
      router: ['--b=2', '--c'],
      delivery: [],
      console: ['--d=4'],
      allInOne: ['--e=5'],
    };
    const rewritten = parse(withHeapFlags(values, flags, 'values.yaml')) as Record<
      string,
      { heapFlags: string[] }
    >;
    for (const [section, sectionFlags] of Object.entries(flags))
      expect(rewritten[section].heapFlags).toEqual(sectionFlags);
    expect(() => withHeapFlags(values.replace(/^ {2}heapFlags:.*\n/m, ''), flags, 'values.yaml')).toThrow(
      'values.yaml: ingest has no "heapFlags:" line',
    );
  });

  it('holds the services own defaults: setting every variable to its listed default changes nothing', () => {
    const defaults = (service: ChartService) =>
      Object.fromEntries(
        serviceSettings()
          .filter((s) => (s.service === service || s.service === 'all') && s.default !== '')
          .map((s) => [s.env, s.default]),
      );
    const required = { WORKSPACE_CONFIG: '/etc/switchyard/workspace.yaml' };
    const parsers: Record<Service, (env: NodeJS.ProcessEnv) => unknown> = {
      ingest: ingestSettingsFromEnv,
      router: routerSettingsFromEnv,
      delivery: deliverySettingsFromEnv,
      console: consoleSettingsFromEnv,
    };
    for (const service of SERVICES) {
      expect({ service, settings: parsers[service]({ ...required, ...defaults(service) }) }).toEqual({
        service,
        settings: parsers[service](required),
      });
    }
    expect(tracingSettingsFromEnv(defaults('all'))).toEqual(tracingSettingsFromEnv({}));
  });

  it('names every variable of the settings tables once, but secrets and what the chart sets itself', () => {
    const listed = serviceSettings().map((s) => s.env);
    expect(new Set(listed).size).toBe(listed.length);
    const rows = allSettingsTables().flatMap(({ table }) => Object.values(table.rows));
    const managed = chartManagedEnv();
    expect(
      rows
        .filter((row) => !listed.includes(row.env) && !managed.includes(row.env) && !row.secret)
        .map((row) => row.env),
    ).toEqual([]);
    expect(rows.filter((row) => row.secret && listed.includes(row.env)).map((row) => row.env)).toEqual([]);
    // The chart's own list names settings (the services', the all-in-one process's, or the image's
    // SWITCHYARD_SERVICE), so a renamed setting cannot linger in it.
    const allInOneRows = Object.values(ALL_IN_ONE_SETTINGS.rows).map((row) => row.env);
    const known = new Set([...rows.map((row) => row.env), ...allInOneRows, 'SWITCHYARD_SERVICE']);
    expect(managed.filter((name) => !known.has(name))).toEqual([]);
    expect(managed).toEqual(expect.arrayContaining(['KAFKA_BROKERS', 'ADMIN_TOKEN', 'WORKSPACE_CONFIG']));
    const helpers = readFileSync(join(CHART, 'templates/_helpers.tpl'), 'utf8');
    expect(() => chartManagedEnv(helpers.replace('chartManagedEnv', 'managedEnv'))).toThrow(
      /chartManagedEnv/,
    );
  });

  it('leaves the build commit to the image, whose value a ConfigMap entry would override', () => {
    expect(serviceSettings().find((s) => s.env === 'SWITCHYARD_COMMIT')?.default).toBe('');
  });
});
