import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { helmPath, ROOT } from '../deploy/deploy-tools';
import { freshNamespace, testBrokers } from '../support/kafka-test-kit';
import { freePort, ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY } from '../support/workspace-file';

/**
 * The Helm chart's all-in-one pod (allInOne.enabled), run as the chart renders it: the container's
 * command and environment (the ConfigMap's entries, its own, the Secrets' values) against this
 * machine's broker. Only what a pod has and this machine does not is mapped: the mounted Secrets
 * become files in a temporary folder, the fixed ports free ones, HOST 127.0.0.1, and the image's
 * compiled entry its source (the suites run from source; the first test checks the entry's name).
 */

interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: { template: { spec: PodSpec } };
}
interface PodSpec {
  containers: Array<{
    command: string[];
    env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>;
    envFrom: Array<{ configMapRef: { name: string } }>;
    volumeMounts: Array<{ name: string; mountPath: string }>;
  }>;
  volumes: Array<{ name: string; secret?: { secretName: string }; emptyDir?: object }>;
}

const ADMIN_TOKEN = 'helm-all-in-one-admin-token';
const SHARED_SECRET = 'helm-all-in-one-shared-secret';
const PORTS = ['INGEST_PORT', 'ROUTER_PORT', 'DELIVERY_PORT'];

/** The values of a Secret the chart renders, by key. */
function secretValues(resource: Resource): Record<string, string> {
  const encoded = Object.entries(resource.data ?? {}).map(([k, v]) => [
    k,
    Buffer.from(v, 'base64').toString(),
  ]);
  return { ...Object.fromEntries(encoded), ...resource.stringData };
}

/** The pod's container as a process on this machine: its node flags, entry and environment. */
function podAsProcess(resources: Resource[], filesRoot: string) {
  const named = (kind: string, name: string) => {
    const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
    if (!found) throw new Error(`the render has no ${kind} ${name}`);
    return found;
  };
  const pod = named('Deployment', 'switchyard-all-in-one').spec!.template.spec;
  const [container] = pod.containers;
  // Each mounted Secret becomes a folder of its keys; paths in the environment follow the mounts.
  const mountedAt = new Map<string, string>();
  for (const mount of container.volumeMounts) {
    const volume = pod.volumes.find((v) => v.name === mount.name)!;
    const folder = join(filesRoot, mount.name);
    mkdirSync(folder, { recursive: true });
    if (volume.secret) {
      for (const [key, value] of Object.entries(secretValues(named('Secret', volume.secret.secretName))))
        writeFileSync(join(folder, key), value);
    }
    mountedAt.set(mount.mountPath, folder);
  }
  const onThisMachine = (value: string) => {
    const mount = [...mountedAt].find(([path]) => value === path || value.startsWith(`${path}/`));
    return mount ? mount[1] + value.slice(mount[0].length) : value;
  };
  const env: Record<string, string> = {};
  for (const source of container.envFrom)
    Object.assign(env, named('ConfigMap', source.configMapRef.name).data);
  for (const variable of container.env) {
    const ref = variable.valueFrom?.secretKeyRef;
    env[variable.name] = ref ? secretValues(named('Secret', ref.name))[ref.key] : (variable.value ?? '');
  }
  for (const name of Object.keys(env)) env[name] = onThisMachine(env[name]);
  const [node, ...args] = container.command;
  return { node, nodeArgs: args.slice(0, -1), entry: args.at(-1), env };
}

describe("the Helm chart's all-in-one pod, run as rendered", () => {
  let receiver: WebhookReceiver;
  let filesRoot: string;
  let pod: ReturnType<typeof podAsProcess>;
  let running: ServiceProcess | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    filesRoot = mkdtempSync(join(tmpdir(), 'switchyard-helm-pod-'));
    const workspaceFile = join(filesRoot, 'workspace.json');
    writeFileSync(workspaceFile, JSON.stringify(simpleWorkspace([receiver.url()], SHARED_SECRET)));
    const render = execFileSync(
      helmPath(),
      [
        'template',
        'switchyard',
        join(ROOT, 'deploy/helm/switchyard'),
        ...['--set', 'allInOne.enabled=true', '--set', 'allInOne.autoscaling.maxReplicas=2'],
        ...['--set', `kafka.brokers=${testBrokers().replace(/,/g, '\\,')}`],
        ...['--set', `admin.token=${ADMIN_TOKEN}`, '--set', 'workspace.mode=file'],
        ...['--set-file', `workspace.content=${workspaceFile}`],
        ...['--set-string', `env.all.TOPIC_NAMESPACE=${freshNamespace('helm-all-in-one')}`],
        ...['--set-string', 'env.all.TOPIC_PARTITIONS=2'],
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const resources = parseAllDocuments(render)
      .map((d) => d.toJS() as Resource | null)
      .filter((r): r is Resource => r !== null);
    pod = podAsProcess(resources, join(filesRoot, 'mounts'));
    const ports = Object.fromEntries(
      await Promise.all(PORTS.map(async (p) => [p, String(await freePort())])),
    );
    running = await ServiceProcess.start(
      'switchyard',
      Number(ports.INGEST_PORT),
      { ...pod.env, ...ports, HOST: '127.0.0.1' },
      { nodeArgs: pod.nodeArgs },
    );
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await receiver?.stop();
    if (filesRoot) rmSync(filesRoot, { recursive: true, force: true });
  });

  it('runs the compiled all-in-one entry with the three services and their settings', () => {
    expect([pod.node, pod.entry]).toEqual(['node', 'dist/apps/switchyard/src/main.js']);
    expect(pod.env.SWITCHYARD_SERVICES).toBe('ingest,router,delivery');
    expect(pod.env.PORT).toBeUndefined();
    expect(pod.env.WORKSPACE_CONFIG).toBe(join(filesRoot, 'mounts', 'workspace', 'workspace.yaml'));
  });

  it("delivers a call to its ingest port, signed, and serves every service's metrics on that one port", async () => {
    const response = await fetch(`${running!.url}/v1/track`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${TEST_WRITE_KEY}:`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ userId: 'user-1', event: 'Chart Installed' }),
    });
    expect(response.status).toBe(200);
    const [hook] = await receiver.waitFor(1, (h) => h.body.event === 'Chart Installed', 60_000);
    expect(hook.headers['x-signature']).toBe(
      createHmac('sha1', SHARED_SECRET).update(hook.raw).digest('hex'),
    );
    const metrics = await (await fetch(`${running!.url}/metrics`)).text();
    for (const family of ['switchyard_ingest_', 'switchyard_router_', 'switchyard_delivery_'])
      expect({ family, present: metrics.includes(family) }).toEqual({ family, present: true });
  }, 90_000);
});
