import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  readSetting,
  Setting,
  SERVICE_NAMES,
  SERVICE_SETTINGS_TABLES,
  ServiceName,
} from '@switchyard/config';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The kustomize base: the Helm chart rendered with deploy/helm/kustomize-base.values.yaml. */
const KUSTOMIZE_BASE = 'deploy/kubernetes/base/switchyard.yaml';

/** Variables in these files that are not Switchyard settings: the runtime, Node, glibc, OpenTelemetry's SDK. */
const NOT_SETTINGS = /^(SWITCHYARD_SERVICE|NODE_OPTIONS|MALLOC_[A-Z_]+|OTEL_[A-Z_]+)$/;

/**
 * Values that differ from the settings tables' defaults on purpose, with the reason. Every other
 * value in the kustomize base (its ConfigMap and Deployments) and the compose file must equal its
 * default, so a changed default cannot leave a deployment file silently pinning the old one.
 */
const DELIBERATE: Record<string, Record<string, string>> = {
  [KUSTOMIZE_BASE]: {
    KAFKA_BROKERS: 'a cluster in Kubernetes (Strimzi bootstrap Service), not the local broker',
    KAFKA_SSL: 'the example cluster listens with TLS',
    KAFKA_SSL_CA_FILE: "the cluster's CA, mounted from the switchyard-kafka Secret",
    KAFKA_SASL_MECHANISM: 'the example cluster authenticates with SCRAM',
    KAFKA_SASL_PASSWORD_FILE: 'the password, mounted from the switchyard-kafka Secret',
    KAFKA_REPLICATION_FACTOR: 'production: three replicas',
    KAFKA_MIN_INSYNC_REPLICAS: 'production: a write acknowledged once two replicas have it',
    WORKSPACE_CONFIG: 'required: where the workspace Secret is mounted',
    DELIVERY_SHUTDOWN_GRACE_MS:
      "in-flight jobs get longer to finish, inside the Deployment's termination grace",
    DELIVERY_BLOCK_PRIVATE_ADDRESSES: 'SSRF guard on: webhook URLs are customer endpoints on the internet',
    CONSOLE_DELIVERY_URL: 'delivery by its Service name',
    CONSOLE_INGEST_URL: 'ingest by its Service name',
  },
  'docker/compose.yaml': {
    KAFKA_BROKERS: 'the kafka service on the compose network',
    WORKSPACE_CONFIG: 'required: where the workspace file is mounted',
    ADMIN_TOKEN: 'a demo token, overridable from the shell',
    KAFKA_REPLICATION_FACTOR: 'the demo broker is one node',
    KAFKA_MIN_INSYNC_REPLICAS: 'the demo broker is one node',
    DELIVERY_SHUTDOWN_GRACE_MS: "in-flight jobs get longer to finish, inside compose's stop_grace_period",
    CONSOLE_DELIVERY_URL: 'delivery by its compose service name',
  },
};

function rowOf(service: ServiceName, env: string): Setting<unknown> | undefined {
  return SERVICE_SETTINGS_TABLES[service]
    .flatMap((table) => Object.values(table.rows) as Setting<unknown>[])
    .find((row) => row.env === env);
}

/** Compose's `${NAME:-default}`: the value a service gets when the shell does not set NAME. */
function composeValue(raw: unknown): string {
  return String(raw).replace(/^\$\{[A-Z_]+:-(.*)\}$/, '$1');
}

interface Assignment {
  file: string;
  service: ServiceName;
  env: string;
  value: string;
}

interface K8sObject {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: {
    template: {
      spec: { containers: Array<{ name: string; env?: Array<{ name: string; value?: string }> }> };
    };
  };
}

const baseObjects = parseAllDocuments(read(KUSTOMIZE_BASE))
  .map((doc) => doc.toJSON() as K8sObject | null)
  .filter((o): o is K8sObject => o !== null);

