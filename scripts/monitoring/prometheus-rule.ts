import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** The plain rules file: the one source of Switchyard's alerts. */
export const RULES_FILE = join(__dirname, '..', '..', 'deploy', 'monitoring', 'prometheus-rules.yaml');
/** The Prometheus Operator's copy of it, generated. */
export const PROMETHEUS_RULE_FILE = join(
  __dirname,
  '..',
  '..',
  'deploy',
  'monitoring',
  'prometheusrule.yaml',
);

const HEADER = `# Generated from prometheus-rules.yaml by \`npm run monitoring:generate\`: edit that file, not this one
# (the unit tests fail when they differ). kube-prometheus-stack selects PrometheusRules by label
# (its default is release: <helm release name>); add that label in an overlay if yours does.
`;

/** A PrometheusRule whose spec holds exactly the groups of the plain rules file. */
export function prometheusRuleFrom(rulesYaml: string): string {
  const { groups } = parse(rulesYaml) as { groups: unknown[] };
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'switchyard',
      namespace: 'switchyard',
      labels: { 'app.kubernetes.io/name': 'switchyard', 'app.kubernetes.io/part-of': 'switchyard' },
    },
    spec: { groups },
  };
  return HEADER + stringify(rule, { lineWidth: 0 });
}

if (require.main === module) {
  writeFileSync(PROMETHEUS_RULE_FILE, prometheusRuleFrom(readFileSync(RULES_FILE, 'utf8')));
  process.stdout.write(`wrote ${PROMETHEUS_RULE_FILE}\n`);
}
