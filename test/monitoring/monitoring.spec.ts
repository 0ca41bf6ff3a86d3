import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import {
  PROMETHEUS_RULE_FILE,
  prometheusRuleFrom,
  RULES_FILE,
} from '../../scripts/monitoring/prometheus-rule';
import { promtool } from '../support/promtool';

/**
 * deploy/monitoring/ as Prometheus, the Prometheus Operator and Grafana read it: the rules pass
 * promtool's checks and its rule unit tests, the operator's copy equals the plain file, every
 * dashboard query parses, every metric they name exists in the code, every metric the code
 * exports is documented, and the PodMonitor selects the pods the manifests run.
 */
const ROOT = join(__dirname, '..', '..');
const MONITORING = join(ROOT, 'deploy', 'monitoring');
const RULE_TESTS = join(MONITORING, 'prometheus-rules.test.yaml');
const DASHBOARD = join(MONITORING, 'grafana-dashboard.json');

interface RuleTest {
  name: string;
  alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }>;
}

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

function dashboardQueries(): Array<{ panel: string; expr: string }> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
  const walk = (panels: Panel[]): Array<{ panel: string; expr: string }> =>
    panels.flatMap((p) => [
      ...(p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
      ...walk(p.panels ?? []),
    ]);
  return walk(dashboard.panels);
}

/** Grafana's variables, replaced by what they stand for when the dashboard runs. */
const DASHBOARD_VARIABLES: Record<string, string> = { $__rate_interval: '5m', $destination: '.*' };

function withVariablesReplaced(expr: string): string {
  const replaced = Object.entries(DASHBOARD_VARIABLES).reduce(
    (text, [name, value]) => text.split(name).join(value),
    expr,
  );
  const unknown = replaced.match(/\$\w+/g);
  if (unknown) throw new Error(`dashboard query uses unknown variable(s) ${unknown.join(', ')}: ${expr}`);
  return replaced;
}

/** Every `switchyard_*` metric family the services register, read from the code. */
function metricsInCode(): Set<string> {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /(?<!\.spec)\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  const names = [join(ROOT, 'apps'), join(ROOT, 'libs')]
    .flatMap(files)
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/name: '(switchyard_\w+)'/g)].map((m) => m[1]));
  return new Set(names);
}

/** Metric families an expression reads (histogram series resolved to their family). */
function metricsIn(expr: string, known: Set<string>): string[] {
  return [...expr.matchAll(/(?<![\w:])switchyard_\w+/g)].map(([name]) =>
    known.has(name) ? name : name.replace(/_(bucket|count|sum)$/, ''),
  );
}

describe('monitoring files (deploy/monitoring)', () => {
  it('the rules file passes promtool check rules', () => {
    const { ok, output } = promtool(['check', 'rules', RULES_FILE]);
    expect({ ok, output }).toEqual({ ok: true, output: expect.stringContaining('SUCCESS') });
  });

  it('the rules pass their unit tests in promtool test rules', () => {
    const { ok, output } = promtool(['test', 'rules', RULE_TESTS]);
    expect({ ok, output }).toEqual({ ok: true, output: expect.stringContaining('SUCCESS') });
  });

  it('the rule tests show the alerts the issue names firing: first dead letter, nothing accepted, open circuit, lag growing', () => {
    const { tests } = parse(readFileSync(RULE_TESTS, 'utf8')) as { tests: RuleTest[] };
    const firing = new Set(
      tests.flatMap((t) =>
        (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    for (const alert of [
      'SwitchyardDeadLetters',
      'SwitchyardNothingAccepted',
      'SwitchyardWebhookCircuitOpen',
      'SwitchyardConsumerLagGrowing',
    ]) {
      expect(firing).toContain(alert);
    }
  });

  it('the PrometheusRule holds exactly the rules file (regenerate with npm run monitoring:generate)', () => {
    expect(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')).toBe(
      prometheusRuleFrom(readFileSync(RULES_FILE, 'utf8')),
    );
  });

  it('every dashboard query is valid PromQL for promtool', () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(15);
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-dashboard-'));
    try {
      const file = join(dir, 'dashboard-queries.yaml');
      const rules = queries.map(({ expr }, i) => ({
        record: `dashboard:query_${i}`,
        expr: withVariablesReplaced(expr),
      }));
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }));
      const { ok, output } = promtool(['check', 'rules', file]);
      expect({ ok, output }).toEqual({
        ok: true,
        output: expect.stringContaining(`SUCCESS: ${queries.length} rules found`),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the rules and the dashboard read only metrics the code exports, and docs/operations.md lists every one', () => {
    const known = metricsInCode();
    const { groups } = parse(readFileSync(RULES_FILE, 'utf8')) as {
      groups: Array<{ rules: Array<{ expr: string }> }>;
    };
    const exprs = [
      ...groups.flatMap((g) => g.rules.map((r) => r.expr)),
      ...dashboardQueries().map((q) => q.expr),
    ];
    const unknown = exprs.flatMap((e) => metricsIn(e, known)).filter((name) => !known.has(name));
    expect(unknown).toEqual([]);
    const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    expect([...known].filter((name) => !operations.includes(`\`${name}`))).toEqual([]);
  });

  it('the PodMonitor selects every service pod on its named http port and /metrics', () => {
    const monitor = parse(readFileSync(join(MONITORING, 'podmonitor.yaml'), 'utf8')) as {
      kind: string;
      spec: {
        selector: { matchLabels: Record<string, string> };
        podMetricsEndpoints: Array<{ port: string; path: string }>;
      };
    };
    expect(monitor.kind).toBe('PodMonitor');
    const [endpoint] = monitor.spec.podMetricsEndpoints;
    expect(endpoint).toMatchObject({ port: 'http', path: '/metrics' });
    // The kustomize base is the Helm chart rendered: one file holds every Deployment.
    const file = join(ROOT, 'deploy', 'kubernetes', 'base', 'switchyard.yaml');
    const deployments = readFileSync(file, 'utf8')
      .split(/^---$/m)
      .map((doc) => parse(doc) as DeploymentLike)
      .filter((d) => d?.kind === 'Deployment');
    for (const service of ['ingest', 'router', 'delivery']) {
      const deployment = deployments.find((d) => d.metadata.name.endsWith(service));
      const where = `${relative(ROOT, file)} (${service})`;
      expect({ where, labels: deployment?.spec.template.metadata.labels }).toEqual({
        where,
        labels: expect.objectContaining(monitor.spec.selector.matchLabels),
      });
      const ports = deployment?.spec.template.spec.containers
        .flatMap((c) => c.ports ?? [])
        .map((p) => p.name);
      expect({ where, ports }).toEqual({ where, ports: expect.arrayContaining([endpoint.port]) });
    }
  });
});

interface DeploymentLike {
  kind: string;
  metadata: { name: string };
  spec: {
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: Array<{ ports?: Array<{ name: string }> }> };
    };
  };
}