/** The ConfigMap every Deployment reads whole (envFrom): each of its entries reaches every service. */
function configMapAssignments(): Assignment[] {
  const configMap = baseObjects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'switchyard-env');
  if (!configMap?.data) throw new Error(`${KUSTOMIZE_BASE}: no ConfigMap switchyard-env`);
  const data = configMap.data;
  return SERVICE_NAMES.flatMap((service) =>
    Object.entries(data).map(([env, value]) => ({
      file: KUSTOMIZE_BASE,
      service,
      env,
      value: String(value),
    })),
  );
}

/** Each Deployment's own `env` values (Secret references carry no value to check). */
function deploymentAssignments(): Assignment[] {
  return SERVICE_NAMES.flatMap((service) => {
    const deployment = baseObjects.find(
      (o) => o.kind === 'Deployment' && o.metadata.name === `switchyard-${service}`,
    );
    const container = deployment?.spec?.template.spec.containers.find((c) => c.name === service);
    if (!container)
      throw new Error(`${KUSTOMIZE_BASE}: no Deployment switchyard-${service} with a ${service} container`);
    return (container.env ?? [])
      .filter((e) => e.value !== undefined)
      .map((e) => ({ file: KUSTOMIZE_BASE, service, env: e.name, value: String(e.value) }));
  });
}

function composeAssignments(): Assignment[] {
  const file = 'docker/compose.yaml';
  const compose = parse(read(file), { merge: true }) as {
    services: Record<string, { environment?: Record<string, unknown> }>;
  };
  return SERVICE_NAMES.flatMap((service) =>
    Object.entries(compose.services[service].environment ?? {}).map(([env, value]) => ({
      file,
      service,
      env,
      value: composeValue(value),
    })),
  );
}

const assignments = [...configMapAssignments(), ...deploymentAssignments(), ...composeAssignments()];

describe('deployment files against the settings tables', () => {
  it("set only variables some service reads, or the runtime's own", () => {
    const unknown = assignments
      .filter((a) => !NOT_SETTINGS.test(a.env))
      .filter((a) => SERVICE_NAMES.every((service) => rowOf(service, a.env) === undefined))
      .map((a) => `${a.file}: ${a.env}`);
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('give each service a value its row accepts', () => {
    const refused = assignments.flatMap(({ file, service, env, value }) => {
      const row = rowOf(service, env);
      const read = row && readSetting(row, { [env]: value });
      return read && 'problem' in read ? [`${file} (${service}): ${read.problem}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it('repeat the default, or override it deliberately and say why', () => {
    const pinned = assignments.flatMap(({ file, service, env, value }) => {
      const row = rowOf(service, env);
      const read = row && readSetting(row, { [env]: value });
      if (!row || !read || !('value' in read)) return [];
      const isDefault = JSON.stringify(read.value) === JSON.stringify(row.default);
      const deliberate = DELIBERATE[file]?.[env] !== undefined;
      if (isDefault && deliberate) return [`${file}: ${env} is listed as an override but equals the default`];
      if (!isDefault && !deliberate && env !== 'PORT')
        return [
          `${file} (${service}): ${env}=${value} differs from the default ${JSON.stringify(row.default)}`,
        ];
      return [];
    });
    expect([...new Set(pinned)]).toEqual([]);
  });

  it('give each service its own default port, in the Deployment and in compose', () => {
    const ports = assignments.filter((a) => a.env === 'PORT');
    expect(ports.map((a) => [a.file, a.value])).toEqual(
      ports.map((a) => [a.file, String(rowOf(a.service, 'PORT')?.default)]),
    );
    expect(ports).toHaveLength(2 * SERVICE_NAMES.length);
  });

  it('list no override that no file makes', () => {
    const made = new Set(assignments.map((a) => `${a.file} ${a.env}`));
    const stale = Object.entries(DELIBERATE).flatMap(([file, overrides]) =>
      Object.keys(overrides).filter((env) => !made.has(`${file} ${env}`)),
    );
    expect(stale).toEqual([]);
  });
});
